"""Restore: put every session of a backup back as it was, keeping what came after it.

The backup is checked whole first (``backup.check``): a truncated or edited file restores
nothing. It records which store it came from (``Store.identity``); a restore into another
store is refused before anything is written, unless ``force`` (a store moved or copied on
purpose). Each session is then restored in one transaction that holds its lock (``Store``'s
``put_back``): rows whose text differs from the backup get their text back, and rows the backup
has and the store lacks are put back with their id and creation time. Rows the backup does not
have (the application appended them since) are kept, and the output names them; with ``exact``
they are removed instead, so the session is the backup's exactly (for an
``AdvancedSQLiteSession`` file the same for its structure rows; ``turn_usage`` is left as it
is). A repair only rewrites row texts, so restoring after it updates those rows in place and
leaves every id and timestamp as it was. After the commit the session's rows are read again:
every row of the backup must be there, id for id and byte for byte (and, with ``exact``,
nothing else). The rows go back as stored, so an encrypted store's backup restores without its
key. A store that fails its engine's check is refused before the first write
(``stores.UnsoundStore``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from . import backup as backups
from .stores import (
    Store,
    StoredSession,
    StoreError,
    WriteStopped,
    added_since,
    opened,
    read,
)
from .values import kind

Status = Literal["restored", "already as backed up", "mismatch"]


class OtherStore(StoreError):
    """A backup restored into a store that is not the one it came from."""


@dataclass(frozen=True)
class Restored:
    """One session's restore: what it did, the rows added since the backup that it kept (or,
    with ``exact``, removed), and whether the backup's rows are now all there."""

    session_id: str
    status: Status
    updated: int
    inserted: int
    deleted: int
    kept: tuple[int, ...] = ()


def status_of(same: bool, changed: bool) -> Status:
    """``restored`` or ``already as backed up`` when the rows now hold the backup's."""
    if not same:
        return "mismatch"
    return "restored" if changed else "already as backed up"


async def restore_session(store: Store, saved: StoredSession, exact: bool = False) -> Restored:
    """Put one backed-up session back, under its lock; then read it again: the backup's rows
    (and structure rows) must be there, id for id and byte for byte, and with ``exact``
    nothing else."""
    updated, inserted, deleted = await store.put_back(saved, exact)
    after = await read(store, saved.session_id)
    rows = [(r.id, kind(r.data), r.data) for r in after.rows] if after is not None else []
    wanted = [(r.id, kind(r.data), r.data) for r in saved.rows]
    kept = tuple(added_since(after.rows, saved.rows)) if after is not None else ()
    same = rows == wanted if exact else [row for row in rows if row[0] not in kept] == wanted
    if saved.structure is not None and after is not None and after.structure is not None:
        found = after.structure if exact else tuple(
            e for e in after.structure if e.id in {w.id for w in saved.structure}
        )  # fmt: skip
        same = same and found == saved.structure
    changed = bool(updated or inserted or deleted)
    return Restored(saved.session_id, status_of(same, changed), len(updated), len(inserted),
                    len(deleted), () if exact else kept)  # fmt: skip


def check_identity(header: backups.BackupHeader, store: Store, force: bool) -> None:
    """Refuse, in one line, a backup of another store (unless ``force``)."""
    if force:
        return
    if header.identity is not None and header.identity != store.identity:
        raise OtherStore(
            f"the backup is of {header.identity}, not {store.identity}: restoring it into "
            "another store would mix their sessions (pass --force if the store was moved)"
        )
    name = str(store.spec.path) if store.spec.backend.file else store.spec.label
    if header.identity is None and name != header.store:
        raise OtherStore(
            f"the backup (written before backups named their store's identity) is of "
            f"{header.store}, not {name}: pass --force to restore into it"
        )


async def restore(
    backup_path: Path, store_text: str | None = None, *, exact: bool = False, force: bool = False
) -> list[Restored]:
    """Restore every session of the backup into its store (or into ``store_text``): rows added
    since are kept, or with ``exact`` removed; another store's backup is refused unless
    ``force``."""
    header = backups.check(backup_path)
    target = store_text or header.store
    if "***" in target:
        raise StoreError(f"the backup names {target} without its password: pass --store URL")
    results = []
    async with opened(target, write=True, decode=False) as store:
        if store.spec.kind != header.kind:
            raise StoreError(f"backup is of a {header.kind} store, not {store.spec.kind}")
        check_identity(header, store, force)
        for saved in backups.sessions(backup_path):
            try:
                results.append(await restore_session(store, saved, exact))
            except WriteStopped as stop:  # rolled back: this session is as it was
                done = sum(1 for r in results if r.status == "restored")
                raise stop.after(
                    f"{done} of {header.sessions} sessions restored before it; run the restore "
                    "again to finish"
                ) from None
    return results
