"""A repair killed at a random point: every session ends untouched or fully repaired, and a
second repair finishes the job. Runs on a SQLite file, PostgreSQL, MariaDB and Redis (and an
encrypted Redis store)."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from approval_compaction.doctor import backup as backups
from approval_compaction.doctor.repair import apply, changes, healed_items
from approval_compaction.doctor.restore import restore
from approval_compaction.doctor.stores import StoredSession, opened
from approval_compaction.doctor.verdict import POISONED

from .conftest import BACKENDS

MakeStore = Callable[..., str]
SESSIONS = 150


def snapshot(text: str) -> dict[str, StoredSession]:
    async def read() -> dict[str, StoredSession]:
        async with opened(text) as store:
            return {s.session_id: s async for s in store.sessions()}

    return asyncio.run(read())


INTERRUPTED_BACKENDS = [p for p in BACKENDS if p.id in ("sqlite", "postgresql", "mariadb", "redis",
                                                        "encrypted-redis")]  # fmt: skip


# A repair process killed: the full tier (about 5 s of CPU on SQLite). In make test,
# tests/doctor/test_repair.py keeps its assertions in-process: a failure inside a session's
# transaction leaves each session untouched or repaired, a second repair finishes the job, and
# the backups restore every session as it was.
@pytest.mark.subprocess
@pytest.mark.parametrize("backend", INTERRUPTED_BACKENDS, indirect=True)
def test_repair_killed_at_a_random_point_then_rerun(make_store: MakeStore, tmp_path: Path) -> None:
    text = make_store(count=SESSIONS, length=12, mix=(POISONED,))
    original = snapshot(text)
    stop_after = random.Random().randint(1, 20)  # sessions reported before the kill
    command = [sys.executable, "-m", "approval_compaction", "doctor", "repair", text, "--apply"]
    command += ["--backup", str(tmp_path / "first.jsonl")]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    reported = 0
    for line in proc.stdout:
        reported += line.startswith("session-")
        if reported >= stop_after:
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL, f"finished before the kill ({stop_after})"

    after = snapshot(text)
    untouched = repaired = 0
    for sid, before in original.items():
        now = after[sid]
        if now.rows == before.rows:
            untouched += 1
        else:
            assert now.items()[0] == healed_items(before, changes(before)), sid
            repaired += 1
    assert repaired >= stop_after and untouched > 0, (repaired, untouched)

    rerun = asyncio.run(apply(text, tmp_path / "second.jsonl"))
    assert rerun.count("repaired") == untouched == len(rerun.outcomes)
    assert all(not changes(s) for s in snapshot(text).values())

    # The first backup is complete: it holds every session as it was before any write.
    header, saved = backups.read(tmp_path / "first.jsonl")
    assert header.sessions == SESSIONS
    assert {s.session_id: s.rows for s in saved} == {sid: s.rows for sid, s in original.items()}
    asyncio.run(restore(tmp_path / "first.jsonl"))
    assert {sid: [(r.id, r.data) for r in s.rows] for sid, s in snapshot(text).items()} == {
        sid: [(r.id, r.data) for r in s.rows] for sid, s in original.items()
    }
