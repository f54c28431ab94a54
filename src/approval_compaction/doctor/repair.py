"""Repair: heal poisoned and stuck sessions in place, after a backup, one transaction per session.

**Stuck sessions: the dead call becomes an assistant message that says it was never answered.**
A dead item (``analysis.pairing.dead_items``: a call without its output, or a hosted MCP
approval request without its response, that a user message follows; ``verdict``: stuck) is
rewritten, in its own row, as ``{"role": "assistant", "content": "[doctor] The tool call <id>
(<name> <arguments>) was never answered."}`` (``The MCP approval request <id> (<server> <name>
<arguments>)`` for a request). The three frameworks that met this class of bug span the choices:

- *Defer* (what openai-agents 0.24.0 does, and this project's workaround did before it learnt
  to retire a dead call): safe, but a call that can never be answered is waited for ever, and
  the call and everything before it are never compacted again (google/adk-python#7236 found
  worse: an orphaned function call silently and permanently disabled compaction).
- *Drop a provably dead call* (google/adk-python#7237: ignore call ids that no response
  answers anywhere in the session): the history is bounded again and the model loses nothing
  it still sees (the SDK already drops the call from every later input). The workaround does
  this at run time, inside the compaction, where it matches what the model was just sent.
- *Rewrite it as text* (vellum-ai/vellum-assistant, whose history repair turns orphaned tool
  blocks into text before the provider call: #39919, and #30307 for orphan tool results
  downgraded to a text block): the history is bounded and the record of the call stays.

Offline the doctor rewrites: the same in-place rewrite as a poisoned session's (no row added,
removed or moved, so every store's read order, the backup and ``doctor restore`` work as they
are, and a second repair finds nothing to do), and the call's name and arguments stay in the
history for the application and the model to read. The cost: the model reads one more
assistant message than it saw before the repair. A dead hosted MCP approval request, which
the SDK keeps sending, becomes text that keeps what the model saw (the server, the tool, its
arguments), and 0.24.0, which never compacts a session holding one, compacts it again. A late
resume of the abandoned state would
store an output whose call is gone: the doctor then finds the session poisoned, and heals it.

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
transaction that takes the session's lock (``Store.rewrite``) and judges the session *again*,
as it is now: it writes when every row it would rewrite is still exactly as backed up, even if
the application appended rows since the scan (appended rows never change whether an earlier
output has its call: pairing looks back only). A session whose rows to rewrite changed, or
that gained an orphan output the backup does not hold, is left alone and reported. After the
commit the session is read back through the SDK's own session class: its items must begin with
exactly the healed items (rows the application appended since may follow), or else the rows
written must still hold what was written (the application changed the session after the
commit, which is its right): only a write that did not land is a failed verification. A
repair interrupted anywhere leaves every session either untouched or fully repaired, and a
second repair finds nothing left to do (a healed session is no longer poisoned): it is
idempotent. Nothing the application writes is ever lost: a rewrite changes no row but its own.
A write the store does not take (``stores.WriteStopped``: a lock held past the wait, a
refusal, a full disk) rolls its session back and stops the repair in one line that names the
sessions repaired before it and the backup that undoes them.

On an ``AdvancedSQLiteSession`` file every branch is judged; a message row shared by branches
is rewritten once, and only when it is an orphan in every branch that reads it. Its
``message_structure`` rows are classified again by the SDK's rules; ``turn_usage`` stays as it
is. On an encrypted store the healed message is encrypted again with the session's key.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from ..analysis.healing import PREFIX as PREFIX
from ..analysis.healing import healed_message as healed_message
from ..analysis.healing import item_name, retired_message
from ..analysis.pairing import dead_items, find_unpaired
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
        dead = {u.position for u in dead_items(view.items)}
        for u in find_unpaired(view.items):
            if u.problem == "orphan output" or u.position in dead:
                row, item = view.pairs[u.position]
                after = (
                    healed_message(item) if u.problem == "orphan output" else retired_message(item)
                )
                found.append(Change(session.session_id, u.position, row.id, item, after,
                                    view.branch))  # fmt: skip
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
