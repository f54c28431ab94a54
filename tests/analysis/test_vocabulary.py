"""The verdict vocabulary: one word, marker, symbol and colour per verdict, used everywhere."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from approval_compaction.analysis import vocabulary
from approval_compaction.analysis.vocabulary import (
    HOLDS,
    LEGEND_ORDER,
    MARKS_BY_WORD,
    NOT_JUDGED,
    RELEASE_WORDS,
    UNAVAILABLE,
    VERDICT_MARKS,
    VIOLATED,
    Mark,
    contrast,
    legend,
    mark,
    marked,
    word,
)

ALL_MARKS = (HOLDS, VIOLATED, NOT_JUDGED, UNAVAILABLE)
VERDICTS: list[tuple[bool | None, Mark]] = [(True, HOLDS), (False, VIOLATED), (None, NOT_JUDGED)]
VERDICT_IDS = ["holds", "violated", "not-judged"]


@pytest.mark.parametrize(("holds", "expected"), VERDICTS, ids=VERDICT_IDS)
def test_vocabulary_each_verdict_has_its_mark_and_word(holds: bool | None, expected: Mark) -> None:
    assert mark(holds) is expected
    assert word(holds) == expected.word
    assert VERDICT_MARKS[holds] is expected


def test_vocabulary_words_the_tables_and_readme_rely_on() -> None:
    """The README and the committed tables read ``holds``, ``VIOLATED`` and ``n/a``; ✗ marks a
    violation in the heatmap."""
    assert [word(True), word(False), word(None)] == ["holds", "VIOLATED", "n/a"]
    assert VIOLATED.symbol == "✗"


@pytest.mark.parametrize("attribute", ["word", "marker", "colour"])
def test_vocabulary_marks_are_distinguishable(attribute: str) -> None:
    values = [getattr(m, attribute) for m in ALL_MARKS]
    assert len(set(values)) == len(values), values


def test_vocabulary_verdict_symbols_are_distinct_single_characters() -> None:
    symbols = [m.symbol for m in LEGEND_ORDER]
    assert len(set(symbols)) == len(symbols) and all(len(s) == 1 for s in symbols)


@pytest.mark.parametrize("each", ALL_MARKS, ids=[m.word for m in ALL_MARKS])
def test_vocabulary_colour_is_a_hex_rgb(each: Mark) -> None:
    assert re.fullmatch(r"#[0-9a-f]{6}", each.colour)


@pytest.mark.parametrize("each", ALL_MARKS, ids=[m.word for m in ALL_MARKS])
def test_vocabulary_marks_by_word_finds_each_mark(each: Mark) -> None:
    assert MARKS_BY_WORD[each.word] is each


def test_vocabulary_mark_is_frozen() -> None:
    with pytest.raises(AttributeError):
        HOLDS.word = "fine"  # type: ignore[misc]


@pytest.mark.parametrize(("holds", "expected"), VERDICTS, ids=VERDICT_IDS)
def test_vocabulary_marked_word_is_marker_then_word(holds: bool | None, expected: Mark) -> None:
    assert expected.marked == f"{expected.marker} {expected.word}"
    assert marked(word(holds)) == expected.marked


@pytest.mark.parametrize("cell", ["passed", "yes", "", "holds again", 3], ids=repr)
def test_vocabulary_marked_leaves_other_cells_as_text(cell: object) -> None:
    assert marked(cell) == str(cell)


def test_vocabulary_legend_lists_verdicts_in_order() -> None:
    assert legend() == ", ".join(m.marked for m in LEGEND_ORDER)
    assert legend().startswith(HOLDS.marked)
    assert legend(symbols=True) == "✓ holds, ✗ violated, – n/a"


def test_vocabulary_legend_of_chosen_marks() -> None:
    assert legend((VIOLATED,)) == VIOLATED.marked
    assert legend((VIOLATED, UNAVAILABLE), symbols=True) == (
        f"{VIOLATED.symbol} violated, {UNAVAILABLE.symbol} unavailable"
    )


def test_vocabulary_statuses_are_distinct_lower_case_words() -> None:
    statuses = [
        vocabulary.STATUS_HOLDS,
        vocabulary.STATUS_VIOLATED,
        vocabulary.STATUS_NOT_APPLICABLE,
        vocabulary.STATUS_ERROR,
        vocabulary.STATUS_UNAVAILABLE,
    ]
    assert len(set(statuses)) == len(statuses)
    assert all(s == s.lower() for s in statuses)
    assert vocabulary.STATUS_UNAVAILABLE == UNAVAILABLE.word


def test_vocabulary_release_words_cover_every_verdict() -> None:
    assert set(RELEASE_WORDS) == set(VERDICT_MARKS)
    assert RELEASE_WORDS[True] == word(True) and RELEASE_WORDS[None] == word(None)
    assert RELEASE_WORDS[False] == "broken"


# Machado, Oliveira and Fernandes (2009), severity 1: linear-RGB matrices that simulate how a
# reader with each dichromacy sees a colour.
SIMULATIONS = {
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                     [-0.011820, 0.042940, 0.968881]],
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                   [-0.003882, -0.048116, 1.051998]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                   [0.004733, 0.691367, 0.303900]],
}  # fmt: skip


def simulated(colour: str, simulation: str) -> np.ndarray:
    """The sRGB colour (0..1) a reader with the dichromacy sees."""
    srgb = np.array([int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    seen = np.clip(np.array(SIMULATIONS[simulation]) @ linear, 0, 1)
    return np.where(seen <= 0.0031308, 12.92 * seen, 1.055 * seen ** (1 / 2.4) - 0.055)


def test_vocabulary_holds_and_violated_are_the_okabe_ito_blue_and_vermillion() -> None:
    assert (HOLDS.colour, VIOLATED.colour) == ("#0072b2", "#d55e00")


@pytest.mark.parametrize("simulation", list(SIMULATIONS))
def test_vocabulary_holds_and_violated_stay_apart_under_colour_blindness(simulation: str) -> None:
    """The old green/red pair came to 0.30 apart under deuteranopia; blue/vermillion 0.81."""
    apart = np.linalg.norm(
        simulated(HOLDS.colour, simulation) - simulated(VIOLATED.colour, simulation)
    )
    assert apart > 0.5


@pytest.mark.parametrize("simulation", list(SIMULATIONS))
def test_vocabulary_every_pair_of_marks_stays_distinguishable(simulation: str) -> None:
    for first, second in itertools.combinations(ALL_MARKS, 2):
        apart = np.linalg.norm(
            simulated(first.colour, simulation) - simulated(second.colour, simulation)
        )
        assert apart > 0.25, (first.word, second.word)


@pytest.mark.parametrize("each", ALL_MARKS, ids=[m.word for m in ALL_MARKS])
def test_vocabulary_symbol_ink_meets_the_wcag_contrast_for_text(each: Mark) -> None:
    """A figure draws each symbol in its mark's ink; 4.5:1 is WCAG AA for normal text."""
    assert each.ink in ("#000000", "#ffffff")
    assert contrast(each.ink, each.colour) >= 4.5
    other = "#ffffff" if each.ink == "#000000" else "#000000"
    assert contrast(each.ink, each.colour) >= contrast(other, each.colour)


@pytest.mark.parametrize(
    ("first", "second", "ratio"),
    [("#000000", "#ffffff", 21.0), ("#ffffff", "#ffffff", 1.0), ("#777777", "#ffffff", 4.48)],
    ids=["black-on-white", "same", "grey-on-white"],
)
def test_vocabulary_contrast_is_the_wcag_ratio(first: str, second: str, ratio: float) -> None:
    assert contrast(first, second) == pytest.approx(ratio, abs=0.01)
    assert contrast(second, first) == contrast(first, second)


def test_vocabulary_every_mark_has_a_symbol() -> None:
    """A heatmap cell carries a symbol whatever its verdict, so it reads without colour."""
    assert all(len(m.symbol) == 1 for m in ALL_MARKS)
    assert len({m.symbol for m in ALL_MARKS}) == len(ALL_MARKS)
