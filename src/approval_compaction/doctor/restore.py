"""Restore: put every session of a backup back exactly as it was.

The backup is checked whole first (``backup.check``): a truncated or edited file restores
nothing. Each session is then restored in one transaction that holds its lock (``Store``'s
``restore_session``): rows whose text differs from the backup get their text back, rows the
backup has and the store lacks are put back with their id and creation time, and rows the
backup does not have are removed (for an ``AdvancedSQLiteSession`` file, the same for its
structure rows; ``turn_usage`` is left as it is). A repair only rewrites row texts, so restoring
after it updates those rows in place and leaves every id and timestamp as it was. After the
commit the session's rows are read again and must equal the backup's, id for id and byte for
byte. The rows go back as stored, so an encrypted store's backup restores without its key.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from . import backup as backups
from .stores import Store, StoredSession, StoreError, opened, read

Status = Literal["restored", "already as backed up", "mismatch"]


@dataclass(frozen=True)
class Restored:
    """One session's restore: what it did and whether the rows now equal the backup's."""

    session_id: str
    status: Status
    updated: int
    inserted: int
    deleted: int


def status_of(same: bool, changed: bool) -> Status:
    """``restored`` or ``already as backed up`` when the rows now equal the backup's."""
    if not same:
        return "mismatch"
    return "restored" if changed else "already as backed up"


async def restore_session(store: Store, saved: StoredSession) -> Restored:
    """Put one backed-up session back exactly, under its lock; then read it again: its rows
    (and structure rows) must equal the backup's, id for id and byte for byte."""
    updated, inserted, deleted = await store.put_back(saved)
    after = await read(store, saved.session_id)
    rows = [(r.id, r.data) for r in after.rows] if after is not None else []
    same = rows == [(r.id, r.data) for r in saved.rows]
    if saved.structure is not None and after is not None and after.structure is not None:
        same = same and after.structure == saved.structure
    changed = bool(updated or inserted or deleted)
    return Restored(saved.session_id, status_of(same, changed), len(updated), len(inserted),
                    len(deleted))  # fmt: skip


async def restore(backup_path: Path, store_text: str | None = None) -> list[Restored]:
    """Restore every session of the backup into its store (or into ``store_text``)."""
    header = backups.check(backup_path)
    target = store_text or header.store
    if "***" in target:
        raise StoreError(f"the backup names {target} without its password: pass --store URL")
    results = []
    async with opened(target, write=True, decode=False) as store:
        if store.spec.kind != header.kind:
            raise StoreError(f"backup is of a {header.kind} store, not {store.spec.kind}")
        for saved in backups.sessions(backup_path):
            results.append(await restore_session(store, saved))
    return results
