"""A live store: the application keeps appending to the sessions while the doctor repairs them.

Every poisoned session is repaired (appended rows do not make it "changed"), no check that
races an append is reported as a failure, and every row the application wrote is still there.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from approval_compaction.doctor.repair import apply
from approval_compaction.doctor.scan import scan_store
from approval_compaction.doctor.stores import opened
from approval_compaction.doctor.verdict import POISONED

from .conftest import SERVER

MakeStore = Callable[..., str]
SESSIONS = 300
WRITER = "approval_compaction.testing.writer"
LIVE_BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=SERVER),
    pytest.param("mariadb", id="mariadb", marks=SERVER),
    pytest.param("redis", id="redis", marks=SERVER),
    pytest.param("encrypted-redis", id="encrypted-redis", marks=SERVER),
]


def app_rows(text: str) -> list[str]:
    async def read() -> list[str]:
        found = []
        async with opened(text) as store:
            async for session in store.sessions():
                items, _ = session.items()
                found.extend(str(i["content"]) for i in items
                             if str(i.get("content", "")).startswith("app-"))  # fmt: skip
        return found

    return asyncio.run(read())


# A writer process of its own: the full tier (about 7 s of CPU on SQLite). In make test,
# tests/doctor/test_repair.py keeps its assertions in-process: rows appended after the scan are
# kept and their session repaired, a session whose rows to rewrite changed is left alone.
@pytest.mark.subprocess
@pytest.mark.parametrize("backend", LIVE_BACKENDS, indirect=True)
def test_repair_while_the_application_appends(
    make_store: MakeStore, tmp_path: Path, backend: str
) -> None:
    count = SESSIONS if backend == "sqlite" else SESSIONS // 3  # the store; then quicker
    text = make_store(count=count, length=12, mix=(POISONED,))
    stop = tmp_path / "stop"
    writer = subprocess.Popen(
        [sys.executable, "-m", WRITER, text, str(stop), str(count)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert writer.stdout is not None
    try:
        assert writer.stdout.readline().strip() == "ready"
        result = asyncio.run(apply(text, tmp_path / "backup.jsonl"))
    finally:
        stop.touch()
        appended = int(writer.stdout.read().strip().splitlines()[-1])
        writer.wait(timeout=60)
    assert (result.count("repaired"), result.count("verify failed")) == (count, 0)
    assert result.count("changed since scan") == 0
    # It printed "ready" after its first append and stops only once the repair is over, so
    # every later append raced the repair (how many depends on the machine's load).
    assert appended > 1
    found = app_rows(text)
    assert sorted(found) == sorted(f"app-{n}" for n in range(appended))  # nothing lost
    assert not [r for r in asyncio.run(scan_store(text)) if r.verdict == POISONED]
