"""The app: the stand-in behind a real ``openai`` client, in-process (sockets stay blocked)."""

from __future__ import annotations

import openai
import pytest

from approval_compaction.wire.app import build_app, standin_client
from approval_compaction.wire.standin import Exchange, StandIn
from approval_compaction.wire.transport import openai_client

TOOL = {"type": "function", "name": "lookup", "parameters": {"type": "object", "properties": {}}}


async def test_app_standin_client_answers_with_a_tool_call_then_a_message() -> None:
    client = standin_client()
    first = await client.responses.create(model="m", input="q", tools=[TOOL])
    call = first.output[0]
    assert call.type == "function_call"
    follow = [{"type": "function_call_output", "call_id": call.call_id, "output": "x"}]
    second = await client.responses.create(
        model="m",
        input=follow,
        previous_response_id=first.id,
        tools=[TOOL],
    )
    assert second.output[0].type == "message"


async def test_app_an_orphan_output_is_the_api_error_the_client_raises() -> None:
    orphan = [{"type": "function_call_output", "call_id": "gone", "output": "x"}]
    with pytest.raises(openai.BadRequestError) as raised:
        await standin_client().responses.create(model="m", input=orphan)
    assert raised.value.status_code == 400
    assert "No tool call found for function call output with call_id gone" in str(raised.value)


async def test_app_stream_reaches_the_client_as_server_sent_events() -> None:
    stream = await standin_client().responses.create(model="m", input="q", stream=True)
    kinds = [event.type async for event in stream]
    assert kinds[0] == "response.created" and kinds[-1] == "response.completed"


async def test_app_on_request_sees_each_exchange_as_it_is_logged() -> None:
    seen: list[Exchange] = []
    standin = StandIn()
    client = openai_client(build_app(standin, on_request=seen.append))
    await client.responses.create(model="m", input="q")
    with pytest.raises(openai.NotFoundError):
        await client.models.list()
    assert [(e.method, e.path, e.status) for e in seen] == [
        ("POST", "/v1/responses", 200),
        ("GET", "/v1/models", 404),
    ]
    assert seen == standin.log
