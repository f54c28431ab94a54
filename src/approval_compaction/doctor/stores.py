"""Stores: a team's stored sessions, opened the way the SDK's session classes keep them.

A *store string* names a store as the application does: a SQLite file (``SQLiteSession``,
``AsyncSQLiteSession`` or ``AdvancedSQLiteSession``, told apart by its tables), an SQLAlchemy URL
with an async driver, or ``redis://`` (``RedisSession``); any may hold ``EncryptedSession``
envelopes (``codec``). ``open_store`` returns a ``Store``, whose promises are: reading streams
one session at a time and never writes; ``Store.rewrite`` writes one session per transaction
under the lock the SDK's writers take, reading it again inside the lock; a store opened for
writing is first checked by its engine (``Store.soundness``) and refused if unsound
(``UnsoundStore``); anything wrong with a store is one ``StoreError`` line before any write, and a
write the store does not take is one ``WriteStopped`` line. docs/doctor.md lists each backend.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from ..errors import InvestigationError, printable, require
from . import status
from .codec import KEY_ENV, PLAIN, Codec, EncryptionKeyError, choose
from .values import Value, as_bytes, kind, same

SESSIONS_TABLE = "agent_sessions"
MESSAGES_TABLE = "agent_messages"
STRUCTURE_TABLE = "message_structure"
USAGE_TABLE = "turn_usage"
SESSION_COLUMNS = frozenset({"session_id", "created_at", "updated_at"})
MESSAGE_COLUMNS = frozenset({"id", "session_id", "message_data", "created_at"})
STRUCTURE_COLUMNS = frozenset(
    {"id", "session_id", "message_id", "branch_id", "message_type", "sequence_number",
     "user_turn_number", "branch_turn_number", "tool_name", "created_at"}
)  # fmt: skip
BATCH_ROWS = 2000
REDIS_PREFIX = "agents:session"

Kind = Literal["sqlite-file", "advanced-file", "url", "redis"]
Item = dict[str, Any]


class StoreError(InvestigationError):
    """A store that cannot be read as one of the SDK's session stores."""


class UnsoundStore(StoreError):
    """A store whose engine's own check fails (a damaged SQLite file): nothing is written."""


def unsound(label: str, problem: str) -> str:
    """The one line that refuses (or, in a scan, warns about) a store that failed its check."""
    return (
        f"{label} fails its integrity check ({problem}): the doctor writes nothing on a "
        "damaged store; repair a copy of it first (sqlite3's .recover)"
    )


LOCK_WAIT = 5.0
"""How long a write waits for a session's lock another writer holds (SQLite's busy timeout,
PostgreSQL's ``lock_timeout``, MySQL's ``innodb_lock_wait_timeout``) before it stops; read when
a connection is made (the store fuzzer shortens it)."""


class WriteStopped(StoreError):
    """A write the store did not take (a lock held too long, a refusal, a full disk): the
    repair or restore stops there, in one line that says what was done before it. Its exit
    status says which (``exit_code``)."""

    exit_code = status.FULL

    def after(self, done: str) -> WriteStopped:
        """The same stop, its line ending on what was done before it."""
        return type(self)(f"{self}; {done}")


class StoreLocked(WriteStopped):
    """Another writer held the lock for longer than ``LOCK_WAIT``."""

    exit_code = status.LOCKED


class WriteRefused(WriteStopped):
    """The store refused the write: a trigger, a permission, a read-only database."""

    exit_code = status.REFUSED


class DiskFull(WriteStopped):
    """The store's disk (or its quota, or Redis's memory limit) is full."""

    exit_code = status.FULL


_LOCKED = ("database is locked", "database table is locked", "lock timeout",
           "lock wait timeout", "could not obtain lock", "busy")  # fmt: skip
_FULL = ("disk is full", "no space left", "disk full", "quota", "maxmemory", "out of memory")


def write_stopped(label: str, session_id: str, error: BaseException) -> WriteStopped:
    """A driver's error on a write, as the one-line stop it means."""
    said = one_line(error)
    lower = said.lower()
    if any(word in lower for word in _LOCKED):
        return StoreLocked(
            f"{label} is locked by another writer: waited {LOCK_WAIT:g} s for the write lock of "
            f"session {printable(session_id)} ({said}); run the repair again when the "
            "application is idle"
        )
    if any(word in lower for word in _FULL):
        return DiskFull(f"{label} is full: the write of session {printable(session_id)} "
                        f"failed ({said}); free space and run again")  # fmt: skip
    return WriteRefused(f"{label} refused the write of session {printable(session_id)}: {said}")


class SessionChanged(InvestigationError):
    """Raised by a rewrite's plan, inside the lock, to leave the session untouched: it changed
    since the backup, or it cannot be healed safely by rewriting (repair catches it and reports
    the session as changed; were it ever to escape, it is one line)."""


@dataclass(frozen=True)
class Row:
    """One stored item: its row id (a Redis list index), its value exactly as stored (JSON
    text, or in SQLite any value: ``values``), and when it was created (None where the store
    keeps no time)."""

    id: int
    data: Value
    created_at: Value = None


@dataclass(frozen=True)
class StructureRow:
    """One ``message_structure`` row of an ``AdvancedSQLiteSession``: where a message sits in a
    branch, and how the SDK classified it (``message_type``, ``tool_name``)."""

    id: int
    message_id: int
    branch_id: str
    message_type: str
    sequence_number: int
    user_turn_number: int | None
    branch_turn_number: int | None
    tool_name: str | None
    created_at: str | None

    def as_list(self) -> list[Any]:
        return [self.id, self.message_id, self.branch_id, self.message_type,
                self.sequence_number, self.user_turn_number, self.branch_turn_number,
                self.tool_name, self.created_at]  # fmt: skip


@dataclass(frozen=True)
class View:
    """What the SDK reads for one branch (``None``: a store without branches): each readable
    row with its item, in read order, and how many rows it skips as unreadable."""

    branch: str | None
    pairs: tuple[tuple[Row, Item], ...]
    unreadable: int

    @property
    def items(self) -> list[Item]:
        return [item for _, item in self.pairs]


@dataclass(frozen=True)
class StoredSession:
    """One session's rows in the order its SDK session reads them (for branches: by id, with
    the structure rows that order each branch)."""

    session_id: str
    rows: tuple[Row, ...]
    structure: tuple[StructureRow, ...] | None = None
    codec: Codec = field(default=PLAIN, compare=False, repr=False)

    def readable(self) -> list[tuple[Row, Item]]:
        """Each row the SDK would read, with its item (rows that hold no object skipped)."""
        found = []
        for row in self.rows:
            item = self.codec.decode(self.session_id, row.data)
            if item is not None:
                found.append((row, item))
        return found

    def items(self) -> tuple[list[Item], int]:
        """The items the SDK would read (the first branch's, for branches), and how many rows
        it would skip as unreadable."""
        view = self.views()[0]
        return view.items, view.unreadable

    def views(self) -> list[View]:
        """What the SDK reads for each branch, in branch order (one view without branches)."""
        if self.structure is None:
            pairs = tuple(self.readable())
            return [View(None, pairs, len(self.rows) - len(pairs))]
        decoded = {row.id: (row, self.codec.decode(self.session_id, row.data)) for row in self.rows}
        branches: dict[str, list[StructureRow]] = {}
        for entry in self.structure:
            branches.setdefault(entry.branch_id, []).append(entry)
        if not branches:
            return [View("main", (), 0)]
        views = []
        for branch, entries in sorted(branches.items()):
            entries.sort(key=lambda e: e.sequence_number)
            found = [decoded[e.message_id] for e in entries if e.message_id in decoded]
            pairs = tuple((row, item) for row, item in found if item is not None)
            views.append(View(branch, pairs, len(found) - len(pairs)))
        return views

    @property
    def fingerprint(self) -> str:
        """A digest of every row id and text: equal exactly when the session is unchanged."""
        digest = hashlib.sha256()
        for row in self.rows:
            if isinstance(row.data, str):
                digest.update(f"{row.id}\0{len(row.data)}\0".encode())
                digest.update(row.data.encode("utf-8", "surrogatepass"))
                continue
            raw = as_bytes(row.data)  # another type: its kind in the digest too
            digest.update(f"{row.id}\0{kind(row.data)}:{len(raw)}\0".encode())
            digest.update(raw)
        return digest.hexdigest()


@dataclass(frozen=True)
class Unit:
    """What a scan judges: one session (or one branch of it) as the texts the SDK reads."""

    session_id: str
    branch: str | None
    texts: Sequence[Any]


@dataclass(frozen=True)
class Backend:
    """One row of the table of store strings: the schemes it takes (none: a file path), the
    module whose ``open_store`` opens it, what that needs, and the extra that installs it."""

    kind: Kind
    schemes: tuple[str, ...]
    module: str
    needs: tuple[str, ...]
    extra: str

    @property
    def file(self) -> bool:
        """Whether the store string is a file path (a SQLite file of one of the SDK's classes)."""
        return not self.schemes


FILE = Backend("sqlite-file", (), ".sqlstore", ("sqlalchemy",), "doctor")
ANY_URL = Backend("url", ("*",), ".sqlstore", ("sqlalchemy",), "doctor")
BACKENDS: tuple[Backend, ...] = (
    FILE,
    Backend("url", ("sqlite",), ".sqlstore", ("sqlalchemy", "aiosqlite"), "doctor"),
    Backend("url", ("postgresql", "postgres"), ".sqlstore", ("sqlalchemy", "asyncpg"), "postgres"),
    Backend("url", ("mysql", "mariadb"), ".sqlstore", ("sqlalchemy", "asyncmy"), "mysql"),
    Backend("redis", ("redis", "rediss", "unix"), ".redisstore", ("redis",), "redis"),
)
"""Every kind of store string, and the one place a store's kind chooses code: adding a backend
is a row here, its class (satisfying ``Store``) in its module, and its test."""


def backend_for(text: str) -> Backend:
    """The table's row for a store string (an SQLAlchemy URL of another dialect: ``ANY_URL``)."""
    if "://" not in text:
        return FILE
    scheme = text.split("://", 1)[0].lower().split("+", 1)[0]
    return next((b for b in BACKENDS if scheme in b.schemes), ANY_URL)


@dataclass(frozen=True)
class StoreSpec:
    """Where the store is, how to reach it, and how to name it without its password."""

    text: str
    kind: Kind
    url: str
    label: str
    path: Path | None
    key_env: str = KEY_ENV
    ttl: int | None = None
    backend: Backend = FILE


def parse_store(text: str, *, key_env: str = KEY_ENV, ttl: int | None = None) -> StoreSpec:
    """Name a store from its store string; a one-line ``StoreError`` for what cannot be one,
    and a one-line ``MissingExtra`` when what its backend needs is not installed."""
    backend = backend_for(text)
    if backend.file:
        path = database_file(text, text)
        require(f"reading {text}", backend.needs, backend.extra)
        return StoreSpec(text, backend.kind, str(path), text, path, key_env, ttl, backend)
    scheme = text.split("://", 1)[0]
    require(f"a {scheme}:// store", backend.needs, backend.extra)
    module = importlib.import_module(backend.module, __package__)
    url, label, path = module.parse(text, backend)
    return StoreSpec(text, backend.kind, url, label, path, key_env, ttl, backend)


def database_file(text: str, label: str) -> Path:
    """A SQLite file that exists, its path made absolute (SQLite would create a missing one);
    else a ``StoreError``, for text no file system takes as a path (a NUL byte in it) too."""
    try:
        path = Path(text).expanduser().resolve()
    except (ValueError, OSError) as error:
        raise StoreError(f"{printable(label)} is not a file path: {error}") from None
    if not path.exists():
        raise StoreError(f"no database file at {label}")
    if not path.is_file():
        raise StoreError(f"{label} is not a file")
    return path


def text_time(value: Any) -> str | None:
    """A creation time as text: ISO format for a datetime, as stored for SQLite's text."""
    if value is None:
        return None
    return value.isoformat(sep=" ") if hasattr(value, "isoformat") else str(value)


def one_line(error: BaseException) -> str:
    """A driver's error as one line, without SQLAlchemy's statement and background link."""
    text = " ".join(str(error).split()) or type(error).__name__
    for marker in (" [SQL:", " (Background on this error"):
        text = text.split(marker)[0]
    return text[:300]


@asynccontextmanager
async def closing_on_error(store: Store, doing: str) -> AsyncIterator[None]:
    """While a store is being opened: on any failure close it, and make the failure one line
    (``<doing>: <error>``) unless it is a ``StoreError`` already."""
    try:
        yield
    except StoreError:
        await store.close()
        raise
    except Exception as error:  # driver errors (refused, unknown database) have many types
        await store.close()
        raise StoreError(f"{doing}: {one_line(error)}") from None


# What a restore changes: the backup's rows to update and to insert, and the row ids to delete.
Differences = tuple[list[Row], list[Row], list[int]]


def differences(current: Sequence[Row], wanted: Sequence[Row], exact: bool = False) -> Differences:
    """What putting ``wanted`` back over ``current`` changes, row id by row id (a Redis list's
    row ids are its indexes, so the same rule counts its elements). Rows ``wanted`` does not
    hold (added since the backup) are kept, unless ``exact``: then they are to be deleted."""
    now = {row.id: row.data for row in current}
    keep = {row.id for row in wanted}
    updates = [row for row in wanted if row.id in now and not same(now[row.id], row.data)]
    inserts = [row for row in wanted if row.id not in now]
    deletes = [row_id for row_id in now if row_id not in keep] if exact else []
    return updates, inserts, deletes


def added_since(current: Sequence[Row], saved: Sequence[Row]) -> list[int]:
    """The row ids ``current`` holds that the backup's rows ``saved`` do not."""
    backed = {row.id for row in saved}
    return [row.id for row in current if row.id not in backed]


# What a rewrite's caller decides inside the lock: the current session in, the items to write
# (row id -> item) out; raising ``SessionChanged`` leaves the session untouched.
Plan = Callable[[StoredSession], dict[int, Item]]
FailAfter = Callable[[str], None]


class Store(Protocol):
    """An open store, one class per backend (``sqlstore.SqlStore``, ``redisstore.RedisStore``):
    stream its sessions, rewrite one under its lock, put one back from a backup, and read one
    back through the SDK's own session class. ``read``, ``encode`` and ``open_items`` below (and
    ``restore.restore_session``) are built on it, once for every backend."""

    spec: StoreSpec
    codec: Codec

    @property
    def branches(self) -> bool:
        """Whether its sessions have branches (an ``AdvancedSQLiteSession`` file)."""
        ...

    @property
    def dialect(self) -> str:
        """The SQL dialect (``sqlite``, ``postgresql``, ``mysql``), or ``redis``."""
        ...

    def dump(self, value: Item) -> str:
        """A value's JSON text as the store's SDK session class writes it."""
        ...

    def sessions(self, session_id: str | None = None) -> AsyncIterator[StoredSession]:
        """Every session (or the one named), streamed in session id order, rows in read order."""
        ...

    def units(self, session_id: str | None = None) -> AsyncIterator[Unit]:
        """What a scan judges, streamed: each session's (or branch's) texts in read order."""
        ...

    async def rewrite(
        self, session_id: str, plan: Plan, fail_after: FailAfter | None = None
    ) -> tuple[StoredSession, dict[int, str]]:
        """Under the session's lock: read it, ask ``plan`` what to write, write it, commit;
        the session as read inside the lock, and the texts written by row id. ``fail_after``
        (tests) runs after the writes, before the commit: raising there rolls it back."""
        ...

    async def put_back(self, saved: StoredSession, exact: bool = False) -> Differences:
        """Under the session's lock, write the backup's rows back (``differences``: rows added
        since are kept unless ``exact``), and for a store with structure rows those too; what
        was different."""
        ...

    async def read_back(self, session_id: str) -> dict[str | None, list[Item]]:
        """The session's items (per branch) as the SDK's own session class returns them."""
        ...

    async def write_raw(self, sessions: Sequence[tuple[str, Sequence[str]]]) -> None:
        """Append the given row texts to new sessions, in bulk (synthetic stores)."""
        ...

    async def samples(self, limit: int = 50) -> list[tuple[str, str]]:
        """A few (session id, row text) pairs, to tell plain rows from envelopes."""
        ...

    async def soundness(self) -> str | None:
        """What the engine's own check finds wrong with the store (SQLite's ``quick_check``),
        or None: it passes, or the engine has no check the doctor runs."""
        ...

    @property
    def identity(self) -> str:
        """Which store this is, however its string was spelt: a backup records it, and a
        restore refuses another store's backup."""
        ...

    async def close(self) -> None:
        """Close the connection (or file); the store is not used after."""
        ...


def encode(store: Store, session_id: str, item: Item) -> str:
    """The row text of ``item``: encrypted first when the store is, then dumped."""
    return store.dump(store.codec.encode(session_id, item))


async def read(store: Store, session_id: str) -> StoredSession | None:
    """One session as it is now (None when it is gone)."""
    found = store.sessions(session_id)
    try:
        async for session in found:
            return session
        return None
    finally:
        close = getattr(found, "aclose", None)
        if close is not None:
            await close()


def open_items(codec: Codec, session_id: str, raw: Iterable[Any]) -> list[Item]:
    """Items the SDK's session class returned, opened as ``EncryptedSession`` opens them
    (for an encrypted store: the envelopes it could not open left out). A row of JSON that is
    not an object (``7``) the SDK returns as it is; the doctor's view skips it, so this does."""
    if not codec.encrypted:
        return [dict(item) for item in raw if isinstance(item, dict)]
    found = [codec.decode(session_id, json.dumps(item)) for item in raw]
    return [item for item in found if item is not None]


async def open_store(spec: StoreSpec, *, write: bool = False, decode: bool = True) -> Store:
    """Connect and check the layout (and the key); a one-line ``StoreError``, nothing written.

    ``decode=False`` (a restore, which writes back the texts as stored) needs no key.
    """
    opener = importlib.import_module(spec.backend.module, __package__).open_store
    store: Store = await opener(spec, write)  # for writing: refused when unsound (``soundness``)
    if decode:
        async with closing_on_error(store, f"cannot read {spec.label}"):
            try:
                samples = await store.samples()
                store.codec = choose(spec.label, samples, spec.key_env, spec.ttl)
            except EncryptionKeyError as error:
                raise StoreError(str(error)) from None
    return store


@asynccontextmanager
async def opened(
    text: str,
    *,
    write: bool = False,
    decode: bool = True,
    key_env: str = KEY_ENV,
    ttl: int | None = None,
) -> AsyncIterator[Store]:
    """Open the store named by ``text`` for the block, and close it after."""
    store = await open_store(
        parse_store(text, key_env=key_env, ttl=ttl), write=write, decode=decode
    )
    try:
        yield store
    finally:
        await store.close()
