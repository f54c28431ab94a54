"""Sentences written from the data: they change when the data changes."""

from __future__ import annotations

from approval_compaction import Case, finding, records, run_case, to_frame, walkthrough_answer


def test_findings_name_the_shared_choice_of_violating_cases() -> None:
    runs = [run_case(Case(compaction="on")), run_case(Case(compaction="off"))]
    text = finding(to_frame(records(runs)))
    assert "`next_turn_input_paired` is violated in 1 of 2 cases" in text
    assert "exactly the cases with" in text and "compaction=on" in text
    assert "`decision_enforced` holds in every judged case." in text


def test_findings_walkthrough_differs_between_violating_case_and_control() -> None:
    broken = walkthrough_answer(run_case(Case(compaction="on")))
    control = walkthrough_answer(run_case(Case(compaction="off")))
    assert "`pending-c1` is no longer stored" in broken
    assert "without its call" in broken
    assert "stays in the stored history" in control
    assert "The next turn sends no output without its call." in control
