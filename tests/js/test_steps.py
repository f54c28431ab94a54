"""The JS harness's step mode (``driver.mjs --steps``), the search's driver, on the pinned
@openai/agents against the stand-in."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from approval_compaction.js.harness import Steps

pytestmark = [
    pytest.mark.enable_socket,
    pytest.mark.subprocess,
    pytest.mark.usefixtures("node_harness"),
]
SETTINGS = {"mode": "input", "shape": "keeps_users", "store": "file"}


@pytest.fixture(scope="module")
def steps() -> Iterator[Steps]:
    driver = Steps()
    yield driver
    driver.close()


def test_steps_a_reply_s_calls_pause_and_a_second_process_answers_them(steps: Steps) -> None:
    assert steps.start(SETTINGS) == ""
    asked = steps.step(0, {"action": "ask", "calls": ["function_approval", "mcp_approval"]})
    assert asked.outcome == "paused"
    assert asked.pending == ("function_approval-0-0", "mcp_approval-0-1")
    answered = steps.step(1, {"action": "decide", "decision": "mixed", "boundary": "process"})
    assert (answered.outcome, answered.approvals, answered.pending) == ("answered", 1, ())
    (stage,) = answered.stages
    assert stage.name == "resume" and stage.dispatches == 1


def test_steps_keep_a_state_and_decide_it_late(steps: Steps) -> None:
    assert steps.start({**SETTINGS, "store": "memory"}) == ""
    steps.step(0, {"action": "ask", "calls": ["function_approval"]})
    kept = steps.step(1, {"action": "keep"})
    assert (kept.outcome, kept.holds) == ("kept", {"kept"})
    steps.step(2, {"action": "ask", "calls": []})
    late = steps.step(3, {"action": "decide", "kept": True, "boundary": "json"})
    assert late.approvals == 1 and late.holds == frozenset()
    assert steps.step(4, {"action": "lose"}).not_applicable == "no paused run"


def test_steps_continue_records_each_later_turn(steps: Steps) -> None:
    assert steps.start({**SETTINGS, "store": "memory"}) == ""
    later = steps.step(0, {"action": "continue"})
    assert len(later.stages) == 3 and all(s.name == "next_turn" for s in later.stages)
