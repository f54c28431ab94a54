"""A stuck session from a real run: the doctor names the call (or the hosted MCP approval
request) that pins it, heals it, and the release then keeps compacting it; restore puts the call
back."""

from __future__ import annotations

import asyncio
from pathlib import Path

import needs
import pytest

from approval_compaction.analysis.liveness import judge_liveness, liveness_run
from approval_compaction.doctor.repair import PREFIX, apply, dry_run
from approval_compaction.doctor.restore import restore
from approval_compaction.doctor.scan import scan_store
from approval_compaction.doctor.verdict import STUCK
from approval_compaction.openai_agents.driver import Ask, Continue, Setup, converse
from approval_compaction.openai_agents.harness import (
    MCP_REQUEST,
    MCP_REQUEST_ID,
    PENDING_CALL,
    PENDING_CALL_ID,
)
from approval_compaction.openai_agents.situations import later
from approval_compaction.openai_agents.worker import Worker

TURNS = 3


def stuck_store(path: Path) -> None:
    """An approval nobody decided, then two more questions, compaction never running: what
    0.24.0 or a deferral that never ends leaves behind."""
    steps = [Ask("first question", (PENDING_CALL,), stage="pause"), Continue(2)]
    converse(Setup(trigger="never"), steps, path)


def test_stuck_session_is_named_repaired_keeps_compacting_and_restores(tmp_path: Path) -> None:
    store = tmp_path / "stuck.db"
    stuck_store(store)
    (report,) = asyncio.run(scan_store(str(store)))
    assert report.verdict == STUCK and report.open_calls == (PENDING_CALL_ID,)
    assert PENDING_CALL_ID in report.note

    (planned,) = asyncio.run(dry_run(str(store))).outcomes
    (change,) = planned.changes
    assert change.before["call_id"] == PENDING_CALL_ID
    assert change.after["content"].startswith(f"{PREFIX}The tool call {PENDING_CALL_ID} (")

    result = asyncio.run(apply(str(store), tmp_path / "backup.jsonl"))
    assert result.count("repaired") == 1
    (healed,) = asyncio.run(scan_store(str(store)))
    assert healed.verdict == "healthy"

    transcript = converse(Setup(trigger="always"), later(TURNS), store)
    run = liveness_run("healed", transcript.sdk_version, "input", False,
                       [(t.stage, t.outcome) for t in transcript.turns])  # fmt: skip
    assert [v.holds for v in judge_liveness(run)] == [True, True]

    stuck_store(tmp_path / "again.db")
    asyncio.run(apply(str(tmp_path / "again.db"), tmp_path / "again.jsonl"))
    asyncio.run(restore(tmp_path / "again.jsonl"))
    (back,) = asyncio.run(scan_store(str(tmp_path / "again.db")))
    assert back.verdict == STUCK


def test_a_stuck_call_and_all_before_it_survive_every_later_compaction(tmp_path: Path) -> None:
    """The stuck note's claim on the installed SDK: each later compaction replaces only what
    follows the dead call (its user messages kept, as the API keeps them), so the call and the
    items stored before it stay as they are, turn after turn, and the store stays stuck."""
    store = tmp_path / "stuck.db"
    steps = [Ask("first question", (PENDING_CALL,), stage="pause"), Continue(2)]
    stored = converse(Setup(trigger="never"), steps, store).stage("next_turn").stored
    pinned = stored[: 1 + next(n for n, i in enumerate(stored) if i.get("call_id"))]
    transcript = converse(Setup(trigger="always"), later(TURNS), store)
    stages = [t.stage for t in transcript.turns if t.stage]
    assert len(stages) == TURNS and all(stage.compaction_inputs for stage in stages)
    assert all(stage.stored[: len(pinned)] == pinned for stage in stages)
    assert all(stage.stored[len(pinned) :] != [] for stage in stages)
    (report,) = asyncio.run(scan_store(str(store)))
    assert report.verdict == STUCK and report.open_calls == (PENDING_CALL_ID,)


def _newest_worker() -> Worker:
    from approval_compaction.lab.mechanism.catalogue import NEWEST
    from approval_compaction.lab.releases import environments

    env = needs.release(NEWEST)
    return Worker(str(env.python), environments.isolated_environ())


def abandoned_mcp_store(path: Path) -> None:
    """A hosted MCP approval request nobody decided, then two more questions."""
    steps = [Ask("first question", (MCP_REQUEST,), stage="pause"), Continue(2)]
    converse(Setup(trigger="never", kinds=("mcp_approval",)), steps, path)


def _continued(store: Path, worker: Worker) -> list[bool | None]:
    setup = Setup(trigger="always", kinds=("mcp_approval",))
    transcript = converse(setup, later(TURNS), store, worker=worker)
    run = liveness_run("mcp", transcript.sdk_version, "input", False,
                       [(t.stage, t.outcome) for t in transcript.turns])  # fmt: skip
    return [v.holds for v in judge_liveness(run)]


@pytest.mark.releases
def test_an_abandoned_mcp_request_pins_the_newest_release_until_the_doctor_heals_it(
    tmp_path: Path,
) -> None:
    """The store a real run leaves after an MCP approval nobody decided: the doctor names the
    request, 0.24.0 never compacts the store again (the SDK waits for a response that no run
    will send), the repair heals it and 0.24.0 keeps compacting it; restore puts it back."""
    store, healed = tmp_path / "mcp.db", tmp_path / "healed.db"
    abandoned_mcp_store(store)
    abandoned_mcp_store(healed)
    (report,) = asyncio.run(scan_store(str(store)))
    assert report.verdict == STUCK and report.open_calls == (MCP_REQUEST_ID,)
    assert f"MCP approval request {MCP_REQUEST_ID}" in report.note
    assert asyncio.run(apply(str(healed), tmp_path / "backup.jsonl")).count("repaired") == 1
    with _newest_worker() as worker:
        assert _continued(store, worker) == [False, False]
        assert _continued(healed, worker) == [True, True]
    (still,) = asyncio.run(scan_store(str(store)))
    assert still.verdict == STUCK
    asyncio.run(restore(tmp_path / "backup.jsonl"))
    (back,) = asyncio.run(scan_store(str(healed)))
    assert back.verdict == STUCK and back.open_calls == (MCP_REQUEST_ID,)
