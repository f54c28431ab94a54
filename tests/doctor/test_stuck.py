"""A stuck session from a real run: the doctor names the call that pins it, heals it, and the
pinned release then keeps compacting it; restore puts the call back."""

from __future__ import annotations

import asyncio
from pathlib import Path

from approval_compaction.analysis.liveness import judge_liveness, liveness_run
from approval_compaction.doctor.repair import PREFIX, apply, dry_run
from approval_compaction.doctor.restore import restore
from approval_compaction.doctor.scan import scan_store
from approval_compaction.doctor.verdict import STUCK
from approval_compaction.study.driver import Ask, Continue, Setup, converse
from approval_compaction.study.harness import PENDING_CALL, PENDING_CALL_ID
from approval_compaction.study.liveness import later

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
