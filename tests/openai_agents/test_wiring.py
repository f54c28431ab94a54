"""Wiring: a case on the SDK's own Responses model over the in-process wire: what the user sees."""

from __future__ import annotations

import openai
import pytest
from agents import SQLiteSession
from agents.memory import OpenAIResponsesCompactionSession

from approval_compaction.analysis.invariants import judge
from approval_compaction.openai_agents.harness import run_case
from approval_compaction.openai_agents.model import function_call
from approval_compaction.openai_agents.wiring import (
    BACKENDS,
    CompactionClient,
    responses_backend,
    unavailable,
)
from approval_compaction.study.capture import OK, CaseRun
from approval_compaction.study.scenario import Case
from approval_compaction.study.words import MODELS
from approval_compaction.wire import rules
from approval_compaction.wire.standin import StandIn

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


USER = {"role": "user", "content": "q"}


def kept(n: int) -> dict[str, object]:
    """USER as the endpoint answers it in its ``n``-th compaction (openai/openai-agents-js#760)."""
    parts = [{"type": "input_text", "text": "q"}]
    return {
        "id": f"msg_compaction-{n}_1",
        "type": "message",
        "status": "completed",
        "role": "user",
        "content": parts,
    }


CALL = {"type": "function_call", "call_id": "c1", "name": "t", "arguments": "{}"}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "x"}


def summary(n: int) -> dict[str, str]:
    return {
        "type": "compaction",
        "id": f"compaction-{n}",
        "encrypted_content": f"synthetic-summary-{n}",
    }


async def test_compaction_client_records_input_and_answers_a_summary() -> None:
    client = CompactionClient()
    answer = await client.responses.compact(model="m", input=[USER, CALL])
    assert client.requests == [[USER, CALL]]
    assert answer.output == [kept(1), summary(1)] and answer.usage is None


async def test_compaction_client_numbers_each_summary() -> None:
    client = CompactionClient()
    answers = [await client.compact(input=[USER]) for _ in range(3)]
    assert [a.output for a in answers] == [[kept(n), summary(n)] for n in (1, 2, 3)]
    assert client.calls == 3 and len(client.requests) == 3


async def test_compaction_client_records_sdk_models_as_plain_items() -> None:
    client = CompactionClient()
    await client.compact(input=[USER, function_call("t", {}, call_id="c2")])
    assert [item.get("call_id") for item in client.requests[0]] == [None, "c2"]
    assert all(type(item) is dict for item in client.requests[0])


async def test_compaction_client_without_input_records_an_empty_request() -> None:
    """``previous_response_id`` mode sends no input: the request is recorded, and empty."""
    client = CompactionClient(chains={"resp-1": [USER, CALL, OUTPUT]}.get)
    await client.compact(model="m", previous_response_id="resp-1")
    assert client.requests == [[]]


async def test_compaction_client_refuses_a_chain_with_an_open_call_as_the_client_would() -> None:
    """openai/openai-agents-python#2317: the compaction endpoint answers a previous_response_id
    whose response holds a call without its output with HTTP 400, which the ``openai`` client
    raises as ``BadRequestError``; the request was still made (and is recorded)."""
    client = CompactionClient(chains={"resp-1": [USER, CALL]}.get)
    with pytest.raises(openai.BadRequestError) as raised:
        await client.compact(model="m", previous_response_id="resp-1")
    error = raised.value
    assert error.status_code == 400 and error.request.url.path == "/v1/responses/compact"
    assert error.body == rules.open_call("c1").body()["error"]
    assert "No tool output found for function call c1." in str(error)
    assert client.requests == [[]] and client.calls == 0


async def test_compaction_client_unknown_previous_response_is_the_apis_400() -> None:
    with pytest.raises(openai.BadRequestError, match="Previous response with id 'resp-9'"):
        await CompactionClient().compact(model="m", previous_response_id="resp-9")


async def test_compaction_client_lenient_compacts_the_refused_chain() -> None:
    """The seed's behaviour, by name: ``lenient`` accepts any request."""
    client = CompactionClient(compact_rules="lenient", chains={"resp-1": [USER, CALL]}.get)
    answer = await client.compact(model="m", previous_response_id="resp-1")
    assert answer.output == [kept(1), summary(1)]


async def test_compaction_client_an_open_call_in_input_is_not_refused() -> None:
    """Nothing public shows the compaction endpoint's answer to an open call in ``input``."""
    answer = await CompactionClient().compact(model="m", input=[USER, CALL])
    assert answer.output == [kept(1), summary(1)]


async def test_compaction_client_without_capture_answers_but_records_nothing() -> None:
    client = CompactionClient(capture=False)
    answer = await client.compact(input=[USER])
    assert client.requests == [] and client.calls == 1
    assert answer.output == [kept(1), summary(1)]


@pytest.mark.parametrize(
    ("chain", "given"),
    [
        ([], [USER, CALL, OUTPUT, {"role": "assistant", "content": "a"}, USER]),
        ([USER, CALL, OUTPUT], [{"type": "message", "role": "user", "content": "r"}]),
        ([], [{"role": "system", "content": "s"}, {"role": "developer", "content": "d"}]),
    ],
    ids=["input", "chain-and-input", "no-user-message"],
)
async def test_compaction_client_keeps_the_user_messages_the_http_stand_in_keeps(
    chain: list[dict[str, str]], given: list[dict[str, str]]
) -> None:
    """The scripted client answered with the summary alone where the stand-in (and the API)
    keep the user messages: a dead call's later user messages vanished with the compaction,
    so ``doctor scan`` called a stuck store pending and the history seemed to grow (issue 21)."""
    import json

    standin = StandIn(responses={"resp-1": chain})
    body: dict[str, object] = {"model": "m", "input": given}
    if chain:
        body["previous_response_id"] = "resp-1"
    reply = standin.handle("POST", rules.COMPACT, json.dumps(body).encode())
    served = [i for i in (reply.body or {})["output"] if i["type"] != "compaction"]
    client = CompactionClient(chains={"resp-1": chain}.get)
    previous = {"previous_response_id": "resp-1"} if chain else {}
    answer = await client.compact(model="m", input=given, **previous)

    def unnumbered(items: list[dict[str, object]]) -> list[dict[str, object]]:
        return [{k: v for k, v in item.items() if k != "id"} for item in items]

    # Each numbers its messages after its own summary's id; the rest is the same.
    assert unnumbered(answer.output[:-1]) == unnumbered(served)
    assert answer.output[-1] == summary(1)


def test_compaction_client_is_its_own_responses_resource() -> None:
    client = CompactionClient()
    assert client.responses is client


@pytest.mark.parametrize(
    ("compact", "history", "requests", "stored"),
    [
        (True, [USER, CALL], [[USER, CALL]], [kept(1), summary(1)]),
        (True, [USER, CALL, OUTPUT], [[USER, CALL, OUTPUT]], [kept(1), summary(1)]),
        (False, [USER, CALL], [], [USER, CALL]),
    ],
    ids=["pending-call-compacted-away", "paired-call-compacted", "hook-says-no"],
)
async def test_compaction_client_serves_the_sdk_compaction_session(
    compact: bool,
    history: list[dict[str, str]],
    requests: list[list[dict[str, str]]],
    stored: list[dict[str, str]],
) -> None:
    """Passed in as the session's client, the stand-in sees what the SDK sends and its summary
    replaces the stored history; the first case is the study's bug in miniature."""
    client = CompactionClient()
    session = OpenAIResponsesCompactionSession(
        "s",
        SQLiteSession("s"),
        client=client,  # type: ignore[arg-type]  # duck-typed stand-in for AsyncOpenAI
        compaction_mode="input",
        should_trigger_compaction=lambda _: compact,
    )
    await session.add_items(history)
    await session.run_compaction()
    assert client.requests == requests
    assert await session.get_items() == stored
