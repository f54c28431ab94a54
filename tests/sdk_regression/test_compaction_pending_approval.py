"""Regression: compaction at an approval pause must not orphan the pending tool call.

Symptom (openai-agents issue #5340, "Compaction session compacts a pending approval call,
leaving an orphan output"): a function tool with ``needs_approval=True`` pauses the run, and
``OpenAIResponsesCompactionSession`` compacts the stored history at the pause, summarising the
pending ``function_call`` away. After the ``RunState`` JSON round trip and the resume, approved
or rejected, the tool's ``function_call_output`` is stored without its call and sent in the next
turn's model input, which the Responses API rejects. A rejected call is covered too: rejection
also produces an output that needs its call.

Self-contained: a scripted model, an ``AsyncMock`` compaction client and a real
``SQLiteSession`` on ``tmp_path``; nothing leaves the process.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import pytest
from agents import (
    Agent,
    ModelResponse,
    RunConfig,
    Runner,
    RunState,
    SQLiteSession,
    Usage,
    function_tool,
)
from agents.memory import OpenAIResponsesCompactionSession
from agents.models.interface import Model
from openai.types.responses import (
    Response,
    ResponseCompletedEvent,
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

CALL_ID = "pending-c1"
TIMEOUT = 30.0

# The session exactly as the SDK builds it: once the bug is fixed, this must pass.
SESSION_VARIANTS: list[Any] = [pytest.param(None, id="sdk")]


class ScriptedModel(Model):
    """Answer each call with the next scripted output; record every input it was sent."""

    def __init__(self, steps: list[list[Any]]) -> None:
        self.steps = steps
        self.inputs: list[list[dict[str, Any]]] = []

    def _next(self, input: str | list[Any]) -> list[Any]:
        self.inputs.append(plain(input))
        return self.steps[len(self.inputs) - 1]

    async def get_response(
        self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
    ) -> ModelResponse:
        output = self._next(input)
        return ModelResponse(output=output, usage=Usage(), response_id=f"resp-{len(self.inputs)}")

    async def stream_response(
        self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
    ) -> AsyncIterator[Any]:
        response = Response.model_construct(
            id=f"resp-{len(self.inputs) + 1}",
            object="response",
            created_at=0,
            model="scripted",
            output=self._next(input),
            tools=[],
            tool_choice="auto",
            parallel_tool_calls=False,
        )
        yield ResponseCompletedEvent.model_construct(
            type="response.completed", response=response, sequence_number=0
        )


def plain(items: str | list[Any]) -> list[dict[str, Any]]:
    if isinstance(items, str):
        return [{"role": "user", "content": items}]
    dumped = [i if isinstance(i, dict) else i.model_dump(exclude_unset=True) for i in items]
    return json.loads(json.dumps(dumped, default=str))


def message(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        type="message",
        id=f"msg-{text.replace(' ', '-')}",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


def calls_without_output(items: list[dict[str, Any]]) -> list[str]:
    outputs = {i.get("call_id") for i in items if i.get("type") == "function_call_output"}
    return [
        i["call_id"]
        for i in items
        if i.get("type") == "function_call" and i.get("call_id") not in outputs
    ]


def outputs_without_call(items: list[dict[str, Any]]) -> list[str]:
    seen: set[str] = set()
    orphans = []
    for item in items:
        if item.get("type") == "function_call":
            seen.add(item["call_id"])
        elif item.get("type") == "function_call_output" and item.get("call_id") not in seen:
            orphans.append(item.get("call_id", "?"))
    return orphans


async def drive(agent: Agent[Any], value: Any, session: Any, streamed: bool) -> Any:
    config = RunConfig(tracing_disabled=True)
    if not streamed:
        return await Runner.run(agent, value, session=session, run_config=config)
    result = Runner.run_streamed(agent, value, session=session, run_config=config)
    async for _ in result.stream_events():
        pass
    return result


@pytest.mark.asyncio
@pytest.mark.parametrize("wrap", SESSION_VARIANTS)
@pytest.mark.parametrize("streamed", [False, True], ids=["run", "run_streamed"])
@pytest.mark.parametrize("approve", [True, False], ids=["approve", "reject"])
async def test_compaction_keeps_pending_approval_call_paired(
    tmp_path: Path,
    approve: bool,
    streamed: bool,
    wrap: Callable[[Any], Any] | None,
) -> None:
    """The pending call is never compacted without its output; the next turn has no orphan."""
    dispatched: list[str] = []

    @function_tool(needs_approval=True)
    def protected_lookup(value: str) -> str:
        """Return a value once a human approved the call."""
        dispatched.append(value)
        return "looked up " + value

    pending_call = ResponseFunctionToolCall(
        type="function_call",
        id="fc-1",
        call_id=CALL_ID,
        name="protected_lookup",
        arguments='{"value": "v"}',
        status="completed",
    )
    model = ScriptedModel([[pending_call], [message("finished")], [message("next answer")]])
    agent = Agent(name="approval-agent", model=model, tools=[protected_lookup])

    client = MagicMock()
    summary = {"type": "compaction", "id": "cmp-1", "encrypted_content": "summary"}
    client.responses.compact = AsyncMock(return_value=MagicMock(output=[summary], usage=None))
    store = SQLiteSession("approval-session", str(tmp_path / "history.db"))
    session: Any = OpenAIResponsesCompactionSession(
        "approval-session",
        store,
        client=client,
        compaction_mode="input",
        should_trigger_compaction=lambda _: True,
    )
    if wrap is not None:
        session = wrap(session)

    async def scenario() -> None:
        first = await drive(agent, "first question", session, streamed)
        assert [i.raw_item.call_id for i in first.interruptions] == [CALL_ID]
        stored_state = json.dumps(first.to_state().to_json())  # as an application keeps it
        state = await RunState.from_json(agent, json.loads(stored_state))
        for interruption in state.get_interruptions():
            (state.approve if approve else state.reject)(interruption)
        await drive(agent, state, session, streamed)
        await drive(agent, "next question", session, streamed)

    try:
        await asyncio.wait_for(scenario(), timeout=TIMEOUT)
    finally:
        store.close()

    assert dispatched == (["v"] if approve else []), "the decision must be enforced"
    requests = client.responses.compact.call_args_list
    assert requests, "compaction must still run once the approval is resolved"
    compacted = [plain(request.kwargs.get("input", [])) for request in requests]
    problems = {
        "calls compacted without their output": [
            call_id for sent in compacted for call_id in calls_without_output(sent)
        ],
        "outputs sent without their call in the next turn": outputs_without_call(model.inputs[-1]),
    }
    assert problems == {name: [] for name in problems}
