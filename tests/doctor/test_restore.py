"""Restore: every session of a backup put back exactly, rows added since removed, and refusals."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from sqlalchemy import delete, insert

from approval_compaction.doctor import backup as backups
from approval_compaction.doctor.repair import apply
from approval_compaction.doctor.restore import OtherStore, restore
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


def test_restore_puts_back_a_deleted_row_and_exact_removes_an_added_one(
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
    kept = next(r for r in asyncio.run(restore(backup)) if r.session_id == "session-000001")
    assert (kept.status, kept.inserted, kept.deleted, len(kept.kept)) == ("restored", 1, 0, 1)
    assert sessions(text)["session-000001"].rows[:-1] == before["session-000001"].rows
    exact = asyncio.run(restore(backup, exact=True))
    result = next(r for r in exact if r.session_id == "session-000001")
    assert (result.status, result.inserted, result.deleted) == ("restored", 0, 1)
    assert sessions(text)["session-000001"] == before["session-000001"]


def test_restore_refuses_a_url_without_its_password(tmp_path: Path) -> None:
    path = tmp_path / "backup.jsonl"
    with backups.BackupWriter(path, "postgresql+asyncpg://doctor:***@127.0.0.1/db", "url") as w:
        pass
    w.close()
    with pytest.raises(StoreError, match=r"without its password: pass --store URL$"):
        asyncio.run(restore(path))


def test_restore_into_another_store_is_refused_before_any_write(
    repaired: tuple[str, Path, dict[str, StoredSession]], tmp_path: Path
) -> None:
    """Regression for issue 33: ``--store`` naming another store inserted the backup's sessions
    there, and colliding row ids ended in an ``IntegrityError`` traceback."""
    text, backup, _ = repaired
    other = tmp_path / "other.db"
    asyncio.run(generate(str(other), 9, 5))
    before = other.read_bytes()
    with pytest.raises(OtherStore, match=r"^the backup is of sqlite:.*store\.db, not sqlite:"):
        asyncio.run(restore(backup, str(other)))
    assert other.read_bytes() == before
    same = asyncio.run(restore(backup, str(Path(text).parent / "." / "store.db")))
    assert {r.status for r in same} == {"restored"}  # the same file, spelt otherwise


def test_restore_forced_into_a_store_whose_row_ids_collide_is_one_line(
    repaired: tuple[str, Path, dict[str, StoredSession]], tmp_path: Path
) -> None:
    _, backup, _ = repaired
    other = tmp_path / "other.db"
    asyncio.run(generate(str(other), 9, 5, ("healthy",)))  # row ids 1..45, other sessions
    with pytest.raises(StoreError, match=r"already holds rows with the backup's ids") as raised:
        asyncio.run(restore(backup, str(other), force=True))
    assert "\n" not in str(raised.value)


def test_restore_of_an_older_backup_names_its_store_by_path(
    repaired: tuple[str, Path, dict[str, StoredSession]], tmp_path: Path
) -> None:
    text, backup, _ = repaired
    lines = backup.read_text().splitlines()
    header = json.loads(lines[0])
    del header["identity"]
    old = tmp_path / "old.jsonl"
    with backups.BackupWriter(old, header["store"], header["kind"]) as writer:
        for saved in backups.sessions(backup):
            writer.add(saved)
    writer.close()
    assert backups.check(old).identity is None
    assert {r.status for r in asyncio.run(restore(old))} == {"restored"}
    other = tmp_path / "copy.db"
    other.write_bytes(Path(text).read_bytes())
    with pytest.raises(OtherStore, match="written before backups named"):
        asyncio.run(restore(old, str(other)))
