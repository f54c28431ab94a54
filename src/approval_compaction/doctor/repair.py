"""Repair: heal poisoned and stuck sessions in place, after a backup, one transaction per session.

An orphan output (``analysis.pairing``) becomes, in its own row, an assistant message saying
what the tool returned (``[doctor] The tool call <id> returned: <output>``); a dead call or
hosted MCP approval request (``dead_items``) becomes one saying it was never answered. No row is
added, removed or moved. ``--apply`` writes only once the backup is complete on disk; each
session is judged again inside its lock and rewritten only when every row to rewrite is still
as backed up, then read back through the SDK's own session class. A repair interrupted anywhere
leaves each session untouched or fully repaired, a second repair finds nothing to do, and
nothing the application appends is lost; a write the store refuses (``stores.WriteStopped``)
rolls its session back and stops in one line naming the backup. Branches of an
``AdvancedSQLiteSession`` and encrypted stores are handled as the SDK reads them. The strategy
against its alternatives, and the tests behind each promise: ``docs/doctor.md``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from ..analysis.healing import PREFIX as PREFIX
from ..analysis.healing import healed_message as healed_message
from ..analysis.healing import item_name, rewrites
from ..errors import printable
from . import backup as backups
from .codec import KEY_ENV
from .stores import (
    SessionChanged,
    Store,
    StoredSession,
    StoreError,
    WriteStopped,
    opened,
    parse_store,
    read,
    unsound,
)
from .verdict import NEEDS_REPAIR, judge

Item = dict[str, Any]
Status = Literal["would repair", "repaired", "changed since scan", "verify failed"]
FailAfter = Callable[[str], None]
BeforeWrite = Callable[[str], Awaitable[None]]


@dataclass(frozen=True)
class Change:
    """One item a repair rewrites: where it is, what it was and what it becomes."""

    session_id: str
    position: int
    row_id: int
    before: Item
    after: Item
    branch: str | None = None

    def as_row(self) -> dict[str, Any]:
        row: dict[str, Any] = {"session_id": self.session_id}
        if self.branch is not None:
            row["branch"] = self.branch
        return row | {
            "position": self.position,
            "row_id": self.row_id,
            "before": f"{self.before.get('type')} {item_name(self.before)}",
            "after": str(self.after["content"]),
        }


@dataclass(frozen=True)
class Outcome:
    """What happened to one poisoned session."""

    session_id: str
    status: Status
    changes: tuple[Change, ...]
    detail: str = ""


@dataclass(frozen=True)
class RepairResult:
    """Every poisoned session's outcome, and the backup written before the first write."""

    outcomes: tuple[Outcome, ...]
    backup: Path | None
    unsound: str | None = None  # a dry run's: why ``--apply`` would refuse the store

    def count(self, status: Status) -> int:
        return sum(1 for o in self.outcomes if o.status == status)


def changes(session: StoredSession) -> list[Change]:
    """The rewrites that heal a session: one per orphan output and one per dead call (per
    branch that reads it), none for a healthy session."""
    found = []
    for view in session.views():
        for position, after in rewrites(view.items):
            row, item = view.pairs[position]
            found.append(Change(session.session_id, position, row.id, item, after, view.branch))
    return found


def conflict(session: StoredSession, found: list[Change]) -> str | None:
    """Why the session cannot be healed by rewriting rows: a row shared by branches that is an
    orphan output in one branch and paired in another (None when there is none)."""
    readers: dict[int, int] = {}
    for view in session.views():
        for row, _ in view.pairs:
            readers[row.id] = readers.get(row.id, 0) + 1
    orphaned: dict[int, int] = {}
    for change in found:
        orphaned[change.row_id] = orphaned.get(change.row_id, 0) + 1
    shared = sorted(rid for rid, n in orphaned.items() if n != readers.get(rid, 0))
    if shared:
        return f"row {shared[0]} is unpaired in one branch and paired in another"
    return None


def healed_views(session: StoredSession, found: list[Change]) -> dict[str | None, list[Item]]:
    """Each branch's items once ``found`` is applied (one entry, None, without branches)."""
    after = {change.row_id: change.after for change in found}
    return {
        view.branch: [after.get(row.id, item) for row, item in view.pairs]
        for view in session.views()
    }


def healed_items(session: StoredSession, found: list[Change]) -> list[Item]:
    """The items the session holds (its first branch) once ``found`` is applied."""
    return next(iter(healed_views(session, found).values()))


def _poisoned(session: StoredSession) -> bool:
    if session.structure is None:  # the scan's fast path: only the fields pairing reads
        items, unreadable = session.codec.light(session.session_id, [r.data for r in session.rows])
        return judge(session.session_id, items, unreadable).verdict in NEEDS_REPAIR
    return any(judge(session.session_id, v.items).verdict in NEEDS_REPAIR for v in session.views())


async def poisoned_sessions(
    store: Store, session_id: str | None = None
) -> AsyncIterator[StoredSession]:
    async for session in store.sessions(session_id):
        if _poisoned(session):
            yield session


def _plan(
    saved: StoredSession, found_out: list[list[Change]]
) -> Callable[[StoredSession], dict[int, Item]]:
    """What to write, decided inside the lock on the session as it is now."""
    backed = {row.id: row.data for row in saved.rows}

    def plan(current: StoredSession) -> dict[int, Item]:
        found = changes(current)
        if not found:
            raise SessionChanged("no longer poisoned or stuck")
        reason = conflict(current, found)
        if reason is not None:
            raise SessionChanged(reason)
        rows = {row.id: row.data for row in current.rows}
        for change in found:
            if backed.get(change.row_id) != rows[change.row_id]:
                raise SessionChanged(f"row {change.row_id} is not as backed up")
        found_out.append(found)
        return {change.row_id: change.after for change in found}

    return plan


async def _verify(
    store: Store, current: StoredSession, found: list[Change], written: dict[int, str]
) -> str | None:
    """Why the repair did not land (None when it did), read back through the SDK."""
    expected = healed_views(current, found)
    try:
        back = await store.read_back(current.session_id)
    except StoreError:  # the SDK cannot read the session at all: the rows written decide
        back = {}
    landed = all(back.get(b, [])[: len(items)] == items for b, items in expected.items())
    if landed and all(judge("", items).verdict not in NEEDS_REPAIR for items in expected.values()):
        return None
    # The application may have changed the session since the commit: what matters is that
    # the rows written still hold what was written.
    now = await read(store, current.session_id)
    texts = {row.id: row.data for row in now.rows} if now is not None else {}
    if all(texts.get(row_id) == text for row_id, text in written.items()):
        return None
    verdicts: set[str] = {judge("", items).verdict for items in back.values()} or {"gone"}
    return f"read back: {', '.join(sorted(verdicts))}"


async def _rewrite(
    store: Store,
    saved: StoredSession,
    fail_after: FailAfter | None = None,
    before_write: BeforeWrite | None = None,
) -> Outcome:
    """Heal one session in one transaction, judged again inside its lock."""
    if before_write is not None:
        await before_write(saved.session_id)  # a test's concurrent writer
    planned: list[list[Change]] = []
    try:
        current, written = await store.rewrite(saved.session_id, _plan(saved, planned), fail_after)
    except SessionChanged as why:  # changed since the backup, or unsafe to heal by rewriting
        return Outcome(saved.session_id, "changed since scan", (), f"left alone: {why}")
    found = planned[-1]
    problem = await _verify(store, current, found, written)
    if problem is not None:
        return Outcome(saved.session_id, "verify failed", tuple(found), problem)
    return Outcome(saved.session_id, "repaired", tuple(found))


async def dry_run(
    text: str, session_id: str | None = None, *, key_env: str = KEY_ENV, ttl: int | None = None
) -> RepairResult:
    """What a repair would change, session by session; nothing is written."""
    async with opened(text, key_env=key_env, ttl=ttl) as store:
        problem = await store.soundness()
        outcomes = [
            Outcome(s.session_id, "would repair", tuple(changes(s)))
            async for s in poisoned_sessions(store, session_id)
        ]
    return RepairResult(tuple(outcomes), None, None if problem is None else unsound(text, problem))


def default_backup(text: str, stamp: str) -> Path:
    """``<file>.doctor-backup-<stamp>.jsonl`` beside a SQLite file (beside the name given: a
    symbolic link, not its target), else in the current folder."""
    spec = parse_store(text)
    if spec.backend.file and spec.path is not None:
        given = Path(text).expanduser().absolute()
        return given.with_name(f"{given.name}.doctor-backup-{stamp}.jsonl")
    return Path(f"doctor-backup-{stamp}.jsonl").resolve()


async def apply(
    text: str,
    backup_path: Path,
    session_id: str | None = None,
    *,
    fail_after: FailAfter | None = None,
    before_write: BeforeWrite | None = None,
    report: Callable[[Outcome], None] | None = None,
    key_env: str = KEY_ENV,
    ttl: int | None = None,
) -> RepairResult:
    """Back up every poisoned session, then heal each in its own transaction and verify it.

    ``fail_after`` and ``before_write`` are for tests: a failure injected inside a session's
    transaction, and a writer that changes a session after the backup, before its write.
    """
    async with opened(text, write=True, key_env=key_env, ttl=ttl) as store:
        writer = backups.BackupWriter(backup_path, _store_name(store), store.spec.kind,
                                      store.identity)  # fmt: skip
        with writer:
            async for session in poisoned_sessions(store, session_id):
                writer.add(session)
        if writer.count == 0:
            writer.abandon()
            return RepairResult((), None)
        written = writer.close()
        backups.check(written)  # the backup reads back whole before the first write
        outcomes: list[Outcome] = []
        for saved in backups.sessions(written):
            try:
                outcome = await _rewrite(store, replace(saved, codec=store.codec), fail_after,
                                         before_write)  # fmt: skip
            except WriteStopped as stop:  # rolled back: this session is as it was
                raise stop.after(done_so_far(outcomes, written)) from None
            if report is not None:
                report(outcome)
            outcomes.append(outcome)
    return RepairResult(tuple(outcomes), written)


def done_so_far(outcomes: list[Outcome], backup: Path) -> str:
    """What a stopped repair had done: the sessions it repaired, and the backup that undoes
    them (every session it was to repair is in it)."""
    done = [o.session_id for o in outcomes if o.status == "repaired"]
    if not done:
        return f"no session repaired before it; the store is as it was (backup: {backup})"
    named = ", ".join(printable(sid) for sid in done[:5]) + (" ..." if len(done) > 5 else "")
    return (
        f"{len(done)} session{'s' if len(done) != 1 else ''} repaired before it ({named}); "
        f"doctor restore {backup} undoes them"
    )


def _store_name(store: Store) -> str:
    """How the backup names its store: an absolute file path, or the URL without password."""
    if store.spec.path is not None and store.spec.backend.file:
        return str(store.spec.path)
    return store.spec.label
