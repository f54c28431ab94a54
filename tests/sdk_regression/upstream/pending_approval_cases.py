"""Pending approvals and automatic compaction: the cases beside the 0.24.0 regression test.

`test_pending_approval_defers_automatic_compaction` in
`tests/memory/test_compaction_model_visibility.py` (added with the 0.24.0 fix) covers both
runners and both decisions with the state passed through `to_json()` and `from_json()` as a
dict. These cases add what an application that stores the paused run does: the state crosses
a JSON text boundary, the rejected tool must never run, and the next turn's model input must
not carry a tool output without its call (the symptom reported upstream).
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import pytest

from agents import Agent, Runner, RunState, function_tool
from agents.items import TResponseInputItem
from agents.memory import OpenAIResponsesCompactionSession, Session, SQLiteSession
from agents.result import RunResult, RunResultStreaming
from agents.testing import ScriptedModel
from tests.test_responses import get_function_tool_call, get_text_message

pytestmark = pytest.mark.asyncio


async def run(
    agent: Agent[Any], prompt: str | RunState[Any], session: Session, streamed: bool
) -> RunResult | RunResultStreaming:
    if not streamed:
        return await Runner.run(agent, prompt, session=session)
    result = Runner.run_streamed(agent, prompt, session=session)
    async for _ in result.stream_events():
        pass
    return result


def outputs_without_call(items: list[TResponseInputItem]) -> list[str]:
    calls = {item.get("call_id") for item in items if item.get("type") == "function_call"}
    return [
        str(item.get("call_id"))
        for item in items
        if item.get("type") == "function_call_output" and item.get("call_id") not in calls
    ]


@pytest.mark.parametrize("streamed", [False, True], ids=["run", "run_streamed"])
@pytest.mark.parametrize("approve", [True, False], ids=["approve", "reject"])
async def test_pending_approval_survives_json_text_state_and_compaction(
    streamed: bool, approve: bool
) -> None:
    dispatched: list[str] = []

    @function_tool(needs_approval=True)
    def lookup(value: str) -> str:
        """Return a value once a human approved the call."""
        dispatched.append(value)
        return f"looked up {value}"

    client = MagicMock()
    summary = {"type": "compaction", "id": "cmp-text", "encrypted_content": "synthetic-summary"}
    client.responses.compact = AsyncMock(return_value=SimpleNamespace(output=[summary]))
    backend = SQLiteSession("approval-text")
    session = OpenAIResponsesCompactionSession(
        "approval-text",
        backend,
        client=client,
        compaction_mode="input",
        should_trigger_compaction=lambda _: True,
    )
    call = get_function_tool_call("lookup", json.dumps({"value": "v"}))
    model = ScriptedModel(
        steps=[[call], [get_text_message("resolved")], [get_text_message("next")]]
    )
    agent = Agent(name="worker", model=model, tools=[lookup])
    try:
        interrupted = await run(agent, "first", session, streamed)
        # The application stores the paused run as text and restores it later.
        stored = json.dumps(interrupted.to_state().to_json())
        state = await RunState.from_json(agent, json.loads(stored))
        for interruption in state.get_interruptions():
            if approve:
                state.approve(interruption)
            else:
                state.reject(interruption)
        await run(agent, state, session, streamed)
        await run(agent, "second", session, streamed)

        assert dispatched == (["v"] if approve else [])
        client.responses.compact.assert_awaited()
        for request in client.responses.compact.call_args_list:
            assert [
                item["type"]
                for item in request.kwargs["input"]
                if item.get("call_id") == call.call_id
            ] == ["function_call", "function_call_output"]
        assert outputs_without_call(list(model.calls[-1].input)) == []
    finally:
        backend.close()
