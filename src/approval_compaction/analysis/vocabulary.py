"""Vocabulary: the one set of words, markers, symbols and colours for a verdict.

A verdict is ``True`` (the invariant holds), ``False`` (violated) or ``None`` (not judged). Tables
show its word, markdown adds an emoji marker (GitHub strips colour), and figures draw its symbol on
its colour, in the ink (black or white) that contrasts more with it, so a figure reads without
colour too. A release the sweep could not install or import shows as ``unavailable``. Every
table, heatmap, report and snippet takes its words, symbols and colours from here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mark:
    """How one verdict reads: a word in tables, a marker in markdown, a symbol and a colour."""

    word: str
    marker: str
    symbol: str
    colour: str

    @property
    def marked(self) -> str:
        """The word with its marker, as markdown shows it: ``✅ holds``."""
        return f"{self.marker} {self.word}"

    @property
    def ink(self) -> str:
        """The colour its symbol is drawn in: black or white, whichever contrasts more."""
        return max((BLACK, WHITE), key=lambda text: contrast(text, self.colour))

    @property
    def legend(self) -> str:
        """The symbol and the word in lower case, as a figure's caption names it: ``✗ violated``."""
        return f"{self.symbol} {self.word.lower()}"


BLACK, WHITE = "#000000", "#ffffff"


def luminance(colour: str) -> float:
    """The WCAG relative luminance of a ``#rrggbb`` colour, 0 (black) to 1 (white)."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    """The WCAG contrast ratio of two colours, 1 (none) to 21 (black on white)."""
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


# Colours from the Okabe-Ito palette, which stays distinguishable under the common colour-vision
# deficiencies: blue for holds, vermillion for violated, greys for the cells with no verdict.
OKABE_ITO_BLUE = "#0072b2"
OKABE_ITO_VERMILLION = "#d55e00"

HOLDS = Mark("holds", "✅", "✓", OKABE_ITO_BLUE)
VIOLATED = Mark("VIOLATED", "❌", "✗", OKABE_ITO_VERMILLION)
NOT_JUDGED = Mark("n/a", "➖", "–", "#d9d9d9")
UNAVAILABLE = Mark("unavailable", "⛔", "∅", "#6e6e6e")

VERDICT_MARKS: dict[bool | None, Mark] = {True: HOLDS, False: VIOLATED, None: NOT_JUDGED}
MARKS_BY_WORD: dict[str, Mark] = {m.word: m for m in (HOLDS, VIOLATED, NOT_JUDGED, UNAVAILABLE)}
LEGEND_ORDER: tuple[Mark, ...] = (HOLDS, VIOLATED, NOT_JUDGED)
_MARKED = {m.word: m.marked for m in LEGEND_ORDER}

# The status of one case and invariant in a results file, in lower-case words.
STATUS_HOLDS = "holds"
STATUS_VIOLATED = "violated"
STATUS_NOT_APPLICABLE = "not applicable"
STATUS_ERROR = "error"
STATUS_UNAVAILABLE = UNAVAILABLE.word

# A release judged on one invariant across its cases, as ``bisect`` words it.
RELEASE_WORDS: dict[bool | None, str] = {True: "holds", False: "broken", None: "n/a"}


def mark(holds: bool | None) -> Mark:
    """The mark of a verdict."""
    return VERDICT_MARKS[holds]


def word(holds: bool | None) -> str:
    """A verdict as a table cell: ``holds``, ``VIOLATED`` or ``n/a``."""
    return VERDICT_MARKS[holds].word


def marked(value: object) -> str:
    """A table cell with its marker when it is a verdict word (``✅ holds``); else as it is."""
    text = str(value)
    return _MARKED.get(text, text)


def legend(marks: tuple[Mark, ...] = LEGEND_ORDER, *, symbols: bool = False) -> str:
    """The marks in words, e.g. ``✅ holds, ❌ VIOLATED, ➖ n/a``."""
    return ", ".join(m.legend if symbols else m.marked for m in marks)
