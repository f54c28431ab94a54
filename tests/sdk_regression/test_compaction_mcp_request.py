"""Regression: an unanswered hosted MCP approval request stops automatic compaction for good.

On openai-agents 0.24.0 the user asks something else instead of answering an
``mcp_approval_request``: the SDK sends the request with every later turn, and the compaction
session returns without compacting while it is unanswered, so the stored history grows. A fix
keeps the request stored (a saved ``RunState`` may still answer it) and never sends it to the
compaction endpoint without its response. Self-contained: a scripted model, a compaction client
answering as ``responses.compact`` is documented to, a real ``SQLiteSession``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from openai.types.responses import ResponseOutputMessage, ResponseOutputText
from openai.types.responses.response_output_item import McpApprovalRequest

from agents import Agent, HostedMCPTool, ModelResponse, RunConfig, Runner, SQLiteSession, Usage
from agents.memory import OpenAIResponsesCompactionSession
from agents.models.interface import Model

REQUEST_ID = "pending-mcpr1"
LATER_TURNS = 6


class ScriptedModel(Model):
    """The first call asks for approval on the hosted MCP server; later calls answer."""

    def __init__(self) -> None:
        self.calls = 0

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        self.calls += 1
        request = McpApprovalRequest(
            type="mcp_approval_request",
            id=REQUEST_ID,
            name="lookup",
            arguments="{}",
            server_label="synthetic",
        )
        text = ResponseOutputText(type="output_text", text=f"answer {self.calls}", annotations=[])
        answer = ResponseOutputMessage(
            type="message",
            id=f"msg-{self.calls}",
            role="assistant",
            status="completed",
            content=[text],
        )
        output = [request] if self.calls == 1 else [answer]
        return ModelResponse(output=output, usage=Usage(), response_id=f"resp-{self.calls}")

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("this test runs Runner.run only")


class CompactEndpoint:
    """``client.responses.compact``: the user's messages, then one compaction item."""

    def __init__(self) -> None:
        self.responses = self
        self.inputs: list[list[dict[str, Any]]] = []

    async def compact(self, **kwargs: Any) -> SimpleNamespace:
        given = [dict(item) for item in kwargs["input"]]  # the stored items, as sent
        self.inputs.append(given)
        users = [{**i, "type": "message"} for i in given if i.get("role") == "user"]
        summary = {"type": "compaction", "id": f"cmp-{len(self.inputs)}", "encrypted_content": "s"}
        return SimpleNamespace(output=[*users, summary], usage=None)


@pytest.mark.asyncio
async def test_compaction_keeps_running_after_unanswered_mcp_approval_request(
    tmp_path: Path,
) -> None:
    mcp = HostedMCPTool(
        tool_config={
            "type": "mcp",
            "server_label": "synthetic",
            "server_url": "https://synthetic.example/mcp",
            "require_approval": "always",
        }
    )
    agent = Agent(name="approval-agent", model=ScriptedModel(), tools=[mcp])
    endpoint = CompactEndpoint()
    store = SQLiteSession("session", str(tmp_path / "history.db"))
    session = OpenAIResponsesCompactionSession(
        "session",
        store,
        client=endpoint,  # type: ignore[arg-type]
        compaction_mode="input",
        should_trigger_compaction=lambda _: True,
    )
    config = RunConfig(tracing_disabled=True)
    lengths: list[int] = []  # stored items after each later turn, without the user's messages

    async def scenario() -> list[Any]:
        first = await Runner.run(agent, "first question", session=session, run_config=config)
        assert len(first.interruptions) == 1  # the request waits; the user asks something else
        for turn in range(LATER_TURNS):
            await Runner.run(agent, f"question {turn + 1}", session=session, run_config=config)
            stored = await store.get_items()
            lengths.append(sum(1 for item in stored if item.get("role") != "user"))
        return stored

    try:
        stored = await asyncio.wait_for(scenario(), timeout=60)
    finally:
        store.close()

    assert len(endpoint.inputs) >= LATER_TURNS, "compaction must run at every later turn"
    assert lengths == [lengths[0]] * LATER_TURNS, f"the stored history grew: {lengths}"
    assert REQUEST_ID in [item.get("id") for item in stored], "the request must stay stored"
    compacted = [i for items in endpoint.inputs for i in items if i.get("id") == REQUEST_ID]
    assert compacted == [], "the request was sent to the compaction endpoint without its response"
