"""One run's story: the answer lines notebooks 01 and 02 print, from the core alone."""

from __future__ import annotations

import pytest

from approval_compaction import Case, run_case
from approval_compaction.analysis.story import diff_answer, walkthrough_answer


def test_story_walkthrough_differs_between_violating_case_and_control() -> None:
    broken = walkthrough_answer(run_case(Case(compaction="on")))
    control = walkthrough_answer(run_case(Case(compaction="off")))
    assert "`pending-c1` is no longer stored" in broken
    assert "`pending-c1` stays in the stored history" in control


@pytest.mark.parametrize("compaction", ["on", "off"])
def test_story_walkthrough_counts_in_words_not_machine_plurals(compaction: str) -> None:
    """Counts such as "1 compaction request(s) left 2 stored item(s)" read like a machine: each
    count takes its noun in the right number."""
    said = walkthrough_answer(run_case(Case(compaction=compaction)))
    assert "(s)" not in said
    assert "ran 1 time for 1 approval." in said


def test_story_diff_answer_names_where_the_orphan_first_reaches_the_model() -> None:
    said = diff_answer(run_case(Case(compaction="on")), run_case(Case(compaction="off")))
    violating, control = said.rstrip(".").split("; ")
    assert "first sends an output without its call (`pending-c1`) at stage `" in violating
    assert control.endswith("never sends an output without its call")
