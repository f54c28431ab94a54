"""Restore: every session of a backup put back exactly, rows added since removed, and refusals."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import delete, insert

from approval_compaction.doctor import backup as backups
from approval_compaction.doctor.repair import apply
from approval_compaction.doctor.restore import restore
from approval_compaction.doctor.stores import StoredSession, StoreError, opened
from approval_compaction.lab.stores.synthetic import generate


def sessions(text: str) -> dict[str, StoredSession]:
    async def read() -> dict[str, StoredSession]:
        async with opened(text) as store:
            return {s.session_id: s async for s in store.sessions()}

    return asyncio.run(read())


@pytest.fixture
def repaired(tmp_path: Path) -> tuple[str, Path, dict[str, StoredSession]]:
    """A store whose poisoned sessions a repair rewrote, its backup, and the sessions before."""
    text = str(tmp_path / "store.db")
    asyncio.run(generate(text, 6, 8))
    before = sessions(text)
    asyncio.run(apply(text, tmp_path / "backup.jsonl"))
    return text, tmp_path / "backup.jsonl", before


def test_restore_after_a_repair_updates_rows_in_place(
    repaired: tuple[str, Path, dict[str, StoredSession]],
) -> None:
    text, backup, before = repaired
    results = asyncio.run(restore(backup))
    assert [(r.session_id, r.status, r.inserted, r.deleted) for r in results] == [
        ("session-000001", "restored", 0, 0),
        ("session-000004", "restored", 0, 0),
    ]
    assert all(r.updated == 1 for r in results)
    assert sessions(text) == before
    assert {r.status for r in asyncio.run(restore(backup))} == {"already as backed up"}


def test_restore_puts_back_a_deleted_row_and_removes_an_added_one(
    repaired: tuple[str, Path, dict[str, StoredSession]],
) -> None:
    text, backup, before = repaired
    first = before["session-000001"].rows[0]

    async def damage() -> None:
        async with opened(text, write=True) as store, store.engine.begin() as conn:
            m = store.messages_table
            await conn.execute(delete(m).where(m.c.id == first.id))
            row = {"session_id": "session-000001", "message_data": "{}"}
            await conn.execute(insert(m).values(**row))

    asyncio.run(damage())
    result = next(r for r in asyncio.run(restore(backup)) if r.session_id == "session-000001")
    assert (result.status, result.inserted, result.deleted) == ("restored", 1, 1)
    assert sessions(text)["session-000001"] == before["session-000001"]


def test_restore_refuses_a_url_without_its_password(tmp_path: Path) -> None:
    path = tmp_path / "backup.jsonl"
    with backups.BackupWriter(path, "postgresql+asyncpg://doctor:***@127.0.0.1/db", "url") as w:
        pass
    w.close()
    with pytest.raises(StoreError, match=r"without its password: pass --store URL$"):
        asyncio.run(restore(path))
