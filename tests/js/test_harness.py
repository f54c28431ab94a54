"""The Node harness on the pinned @openai/agents, over HTTP to the stand-in on 127.0.0.1."""

from __future__ import annotations

from dataclasses import replace

import pytest

from approval_compaction.analysis.invariants import judge_all
from approval_compaction.js.harness import Plan, run_plan, run_plans
from approval_compaction.js.sweep import PLANS
from approval_compaction.lab.releases.driven import record
from approval_compaction.study.scenario import Case, select_cases

pytestmark = [
    pytest.mark.enable_socket,
    pytest.mark.subprocess,
    pytest.mark.usefixtures("node_harness"),
]


PAUSED = Case("run", "approve", "on", "json")


def test_harness_input_mode_stores_the_output_alone_and_the_next_turn_is_refused() -> None:
    """The Python bug's twin: compaction at the pause takes the call away, the resumed turn
    stores its output alone, and the next question sends it: the stand-in answers 400."""
    (run,) = run_plan(Plan("input", cases=(PAUSED,)))
    assert run.sdk == "js" and run.error is None
    assert [s.name for s in run.stages] == ["pause", "round_trip", "resume", "next_turn"]
    resume, last = run.stage("resume"), run.stage("next_turn")
    assert resume is not None and last is not None
    assert [i["type"] for i in resume.stored][:2] == ["message", "compaction"]
    assert last.outcome.http_status == 400 and last.outcome.endpoint == "/v1/responses"
    assert last.outcome.api_message.startswith("No tool call found for function call output")
    assert run.dispatches == run.approvals == 1


def test_harness_each_mode_meets_the_refusal_where_the_python_sdk_does() -> None:
    """previous_response_id and auto (store unset) are refused at the pause, by the compaction
    endpoint; input and auto with store false at the next turn."""
    plans = [replace(plan, cases=(PAUSED,)) for plan in PLANS]
    met = [
        record(plan, judge_all(runs)) for plan, runs in zip(plans, run_plans(plans), strict=True)
    ]
    assert [(r.plan, r.raised_at, r.endpoint) for r in met] == [
        ("input", "next_turn", "/v1/responses"),
        ("previous_response_id", "pause", "/v1/responses/compact"),
        ("auto", "pause", "/v1/responses/compact"),
        ("auto-store-false", "next_turn", "/v1/responses"),
    ]


def test_harness_never_compacting_holds_every_invariant() -> None:
    runs = run_plan(Plan("input", cases=tuple(select_cases("compaction=off"))))
    assert len(runs) == 8
    assert all(not j.violations for j in judge_all(runs))


def test_harness_a_second_node_process_resumes_from_the_file_session() -> None:
    """The state's text and the session file cross to another Node process, which resumes and
    asks the next question: the same refusal as in one process."""
    (run,) = run_plan(Plan("input", session="file", process=True, cases=(PAUSED,)))
    assert run.error is None
    assert [s.name for s in run.stages] == ["pause", "round_trip", "resume", "next_turn"]
    round_trip = run.stage("round_trip")
    assert round_trip is not None and "original_input" in round_trip.state_items
    last = run.stage("next_turn")
    assert last is not None and last.outcome.http_status == 400
