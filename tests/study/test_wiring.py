"""Wiring: a case on the SDK's own Responses model over the in-process wire: what the user sees."""

from __future__ import annotations

import openai
import pytest

from approval_compaction.analysis.invariants import judge
from approval_compaction.study.capture import OK, CaseRun
from approval_compaction.study.harness import run_case
from approval_compaction.study.scenario import Case
from approval_compaction.study.wiring import (
    BACKENDS,
    responses_backend,
    unavailable,
)
from approval_compaction.study.words import MODELS

MESSAGE = "No tool call found for function call output with call_id pending-c1."


@pytest.fixture(scope="module")
def on() -> CaseRun:
    return run_case(Case(compaction="on"), backend=responses_backend)


@pytest.fixture(scope="module")
def off() -> CaseRun:
    return run_case(Case(compaction="off"), backend=responses_backend)


def test_wiring_compaction_on_ends_the_next_turn_with_bad_request(on: CaseRun) -> None:
    """The seed bug as a user meets it: ``openai.BadRequestError`` with the API's message."""
    last = on.stages[-1]
    assert (on.model, on.error, last.name, last.outcome.http_status) == (
        "responses",
        None,
        "next_turn",
        400,
    )
    assert last.outcome.text.startswith(
        f"{openai.BadRequestError.__module__.split('.')[0]}.BadRequestError"
    )
    assert MESSAGE in last.outcome.message
    verdict = next(v for v in judge(on).verdicts if v.invariant == "next_turn_accepted")
    assert verdict.holds is False and MESSAGE in verdict.detail


def test_wiring_compaction_off_is_accepted_every_turn(off: CaseRun) -> None:
    assert [s.outcome.text for s in off.stages] == [OK] * 4
    assert all(v.holds for v in judge(off).verdicts)


def test_wiring_keeps_each_http_body_and_the_model_interface_input(on: CaseRun) -> None:
    stage = on.stage("next_turn")
    assert stage is not None
    (request,) = stage.http_requests
    assert (request["path"], request["status"], request["error"]) == ("/v1/responses", 400, MESSAGE)
    assert all("error" not in r for s in on.stages[:-1] for r in s.http_requests)
    sent = [item.get("call_id") for item in request["body"]["input"]]
    handed = [item.get("call_id") for item in stage.model_inputs[0]]
    assert sent == handed and "pending-c1" in sent


def test_wiring_compaction_requests_go_over_the_wire(on: CaseRun) -> None:
    pause = on.stage("pause")
    assert pause is not None
    paths = [r["path"] for r in pause.http_requests]
    assert paths == ["/v1/responses", "/v1/responses/compact"]
    assert pause.compaction_inputs == [r["body"]["input"] for r in pause.http_requests[1:]]


def test_wiring_streamed_runner_sees_the_same_error() -> None:
    run = run_case(Case(runner="run_streamed", decision="reject"), backend=responses_backend)
    seen = run.stages[-1].outcome
    assert seen.http_status == 400 and MESSAGE in seen.message


def test_wiring_scripted_prediction_matches_the_wire(on: CaseRun, off: CaseRun) -> None:
    """The scripted model's predicted verdict agrees with what the wire observed."""
    for observed in (on, off):
        predicted = run_case(observed.case)
        verdicts = [
            next(v.holds for v in judge(r).verdicts if v.invariant == "next_turn_accepted")
            for r in (predicted, observed)
        ]
        assert verdicts[0] == verdicts[1]


def test_wiring_every_model_has_its_wiring_and_this_environment_runs_both() -> None:
    assert list(BACKENDS) == list(MODELS)
    assert [unavailable(model) for model in MODELS] == ["", ""]
