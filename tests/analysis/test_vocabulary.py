"""The verdict vocabulary: one word, marker, symbol and colour per verdict, used everywhere."""

from __future__ import annotations

import re

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
