"""The ADK driver's step mode (``driver.py --steps``), the search's driver, on the pinned
release (made with uv when missing)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from approval_compaction.adk.harness import Steps
from approval_compaction.adk.packages import pinned, release_environment

pytestmark = [pytest.mark.slow, pytest.mark.releases, pytest.mark.subprocess]
SETTINGS = {"mode": "window-0", "store": "database", "resumable": False}


@pytest.fixture(scope="module")
def steps() -> Iterator[Steps]:
    driver = Steps(release_environment(pinned()).python)
    yield driver
    driver.close()


def test_steps_a_confirmation_answered_late_by_a_second_process(steps: Steps) -> None:
    """Two confirmations in one reply wait; a question comes between; a fork reading the
    database answers them (the first approved), and the tool runs once."""
    assert steps.version == pinned() and steps.start(SETTINGS) == ""
    asked = steps.step(0, {"action": "ask", "calls": ["confirm", "confirm"], "parallel": True})
    assert (asked.outcome, asked.pending, asked.holds) == (
        "paused",
        ("adk-1", "adk-2"),
        {"pending"},
    )
    steps.step(1, {"action": "ask", "calls": []})
    late = steps.step(2, {"action": "decide", "decision": "mixed", "boundary": "process"})
    assert (late.outcome, late.approvals, late.pending) == ("answered", 1, ())
    (stage,) = late.stages
    assert stage.name == "resume" and stage.outcome.ok and stage.dispatches == 1


def test_steps_a_long_running_call_lost_with_its_worker_stops_compaction(steps: Steps) -> None:
    """The case the search found on the pinned release: no later turn compacts."""
    assert steps.start({**SETTINGS, "store": "memory"}) == ""
    died = steps.step(0, {"action": "ask", "calls": ["long_running"], "ending": "die"})
    assert (died.outcome, died.holds) == ("died", {"waiting"})
    later = steps.step(1, {"action": "continue"})
    assert [len(s.compaction_inputs) for s in later.stages] == [0, 0, 0]


def test_steps_refuse_what_the_conversation_cannot_take(steps: Steps) -> None:
    assert steps.start({**SETTINGS, "store": "memory"}) == ""
    assert steps.step(0, {"action": "decide"}).not_applicable == "no confirmation waits"
    assert steps.step(0, {"action": "finish"}).not_applicable == "no long-running call waits"
    steps.step(0, {"action": "ask", "calls": ["confirm"]})
    memory = steps.step(1, {"action": "decide", "boundary": "process"})
    assert memory.not_applicable == "a second process cannot read a memory session"
    assert steps.start({**SETTINGS, "mode": "sliding-1"}) == "no compaction kind 'sliding-1'"
