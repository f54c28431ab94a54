"""Restore: put every session of a backup back exactly as it was.

The backup is checked whole first (``backup.check``): a truncated or edited file restores
nothing. Each session is then restored in one transaction that holds its lock: rows whose text
differs from the backup get their text back, rows the backup has and the store lacks are put
back with their id and creation time, and rows the backup does not have are removed. A repair
only rewrites row texts, so restoring after it updates those rows in place and leaves every id
and timestamp as it was. After the commit the session's rows are read again and must equal the
backup's, id for id and byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from . import backup as backups
from .stores import Store, StoreError, opened

Status = Literal["restored", "already as backed up", "mismatch"]


@dataclass(frozen=True)
class Restored:
    """One session's restore: what it did and whether the rows now equal the backup's."""

    session_id: str
    status: Status
    updated: int
    inserted: int
    deleted: int


def _created(store: Store, value: str | None) -> Any:
    if value is None or store.spec.kind == "sqlite-file":
        return value
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return value


async def _restore_session(store: Store, saved: backups.BackupSession) -> Restored:
    from sqlalchemy import delete, insert, select, update

    s, m = store.sessions_table, store.messages_table
    wanted = {row.id: row for row in saved.rows}
    async with store.locked(saved.session_id) as conn:
        parent = select(s.c.session_id).where(s.c.session_id == saved.session_id)
        if (await conn.execute(parent)).first() is None:
            await conn.execute(insert(s).values(session_id=saved.session_id))
        current = {r.id: r.data for r in (await store.read_rows(conn, saved.session_id)).rows}
        updates = [r for r in saved.rows if r.id in current and current[r.id] != r.data]
        inserts = [r for r in saved.rows if r.id not in current]
        deletes = [i for i in current if i not in wanted]
        for row in updates:
            await conn.execute(
                update(m).where(m.c.id == row.id, m.c.session_id == saved.session_id)
                .values(message_data=row.data)
            )  # fmt: skip
        if deletes:
            await conn.execute(
                delete(m).where(m.c.session_id == saved.session_id, m.c.id.in_(deletes))
            )
        for row in inserts:
            values: dict[str, Any] = {"id": row.id, "session_id": saved.session_id}
            values["message_data"] = row.data
            if row.created_at is not None:
                values["created_at"] = _created(store, row.created_at)
            await conn.execute(insert(m).values(**values))
    async with store.engine.connect() as conn:
        after = await store.read_rows(conn, saved.session_id)
    same = [(r.id, r.data) for r in after.rows] == [(r.id, r.data) for r in saved.rows]
    changed = bool(updates or inserts or deletes)
    status: Status = ("restored" if changed else "already as backed up") if same else "mismatch"
    return Restored(saved.session_id, status, len(updates), len(inserts), len(deletes))


async def restore(backup_path: Path, store_text: str | None = None) -> list[Restored]:
    """Restore every session of the backup into its store (or into ``store_text``)."""
    header = backups.check(backup_path)
    target = store_text or header.store
    if "***" in target:
        raise StoreError(f"the backup names {target} without its password: pass --store URL")
    results = []
    async with opened(target, write=True) as store:
        if store.spec.kind != header.kind:
            raise StoreError(f"backup is of a {header.kind} store, not {store.spec.kind}")
        for saved in backups.sessions(backup_path):
            results.append(await _restore_session(store, saved))
    return results
