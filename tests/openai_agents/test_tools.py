"""Tools: the agent carries one tool per kind, and each conversation counts its own runs."""

from __future__ import annotations

import asyncio
from pathlib import Path

from agents import FunctionTool

from approval_compaction.openai_agents.driver import Ask, Decide, Driver, Resume, Setup
from approval_compaction.openai_agents.harness import FINISHED, PENDING_CALL
from approval_compaction.openai_agents.model import ScriptedModel
from approval_compaction.openai_agents.tools import TOOL_NAME, build_agent
from approval_compaction.study.words import KINDS, Decision


def test_tools_agent_carries_the_kinds_tools_in_kinds_order() -> None:
    agent = build_agent(ScriptedModel(), tuple(reversed(KINDS)), guardrail=True)
    names = [getattr(tool, "name", type(tool).__name__) for tool in agent.tools]
    assert len(names) == len(KINDS) and names[0] == TOOL_NAME
    assert [g.name for g in agent.input_guardrails] == ["synthetic_tripwire"]


def test_tools_protected_tool_needs_approval_and_is_made_once() -> None:
    first, again = build_agent(ScriptedModel()), build_agent(ScriptedModel())
    (tool,) = first.tools
    assert isinstance(tool, FunctionTool) and tool.needs_approval is True
    assert again.tools[0] is tool and build_agent(ScriptedModel()).input_guardrails == []


async def test_tools_conversations_running_at_once_count_their_own_dispatches(
    tmp_path: Path,
) -> None:
    """The tools are shared; each conversation, a task of one loop, counts its own runs."""
    decisions: list[Decision] = ["approve", "reject"] * 3

    async def approved(n: int, decision: Decision) -> int:
        steps = [Ask("q", (PENDING_CALL,), stage="pause"), Decide(decision), Resume((FINISHED,))]
        async with Driver(Setup(trigger="never"), tmp_path / f"{n}.db") as driver:
            await driver.take(steps)
            return len(driver.dispatches.approved)

    counts = await asyncio.gather(*(approved(n, d) for n, d in enumerate(decisions)))
    assert counts == [1, 0] * 3
