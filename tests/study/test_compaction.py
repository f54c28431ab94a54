"""The compaction stand-in: it records each request's input and answers the user messages it was
given and one numbered summary, as the HTTP stand-in and the API do."""

from __future__ import annotations

import openai
import pytest
from agents import SQLiteSession
from agents.memory import OpenAIResponsesCompactionSession

from approval_compaction.study.compaction import CompactionClient
from approval_compaction.study.model import function_call
from approval_compaction.wire import rules
from approval_compaction.wire.standin import StandIn

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
