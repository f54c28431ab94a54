"""Repair: heal poisoned sessions in place, after a backup, one transaction per session.

**Strategy: the orphan output becomes an assistant message that says what the tool returned.**
Each output whose call is gone (``analysis.pairing``) is rewritten, in its own row, as
``{"role": "assistant", "content": "[doctor] The tool call <id> returned: <output>"}``. Nothing
else changes: no row is added, removed or moved, so the order both session classes read (by id,
or by ``created_at`` then id) is untouched, and the session's lock is held for a few updates.

Trade-offs, against the alternatives:

- *Drop the orphan output* (what the SDK does itself when ``SessionSettings.limit`` is set): as
  simple, but the model loses what the tool returned; after an approval it may run the tool
  again. Rewriting keeps the result in front of the model.
- *Put a call back before the output*: the model would see a structured pair again, but the
  call's name and arguments were compacted away (they are in no stored item), so it would have
  to be invented, and inserting a row before another means renumbering the rows after it.
- The cost of rewriting: the model reads the result as its own earlier words, not as a tool
  result, and an application that reads its history as tool events no longer finds this one.
  The backup keeps the original item, and ``doctor restore`` puts it back exactly.

**Safety.** ``--apply`` first streams every poisoned session into the backup (``backup``) and
only starts writing once the backup is complete on disk. Each session is then rewritten in one
transaction that takes the session's lock, reads its rows again and writes only if they are
still exactly the rows backed up (their fingerprint); a session that changed between the scan
and the write is left alone and reported. After the commit the session is read back through the
SDK's own session class and must hold exactly the healed items, with no orphan output. A repair
interrupted anywhere leaves every session either untouched or fully repaired, and a second
repair finds nothing left to do (a healed session is no longer poisoned): it is idempotent.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..analysis.pairing import find_unpaired
from . import backup as backups
from .stores import Store, StoredSession, opened, parse_store
from .verdict import POISONED, judge

Item = dict[str, Any]
PREFIX = "[doctor] "
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

    def as_row(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "position": self.position,
            "row_id": self.row_id,
            "before": f"{self.before.get('type')} {_key(self.before)}",
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

    def count(self, status: Status) -> int:
        return sum(1 for o in self.outcomes if o.status == status)


def _key(item: Item) -> str:
    value = item.get("call_id") or item.get("approval_request_id") or "?"
    return str(value)


def healed_message(output: Item) -> Item:
    """The assistant message that replaces an output whose call is gone."""
    value = output.get("output")
    if value is None:  # an approval response, or an output kind without ``output``
        value = {k: v for k, v in output.items() if k not in ("type", "id", "call_id")}
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return {
        "role": "assistant",
        "content": f"{PREFIX}The tool call {_key(output)} returned: {text}",
    }


def changes(session: StoredSession) -> list[Change]:
    """The rewrites that heal a session: one per orphan output, none for a healthy session."""
    readable = session.readable()
    unpaired = find_unpaired([item for _, item in readable])
    return [
        Change(
            session.session_id,
            u.position,
            readable[u.position][0].id,
            readable[u.position][1],
            healed_message(readable[u.position][1]),
        )
        for u in unpaired
        if u.problem == "orphan output"
    ]


def healed_items(session: StoredSession, found: list[Change]) -> list[Item]:
    """The items the session holds once ``found`` is applied."""
    items, _ = session.items()
    for change in found:
        items[change.position] = change.after
    return items


class _SessionChanged(Exception):
    """Raised inside a session's transaction to roll it back untouched."""


async def poisoned_sessions(
    store: Store, session_id: str | None = None
) -> AsyncIterator[StoredSession]:
    async for session in store.sessions(session_id):
        items, unreadable = session.items()
        if judge(session.session_id, items, unreadable).verdict == POISONED:
            yield session


async def _rewrite(
    store: Store,
    saved: StoredSession,
    fail_after: FailAfter | None = None,
    before_write: BeforeWrite | None = None,
) -> Outcome:
    """Heal one session in one transaction, unless it changed since it was backed up."""
    from sqlalchemy import update

    m = store.messages_table.c
    if before_write is not None:
        await before_write(saved.session_id)  # a test's concurrent writer
    try:
        async with store.locked(saved.session_id) as conn:
            current = await store.read_rows(conn, saved.session_id)
            if current.fingerprint != saved.fingerprint:
                raise _SessionChanged
            found = changes(current)
            for change in found:
                await conn.execute(
                    update(store.messages_table)
                    .where(m.id == change.row_id, m.session_id == saved.session_id)
                    .values(message_data=store.dump(change.after))
                )
            if fail_after is not None:
                fail_after(saved.session_id)  # a test's injected failure: rolls this one back
    except _SessionChanged:
        return Outcome(saved.session_id, "changed since scan", (), "left alone: not written")
    expected = healed_items(saved, found)
    stored = await store.read_back(saved.session_id)
    verdict = judge(saved.session_id, stored).verdict
    if stored != expected or verdict == POISONED:
        return Outcome(saved.session_id, "verify failed", tuple(found), f"read back: {verdict}")
    return Outcome(saved.session_id, "repaired", tuple(found))


async def dry_run(text: str, session_id: str | None = None) -> RepairResult:
    """What a repair would change, session by session; nothing is written."""
    async with opened(text) as store:
        outcomes = [
            Outcome(s.session_id, "would repair", tuple(changes(s)))
            async for s in poisoned_sessions(store, session_id)
        ]
    return RepairResult(tuple(outcomes), None)


def default_backup(text: str, stamp: str) -> Path:
    """``<file>.doctor-backup-<stamp>.jsonl`` beside a SQLite file, else in the current folder."""
    spec = parse_store(text)
    if spec.kind == "sqlite-file" and spec.path is not None:
        return spec.path.with_name(f"{spec.path.name}.doctor-backup-{stamp}.jsonl")
    return Path(f"doctor-backup-{stamp}.jsonl").resolve()


async def apply(
    text: str,
    backup_path: Path,
    session_id: str | None = None,
    *,
    fail_after: FailAfter | None = None,
    before_write: BeforeWrite | None = None,
    report: Callable[[Outcome], None] | None = None,
) -> RepairResult:
    """Back up every poisoned session, then heal each in its own transaction and verify it.

    ``fail_after`` and ``before_write`` are for tests: a failure injected inside a session's
    transaction, and a writer that changes a session after the backup, before its write.
    """
    async with opened(text, write=True) as store:
        writer = backups.BackupWriter(backup_path, _store_name(store), store.spec.kind)
        with writer:
            async for session in poisoned_sessions(store, session_id):
                writer.add(session)
        if writer.count == 0:
            writer.abandon()
            return RepairResult((), None)
        written = writer.close()
        backups.check(written)  # the backup reads back whole before the first write
        outcomes = []
        for saved in backups.sessions(written):
            outcome = await _rewrite(store, saved.stored(), fail_after, before_write)
            if report is not None:
                report(outcome)
            outcomes.append(outcome)
    return RepairResult(tuple(outcomes), written)


def _store_name(store: Store) -> str:
    """How the backup names its store: an absolute file path, or the URL without password."""
    if store.spec.kind == "sqlite-file" and store.spec.path is not None:
        return str(store.spec.path)
    return store.spec.label
