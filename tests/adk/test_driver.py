"""The ADK driver in the releases' own environments (made with uv when missing): the first
release with compaction loses the pending call; the pinned one keeps it, in every kind."""

from __future__ import annotations

from dataclasses import replace

import pytest

from approval_compaction.adk.harness import Plan, run_plan, run_situations
from approval_compaction.adk.packages import (
    FIRST,
    pinned,
    release_environment,
    responses_environment,
)
from approval_compaction.adk.sweep import PLANS, record
from approval_compaction.analysis.invariants import judge_all
from approval_compaction.analysis.liveness import session_usable
from approval_compaction.study.scenario import Case

pytestmark = [pytest.mark.slow, pytest.mark.releases, pytest.mark.subprocess]

PAUSED = Case("run", "approve", "on", "json")


def test_driver_first_release_compacts_the_pending_call_and_the_resume_raises() -> None:
    """1.16.0: the window at the pause covers the call waiting for confirmation; the second
    process reads only the summary, and the resume raises ValueError after the tool ran."""
    env = release_environment(FIRST)
    (run,) = run_plan(Plan("window-0", cases=(PAUSED,)), env.python)
    assert run.sdk == "adk" and run.sdk_version == FIRST and run.error is None
    assert [s.name for s in run.stages] == ["pause", "round_trip", "resume", "next_turn"]
    round_trip, resume = run.stage("round_trip"), run.stage("resume")
    assert round_trip is not None and [i["type"] for i in round_trip.stored] == ["compaction"]
    assert resume is not None and resume.outcome.exception == "builtins.ValueError"
    (judged,) = judge_all([run])
    broken = {v.invariant for v in judged.violations}
    assert {"compaction_input_complete", "stored_history_paired"} <= broken


def test_driver_pinned_release_holds_every_invariant_in_every_kind() -> None:
    env = release_environment(pinned())
    cases = (PAUSED, Case("run_streamed", "reject", "on", "memory"))
    for plan in PLANS:
        runs = run_plan(Plan(plan.kind, cases=cases), env.python)
        row = record(plan, judge_all(runs))
        assert (row.plan, row.violating, row.not_applicable) == (plan.kind, 0, "")


def test_driver_late_confirmation_reaches_the_summariser_without_its_call() -> None:
    """The case left open on the pinned release: a confirmation answered after later questions
    is handed to the summariser after an earlier summary covered its call."""
    env = release_environment(pinned())
    plan = Plan("window-1", cases=(), situations=("resumed",), later=2)
    ((run,),) = run_situations([plan], env.python)
    assert run.error == "" and run.resumed
    assert "call-1" in run.own_sent


def test_driver_runs_read_the_same_each_time_on_a_release_whose_database_rounds_timestamps() -> (
    None
):
    """1.31.0 run twice on the wall clock gave 1, then 0 cases breaking compaction_input_paired
    in window-1: its database reads a timestamp back to the microsecond. On the driver's clock
    of whole ticks two runs are the same record."""
    env = release_environment("1.31.0")
    cases = tuple(c for c in PLANS[1].cases if c.state_boundary == "json")
    first, second = (run_plan(Plan("window-1", cases=cases), env.python) for _ in range(2))
    assert [r.to_json() for r in first] == [r.to_json() for r in second]
    assert record(PLANS[1], judge_all(first)) == record(PLANS[1], judge_all(second))


@pytest.mark.enable_socket  # the stand-in the harness serves on 127.0.0.1
def test_driver_over_http_sends_each_model_request_to_the_stand_in_and_reads_it_back() -> None:
    """ADK's own OpenAIResponsesLlm on the stand-in: the calls are the stand-in's (its
    numbering), every stage was answered over HTTP, and the case holds as the scripted one."""
    from approval_compaction.adk.packages import responses_environment

    env = responses_environment(pinned())
    (run,) = run_plan(Plan("tokens-2", cases=(PAUSED,), model="responses"), env.python)
    assert run.model == "responses" and run.error is None
    resume = run.stage("resume")
    assert resume is not None and resume.outcome.ok
    sent = [i for inputs in resume.model_inputs for i in inputs if i.get("type") == "function_call"]
    assert [i["call_id"] for i in sent] == ["call_standin_1"]
    (judged,) = judge_all([run])
    assert judged.violations == []


@pytest.mark.enable_socket  # the stand-in the harness serves on 127.0.0.1
def test_driver_a_lost_call_is_sent_to_the_model_without_its_output_and_refused() -> None:
    """google-adk 2.7.0 (as 2.5.0-2.9.2 and 1.x): the worker dies once the model's call is
    stored, and every later turn sends that call to the model without its output. The scripted
    run's records name it (an open call, to the model) and predict the API's 400, which the
    records showed as a usable session before; ADK's own OpenAIResponsesLlm meets that 400
    from the stand-in."""
    plan = Plan("window-0", cases=(), situations=("lost",), later=2)
    ((scripted,),) = run_situations([plan], release_environment("2.7.0").python)
    assert scripted.error == "" and scripted.sent_words == ("open call call-1 to the model",)
    usable = session_usable(scripted)
    assert (usable.holds, usable.raised) == (False, (1, 2))
    assert usable.texts == (
        "predicted by the stand-in's rules: HTTP 400: No tool output found for function call "
        "call-1.",
    )
    http = responses_environment("2.7.0").python
    ((over,),) = run_situations([replace(plan, model="responses")], http)
    assert over.sent_words == ("open call call_standin_1 to the model",)
    assert session_usable(over).texts == (
        "openai.BadRequestError, HTTP 400 at /v1/responses: No tool output found for function "
        "call call_standin_1.",
    )


def test_driver_token_threshold_runs_beside_the_window_fields_a_release_requires() -> None:
    """google-adk 1.25.0 to 2.5.0 accept a token threshold only beside compaction_interval and
    overlap_size (the study recorded the threshold as not applicable there): given a window no
    run reaches, the threshold compacts, and the record says what was added. On 2.0.0, whose
    window never compacts, a confirmation answered late raises the resume's ValueError under
    the threshold; 1.16.0 has no threshold at all."""
    env = release_environment("2.0.0")
    plan = Plan("tokens-2", cases=(PAUSED,))
    runs = run_plan(plan, env.python)
    row = record(plan, judge_all(runs))
    added = "compaction_interval=1000000, overlap_size=0"
    assert (row.not_applicable, row.configured) == ("", added)
    assert any(s.compaction_inputs for s in runs[0].stages)  # the threshold compacted
    late_plan = Plan("tokens-2", cases=(), situations=("resumed",), later=1)
    ((late,),) = run_situations([late_plan], env.python)
    resume = late.own[-1]
    assert resume.raised.startswith("builtins.ValueError: No function call event found")
    (first,) = run_plan(Plan("tokens-0", cases=(PAUSED,)), release_environment(FIRST).python)
    assert first.not_applicable is not None
    assert "token_threshold: Extra inputs are not permitted" in first.not_applicable
