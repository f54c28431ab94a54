"""Report: a counterexample as a paste for an upstream issue, with a self-contained SDK test.

In the style of ``share.report``: the release, the command that reproduces it, the steps, the
per-step table, the offending ids, and a pytest file in the SDK's own style that replays the
conversation with only ``agents`` and ``openai`` (a scripted model, a mocked compaction client,
a real ``SQLiteSession``) and asserts pairing after every step. The test covers conversations
of function tools over the memory and JSON boundaries, with their later plain turns, lost
states and states the application kept and resumed late; any other step is named as left out,
and so is the workaround (the test runs the SDK alone).
"""

from __future__ import annotations

import json

from ...formats.markdown import markdown_table
from .conversation import CONTINUE_TURNS, Conversation
from .replay import summary
from .search import Finding

TESTED_KINDS = frozenset({"function_approval", "function", "function_raises"})


def left_out(conversation: Conversation) -> list[str]:
    """Steps the generated test cannot replay (they need ``explore replay`` instead), and the
    workaround when the conversation ran with it."""
    steps = [
        f"{n}: {step.label()}"
        for n, step in enumerate(conversation.steps)
        if set(step.calls) - TESTED_KINDS
        or step.boundary == "process"
        or step.runner == "run_streamed"
        or (step.action == "ask" and step.ending != "answer")
    ]
    return steps + (["the workaround (the test runs the SDK alone)"] if conversation.fix else [])


def markdown(finding: Finding, summary_table: str) -> str:
    """The paste: title, versions, reproduction, steps, table, and the test in a fence."""
    trace = finding.trace
    pairs = ", ".join(f"`{i}` ({k})" for i, k in finding.pairs)
    steps = "\n".join(f"{n}. {s.label()}" for n, s in enumerate(trace.conversation.steps))
    skipped = left_out(trace.conversation)
    lines = [
        f"## Explorer counterexample on openai-agents {trace.sdk_version}: {pairs}",
        "",
        f"Compaction mode `{trace.conversation.mode}`; workaround "
        f"{'on' if trace.conversation.fix else 'off'}. Reproduce with "
        f"`python -m approval_compaction explore replay data/counterexamples/{finding.name}.json`.",
        "",
        steps,
        "",
        summary_table,
        "",
        "<details><summary>Self-contained regression test</summary>",
        "",
        "```python",
        regression_source(finding).rstrip(),
        "```",
        "",
        "</details>",
    ]
    if skipped:
        lines += ["", "The test leaves out: " + "; ".join(skipped)]
    return "\n".join(lines) + "\n"


def markdown_for(finding: Finding) -> str:
    """The paste with its per-step table from the replay view."""

    return markdown(finding, markdown_table(summary(finding.trace, brief=True)))


def regression_source(finding: Finding) -> str:
    """A pytest file that replays the conversation through the SDK and checks pairing."""
    steps = json.dumps([s.to_json() for s in finding.trace.conversation.steps], sort_keys=True)
    mode = finding.trace.conversation.mode
    source = _TEMPLATE.replace("@STEPS@", repr(steps)).replace("@MODE@", repr(mode))
    return source.replace("@TURNS@", str(CONTINUE_TURNS))


_TEMPLATE = '''"""Regression: compaction keeps every tool call paired with its output, everywhere.

Found by a property-based search (hypothesis) and shrunk to these steps. Self-contained: a
scripted model, a mocked compaction client and a real SQLiteSession; nothing leaves the process.
"""

from __future__ import annotations

import json
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import pytest
from agents import Agent, ModelResponse, RunConfig, Runner, RunState, SQLiteSession, Usage
from agents import function_tool
from agents.memory import OpenAIResponsesCompactionSession
from agents.models.interface import Model
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

STEPS = json.loads(@STEPS@)
MODE = @MODE@
LATER_TURNS = @TURNS@  # the plain questions of one "continue" step, the hook saying yes


class PlannedModel(Model):
    def __init__(self) -> None:
        self.plan: list[list[Any]] = []
        self.inputs: list[list[dict[str, Any]]] = []

    async def get_response(self, system_instructions: Any, input: Any, *a: Any, **k: Any) -> Any:
        self.inputs.append(plain(input))
        n = len(self.inputs)
        output = self.plan.pop(0) if self.plan else [message(f"answer {n}")]
        return ModelResponse(output=output, usage=Usage(), response_id=f"resp-{n}")

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("this test drives Runner.run only")


def plain(items: Any) -> list[dict[str, Any]]:
    if isinstance(items, str):
        return [{"role": "user", "content": items}]
    dumped = [i if isinstance(i, dict) else i.model_dump(exclude_unset=True) for i in items]
    return json.loads(json.dumps(dumped, default=str))


def message(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        type="message", id=f"msg-{text.replace(' ', '-')}", role="assistant", status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


def call(kind: str, call_id: str) -> ResponseFunctionToolCall:
    name = "protected_lookup" if kind == "function_approval" else kind
    return ResponseFunctionToolCall(
        type="function_call", id=f"fc-{call_id}", call_id=call_id, name=name,
        arguments=json.dumps({"value": call_id}), status="completed",
    )


def unpaired(items: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """(outputs without an earlier call, calls without a later output) by call_id."""
    open_calls: list[str] = []
    orphans: list[str] = []
    for item in items:
        if item.get("type") == "function_call":
            open_calls.append(item["call_id"])
        elif item.get("type") == "function_call_output":
            if item.get("call_id") in open_calls:
                open_calls.remove(item["call_id"])
            else:
                orphans.append(item.get("call_id", "?"))
    return orphans, open_calls


@pytest.mark.asyncio
async def test_explored_conversation_keeps_calls_paired(tmp_path: Any) -> None:
    @function_tool(needs_approval=True)
    def protected_lookup(value: str) -> str:
        """Return a value once a human approved the call."""
        return "looked up " + value

    @function_tool(name_override="function")
    def plain_lookup(value: str) -> str:
        """Return a value; no approval needed."""
        return "plain " + value

    @function_tool(name_override="function_raises")
    def failing(value: str) -> str:
        """Fail: the SDK stores the error message as the output."""
        raise RuntimeError(value)

    model = PlannedModel()
    agent = Agent(name="agent", model=model, tools=[protected_lookup, plain_lookup, failing])
    client = MagicMock()
    counter = iter(range(1, 1000))
    client.responses.compact = AsyncMock(
        side_effect=lambda **_: MagicMock(
            output=[{"type": "compaction", "id": f"cmp-{next(counter)}", "encrypted_content": "s"}],
            usage=None,
        )
    )
    compact = [False]
    store = SQLiteSession("explored", str(tmp_path / "history.db"))
    session = OpenAIResponsesCompactionSession(
        "explored", store, client=client, compaction_mode=MODE,
        should_trigger_compaction=lambda _: compact[0],
    )
    config = RunConfig(tracing_disabled=True)
    pending: Any = None
    kept = ""  # a paused state's JSON the application saved aside ("keep")
    later = iter(range(1000))
    for index, step in enumerate(STEPS):
        sent, compacted = len(model.inputs), client.responses.compact.await_count
        compact[0] = step.get("compact", False)
        action = step["action"]
        if action == "ask":
            reply = [call(k, f"{k}-{index}-{n}") for n, k in enumerate(step["calls"])]
            model.plan = [reply] if reply else []
            question = f"question {index}"
            result = await Runner.run(agent, question, session=session, run_config=config)
            pending = result.to_state() if result.interruptions else None
        elif action == "continue":  # plain questions, the compaction hook saying yes
            compact[0], pending = True, None
            for _ in range(LATER_TURNS):
                question = f"later question {next(later)}"
                await Runner.run(agent, question, session=session, run_config=config)
        elif action == "lose":  # the paused state is gone: its call stays without its output
            pending = None
        elif action == "keep":  # the application saves the paused state and lets the run go
            kept, pending = json.dumps(pending.to_json()), None
        else:
            if step.get("kept"):  # resumed late: the state the application kept
                pending, kept = await RunState.from_json(agent, json.loads(kept)), ""
            state = pending
            if step["boundary"] == "json":
                state = await RunState.from_json(agent, json.loads(json.dumps(state.to_json())))
            for n, item in enumerate(state.get_interruptions()):
                approve = step["decision"] == "approve" or (step["decision"] == "mixed" and n == 0)
                (state.approve if approve else state.reject)(item)
            result = await Runner.run(agent, state, session=session, run_config=config)
            pending = result.to_state() if result.interruptions else None
        for request in client.responses.compact.await_args_list[compacted:]:
            orphans, open_calls = unpaired(plain(request.kwargs.get("input") or []))
            assert not orphans and not open_calls, f"step {index}: compaction request"
        for sent_input in model.inputs[sent:]:
            assert not unpaired(sent_input)[0], f"step {index}: model input"
        assert not unpaired(plain(await session.get_items()))[0], f"step {index}: stored history"
    store.close()
'''
