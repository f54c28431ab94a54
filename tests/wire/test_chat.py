"""The stand-in's Chat Completions: the tool-message rule (both ways) and the answers, JSON and
streamed, as the ``openai`` client reads them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from approval_compaction.wire.app import build_app
from approval_compaction.wire.rules import (
    CHAT,
    OPEN_TOOL_CALLS,
    ORPHAN_TOOL_MESSAGE,
    RULES,
    check_chat_pairing,
)
from approval_compaction.wire.standin import StandIn
from approval_compaction.wire.transport import openai_client

TOOL = {"type": "function", "function": {"name": "lookup", "parameters": {"properties": {}}}}
CALL = {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
USER = {"role": "user", "content": "q"}
ASKS = {"role": "assistant", "content": None, "tool_calls": [CALL]}
ANSWER = {"role": "tool", "tool_call_id": "c1", "content": "x"}


def post(standin: StandIn, body: Any, reply: str = "") -> tuple[int, Any]:
    from approval_compaction.wire.standin import parse

    answered = standin.answer(parse("POST", CHAT, json.dumps(body).encode()), reply)
    text = answered.content().decode()
    return answered.status, json.loads(text) if answered.events is None else text


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        pytest.param([USER, ASKS, ANSWER], None, id="paired"),
        pytest.param([USER, ANSWER], ("orphan", "messages.[1].role"), id="tool-without-call"),
        pytest.param([USER, ASKS, USER], ("open", "messages.[1].role"), id="call-then-user"),
        pytest.param([USER, ASKS], ("open", "messages.[1].role"), id="call-at-the-end"),
        pytest.param(
            [USER, ASKS, ANSWER, ANSWER], ("orphan", "messages.[3].role"), id="answered-twice"
        ),
        pytest.param(
            [USER, ASKS, USER, ANSWER], ("open", "messages.[1].role"), id="answer-too-late"
        ),
    ],
)
def test_chat_pairing_refuses_each_unpaired_shape(
    messages: list[dict[str, Any]], expected: tuple[str, str] | None
) -> None:
    error = check_chat_pairing(messages)
    if expected is None:
        assert error is None
        return
    assert error is not None and error.status == 400
    kind, param = expected
    rule = ORPHAN_TOOL_MESSAGE if kind == "orphan" else OPEN_TOOL_CALLS
    assert error.message.startswith(rule.example.partition("<")[0])
    assert error.param == param


def test_chat_open_call_names_every_unanswered_id() -> None:
    second = {**CALL, "id": "c2"}
    asks = {**ASKS, "tool_calls": [CALL, second]}
    error = check_chat_pairing([USER, asks, ANSWER, USER])
    assert error is not None and error.message.endswith("response messages: c2")


def test_chat_rules_are_listed_with_their_sources() -> None:
    for rule in (ORPHAN_TOOL_MESSAGE, OPEN_TOOL_CALLS):
        assert rule in RULES and rule.endpoints == (CHAT,) and len(rule.sources) >= 2


def test_chat_standin_calls_the_tool_it_is_told_then_answers() -> None:
    standin = StandIn()
    status, first = post(standin, {"messages": [USER], "tools": [TOOL]}, "call:lookup")
    (choice,) = first["choices"]
    assert status == 200 and choice["finish_reason"] == "tool_calls"
    call = choice["message"]["tool_calls"][0]
    assert call["function"]["name"] == "lookup" and call["id"] == "call_standin_1"
    answer = {"role": "tool", "tool_call_id": call["id"], "content": "x"}
    body = {"messages": [USER, choice["message"], answer], "tools": [TOOL]}
    status, second = post(standin, body, "message")
    assert status == 200 and second["choices"][0]["message"]["content"] == "stand-in answer 2"


def test_chat_standin_refuses_a_call_left_open_as_the_api_does() -> None:
    status, body = post(StandIn(), {"messages": [USER, ASKS, USER]})
    assert status == 400
    assert body["error"]["type"] == "invalid_request_error"
    assert "did not have response messages: c1" in body["error"]["message"]


async def test_chat_stream_reads_back_through_the_openai_client() -> None:
    client = openai_client(build_app(StandIn()))
    stream = await client.chat.completions.create(
        model="gpt-4o",
        messages=[USER],  # type: ignore[list-item]
        tools=[TOOL],  # type: ignore[list-item]
        stream=True,
        stream_options={"include_usage": True},
        extra_headers={"x-stand-in-reply": "call:lookup"},
    )
    chunks = [chunk async for chunk in stream]
    calls = [
        c for chunk in chunks for choice in chunk.choices for c in choice.delta.tool_calls or []
    ]
    assert [c.function.name for c in calls if c.function] == ["lookup"]
    assert chunks[-1].usage is not None and chunks[-1].usage.total_tokens > 0


async def test_chat_refusal_is_the_openai_clients_bad_request() -> None:
    import openai

    client = openai_client(build_app(StandIn()))
    with pytest.raises(openai.BadRequestError, match="preceeding message with 'tool_calls'"):
        await client.chat.completions.create(model="gpt-4o", messages=[USER, ANSWER])  # type: ignore[list-item]
