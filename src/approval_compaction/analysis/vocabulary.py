"""Vocabulary: the one set of words, markers, symbols and colours for a verdict.

A verdict is ``True`` (the invariant holds), ``False`` (violated) or ``None`` (not judged). Tables
show its word, markdown adds an emoji marker (GitHub strips colour), and figures draw its symbol on
its colour. A release the sweep could not install or import shows as ``unavailable``. Every table,
heatmap, report and snippet takes its words from here.
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
    def legend(self) -> str:
        """The symbol and the word in lower case, as a figure's caption names it: ``✗ violated``."""
        return f"{self.symbol} {self.word.lower()}"


HOLDS = Mark("holds", "✅", "✓", "#27ae60")
VIOLATED = Mark("VIOLATED", "❌", "✗", "#c0392b")
NOT_JUDGED = Mark("n/a", "➖", "–", "#bdc3c7")
UNAVAILABLE = Mark("unavailable", "⛔", "", "#7f8c8d")

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
