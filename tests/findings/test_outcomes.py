"""Outcomes: where each case ended and what the user saw there, beside the verdict."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from factories import make_run

from approval_compaction.analysis.invariants import judge
from approval_compaction.lab.findings.outcomes import Outcome, outcome_frame, outcome_of
from approval_compaction.study.capture import CaseRun
from approval_compaction.study.capture import Outcome as Seen
from approval_compaction.study.scenario import Case

REJECTED = Seen("openai.BadRequestError", 400, "Error code: 400 - No tool call found")


def over_http(case: Case, **changes: Any) -> CaseRun:
    return replace(make_run(case, **changes), model="responses")


def test_outcomes_a_run_answered_throughout_ends_ok_at_its_last_stage() -> None:
    found = outcome_of(make_run(Case(compaction="off")))
    assert found == Outcome(
        case="run/approve/off/json",
        model="scripted",
        stage="next_turn",
        http_status=None,
        exception="ok",
        message="",
        pause_accepted="holds",
        next_turn_accepted="holds",
    )


def test_outcomes_a_rejected_turn_names_its_stage_status_and_exception() -> None:
    run = over_http(Case(), next_turn={"outcome": REJECTED})
    found = outcome_of(run)
    assert (found.stage, found.http_status, found.exception) == (
        "next_turn",
        400,
        "openai.BadRequestError",
    )
    assert found.message == REJECTED.message and found.next_turn_accepted == "VIOLATED"
    assert outcome_of(judge(run)) == found  # a judged run gives the same row


def test_outcomes_the_first_failed_stage_is_where_the_case_ended() -> None:
    run = over_http(Case(), resume={"outcome": REJECTED}, next_turn={"outcome": REJECTED})
    assert outcome_of(run).stage == "resume"


def test_outcomes_frame_has_one_row_per_case_and_the_status_in_words() -> None:
    runs = [make_run(Case(compaction="off")), over_http(Case(), next_turn={"outcome": REJECTED})]
    frame = outcome_frame(runs)
    assert frame.index.tolist() == ["run/approve/off/json", "run/approve/on/json"]
    assert frame["http_status"].tolist() == ["", "400"]
    assert frame["exception"].tolist() == ["ok", "openai.BadRequestError"]
