"""What the user meets, stage by stage, judged from hand-built runs."""

from __future__ import annotations

from typing import Any

from approval_compaction.lab.releases.meeting import (
    ANSWERED,
    MEETING_STAGES,
    NOT_RUN,
    PAUSED,
    RAISED,
    all_meetings,
    meetings,
)
from approval_compaction.study.capture import CaseRun, Outcome, Stage
from approval_compaction.study.scenario import Case

Item = dict[str, Any]
Q1 = {"role": "user", "content": "first"}
CALL = {"type": "function_call", "call_id": "c1", "name": "tool", "arguments": "{}"}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "done"}
REFUSED = Outcome(
    "openai.BadRequestError",
    400,
    "Error code: 400 - No tool output found for function call c1.",
    "/v1/responses/compact",
    "No tool output found for function call c1.",
)


def run(*stages: Stage, **fields: Any) -> CaseRun:
    return CaseRun(Case(), "0.0.0", list(stages), 1, 1, model="responses", **fields)


def test_meetings_of_a_run_that_pauses_resumes_and_answers() -> None:
    found = meetings(
        run(
            Stage("pause", stored=[Q1, CALL], interruptions=[CALL], compaction_inputs=[[Q1, CALL]]),
            Stage("round_trip", stored=[Q1, CALL]),
            Stage("resume", stored=[OUTPUT]),
            Stage("next_turn", stored=[Q1, CALL, OUTPUT]),
            mode="auto",
        )
    )
    assert [(m.stage, m.outcome, m.can_decide) for m in found] == [
        ("pause", PAUSED, True),
        ("resume", ANSWERED, False),
        ("next_turn", ANSWERED, False),
    ]
    pause, resume, _ = found
    assert (pause.open_calls, pause.orphan_outputs, pause.compaction_requests) == ("c1", "", 1)
    assert (resume.open_calls, resume.orphan_outputs, resume.stored_items) == ("", "c1", 1)
    assert {(m.mode, m.model, m.compact_rules, m.label) for m in found} == {
        ("auto", "responses", "faithful", "run/approve/on/json")
    }


def test_meetings_of_a_refused_pause_have_nothing_to_decide_or_resume() -> None:
    """openai-agents-python#2317: the pause raised, so the run returned no state: the resume
    never ran, and the next question is what the user can still ask."""
    found = meetings(
        run(
            Stage("pause", stored=[Q1, CALL], compaction_inputs=[[]], outcome=REFUSED),
            Stage("next_turn", stored=[Q1, CALL]),
        )
    )
    pause, resume, next_turn = found
    assert (pause.outcome, pause.can_decide, pause.exception) == (
        RAISED,
        False,
        "openai.BadRequestError",
    )
    assert (pause.http_status, pause.endpoint, pause.api_message) == (
        400,
        "/v1/responses/compact",
        "No tool output found for function call c1.",
    )
    assert pause.message == REFUSED.message and pause.open_calls == "c1"
    assert (resume.outcome, resume.stored_items, resume.exception) == (NOT_RUN, 0, "")
    assert next_turn.outcome == ANSWERED


def test_meetings_of_a_run_that_could_not_run_are_none() -> None:
    assert meetings(run(not_applicable="release lacks X")) == []
    assert meetings(run(Stage("pause", stored=[]), error="RuntimeError: boom")) == []


def test_all_meetings_keep_run_then_stage_order() -> None:
    one = run(Stage("pause", stored=[], interruptions=[CALL]))
    found = all_meetings([one, one])
    assert [m.stage for m in found] == list(MEETING_STAGES) * 2
