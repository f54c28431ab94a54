"""The RunState JSON boundary: bad state is a one-line error naming the problem."""

from __future__ import annotations

import json
from typing import Any

import pytest
from agents import Agent, RunConfig, Runner, SQLiteSession

from approval_compaction.errors import StateRestoreError
from approval_compaction.openai_agents import state
from approval_compaction.openai_agents.harness import PENDING_CALL
from approval_compaction.openai_agents.model import ScriptedModel
from approval_compaction.openai_agents.tools import build_agent


@pytest.fixture
async def paused() -> tuple[Agent[Any], str]:
    agent = build_agent(ScriptedModel(steps=[[PENDING_CALL]]))
    result = await Runner.run(
        agent, "q", session=SQLiteSession("s"), run_config=RunConfig(tracing_disabled=True)
    )
    return agent, state.to_text(result.to_state())


async def test_state_round_trip_keeps_the_pending_approval(paused: tuple[Agent[Any], str]) -> None:
    agent, text = paused
    restored = await state.restore(agent, text)
    assert [i.raw_item.call_id for i in restored.get_interruptions()] == ["pending-c1"]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda t: t[: len(t) // 2], "RunState JSON is corrupted or truncated"),
        (lambda t: "#" + t, "RunState JSON is corrupted or truncated"),
        (lambda t: "[1, 2]", "RunState JSON must be an object, not list"),
        (lambda t: json.dumps({"current_turn": 1}), "cannot resume agent 'approval-agent'"),
    ],
    ids=["truncated", "corrupted", "not-an-object", "not-a-run-state"],
)
async def test_state_bad_json_is_one_line_error(
    paused: tuple[Agent[Any], str], damage: Any, message: str
) -> None:
    agent, text = paused
    with pytest.raises(StateRestoreError) as info:
        await state.restore(agent, damage(text))
    assert message in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("other", "message"),
    [
        (Agent(name="someone-else"), "cannot resume agent 'someone-else'"),
        (Agent(name="approval-agent"), "made for another agent: pending tool 'protected_lookup'"),
    ],
    ids=["other-name", "same-name-without-the-tool"],
)
async def test_state_for_another_agent_is_one_line_error(
    paused: tuple[Agent[Any], str], other: Agent[Any], message: str
) -> None:
    _, text = paused
    with pytest.raises(StateRestoreError) as info:
        await state.restore(other, text)
    assert message in str(info.value) and "\n" not in str(info.value)
