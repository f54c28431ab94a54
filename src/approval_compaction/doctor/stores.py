"""Stores: a team's stored sessions, opened with the SDK's table layout and read as the SDK reads.

A store is named the way the application names it: a ``SQLiteSession`` file path, or an
SQLAlchemy URL that the SDK's own ``SQLAlchemySession.from_url`` opens
(``postgresql+asyncpg://...``, ``sqlite+aiosqlite:///...``). Both keep two tables,
``agent_sessions`` and ``agent_messages`` (one row per item, its JSON in ``message_data``); a
``SQLiteSession`` reads a session's rows by ``id``, an ``SQLAlchemySession`` by ``created_at``
then ``id``, and the store reads them in the same order.

Reading streams: every session comes from one ordered query whose rows are fetched in batches,
so memory holds one session at a time, whatever their number. A store opened for reading
never writes (a SQLite file is opened read-only). Writes go through ``locked``: one
transaction per session that first takes the session's lock the way the SDK's writers do.
``read_back`` reads a session through the SDK's own session class, as the next run will.

Anything wrong with the store (a missing or corrupt file, a bad URL or a driver that is not
async, tables that are not the SDK's) is a one-line ``StoreError`` raised before any write.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..errors import InvestigationError

if TYPE_CHECKING:
    from sqlalchemy import Table
    from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

SESSIONS_TABLE = "agent_sessions"
MESSAGES_TABLE = "agent_messages"
SESSION_COLUMNS = frozenset({"session_id", "created_at", "updated_at"})
MESSAGE_COLUMNS = frozenset({"id", "session_id", "message_data", "created_at"})
BATCH_ROWS = 2000

Kind = Literal["sqlite-file", "url"]


class StoreError(InvestigationError):
    """A store that cannot be read as the SDK's session store."""


@dataclass(frozen=True)
class Row:
    """One stored item: its row id, its JSON text exactly as stored, and when it was created."""

    id: int
    data: str
    created_at: str | None = None


@dataclass(frozen=True)
class StoredSession:
    """One session's rows, in the order its SDK session reads them."""

    session_id: str
    rows: tuple[Row, ...]

    def readable(self) -> list[tuple[Row, dict[str, Any]]]:
        """Each row the SDK would read, with its item (rows whose JSON is no object skipped)."""
        found = []
        for row in self.rows:
            try:
                item = json.loads(row.data)
            except (json.JSONDecodeError, TypeError):
                continue
            if isinstance(item, dict):
                found.append((row, item))
        return found

    def items(self) -> tuple[list[dict[str, Any]], int]:
        """The items the SDK would read, and how many rows it would skip as unreadable."""
        items = [item for _, item in self.readable()]
        return items, len(self.rows) - len(items)

    @property
    def fingerprint(self) -> str:
        """A digest of every row id and text: equal exactly when the session is unchanged."""
        digest = hashlib.sha256()
        for row in self.rows:
            digest.update(f"{row.id}\0{len(row.data)}\0".encode())
            digest.update(row.data.encode())
        return digest.hexdigest()


@dataclass(frozen=True)
class StoreSpec:
    """Where the store is, how to reach it, and how to name it without its password."""

    text: str
    kind: Kind
    url: str
    label: str
    path: Path | None

    def engine_url(self, *, write: bool) -> str:
        if self.kind == "sqlite-file" and self.path is not None and not write:
            return f"sqlite+aiosqlite:///file:{self.path}?mode=ro&uri=true"
        return self.url


def parse_store(text: str) -> StoreSpec:
    """Name a store: a file path is a ``SQLiteSession`` file, ``scheme://...`` an SQLAlchemy URL."""
    if "://" not in text:
        path = Path(text).expanduser().resolve()
        _check_file(path, text)
        return StoreSpec(text, "sqlite-file", f"sqlite+aiosqlite:///{path}", text, path)
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        url = make_url(text)
    except ArgumentError as error:
        raise StoreError(f"not an SQLAlchemy URL: {_one_line(error)}") from None
    label = url.render_as_string(hide_password=True)
    _check_driver(url, label)
    database: Path | None = None
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        database = Path(str(url.database)).expanduser().resolve()
        _check_file(database, label)  # SQLite would create a missing file: refuse before it can
    return StoreSpec(text, "url", text, label, database)


def _check_driver(url: Any, label: str) -> None:
    """The SDK's ``SQLAlchemySession`` needs an async driver that is installed."""
    from sqlalchemy.exc import NoSuchModuleError

    try:
        dialect = url.get_dialect()
    except NoSuchModuleError:
        raise StoreError(f"{label}: unknown database or driver {url.drivername!r}") from None
    if not getattr(dialect, "is_async", False):
        raise StoreError(
            f"{label}: driver {url.drivername!r} is not async; SQLAlchemySession needs one "
            "such as postgresql+asyncpg or sqlite+aiosqlite"
        )


def _check_file(path: Path, label: str) -> None:
    if not path.exists():
        raise StoreError(f"no database file at {label}")
    if not path.is_file():
        raise StoreError(f"{label} is not a file")


def _text(value: Any) -> str | None:
    """A creation time as text: ISO format for a datetime, as stored for SQLite's text."""
    if value is None:
        return None
    return value.isoformat(sep=" ") if hasattr(value, "isoformat") else str(value)


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    for marker in (" [SQL:", " (Background on this error"):
        text = text.split(marker)[0]
    return text[:300]


def _file_tables() -> tuple[Table, Table]:
    """``SQLiteSession``'s two tables, declared with the columns the store reads and writes."""
    from sqlalchemy import Column, Integer, MetaData, String, Table, Text

    metadata = MetaData()
    sessions = Table(
        SESSIONS_TABLE,
        metadata,
        Column("session_id", String, primary_key=True),
        Column("created_at", Text),
        Column("updated_at", Text),
    )
    messages = Table(
        MESSAGES_TABLE,
        metadata,
        Column("id", Integer, primary_key=True),
        Column("session_id", String),
        Column("message_data", Text),
        Column("created_at", Text),
    )
    return sessions, messages


class Store:
    """An open store: stream its sessions, lock one for a write, read one back through the SDK."""

    def __init__(
        self, spec: StoreSpec, engine: AsyncEngine, sessions: Table, messages: Table, write: bool
    ) -> None:
        self.spec, self.engine, self.write = spec, engine, write
        self.sessions_table, self.messages_table = sessions, messages

    @property
    def dialect(self) -> str:
        return str(self.engine.dialect.name)

    def dump(self, item: dict[str, Any]) -> str:
        """An item's JSON text as the store's SDK session class writes it."""
        if self.spec.kind == "sqlite-file":
            return json.dumps(item)  # SQLiteSession's
        return json.dumps(item, ensure_ascii=True, separators=(",", ":"))  # SQLAlchemySession's

    def _order(self) -> list[Any]:
        m = self.messages_table.c
        return [m.id] if self.spec.kind == "sqlite-file" else [m.created_at, m.id]

    async def check_layout(self) -> None:
        """Fail in one line unless both tables exist with the SDK's columns."""
        from sqlalchemy import inspect

        def columns(sync_conn: Any) -> dict[str, set[str]]:
            inspector = inspect(sync_conn)
            names = set(inspector.get_table_names())
            return {
                name: {c["name"] for c in inspector.get_columns(name)}
                for name in (SESSIONS_TABLE, MESSAGES_TABLE)
                if name in names
            }

        async with self.engine.connect() as conn:
            found = await conn.run_sync(columns)
        for name, needed in ((SESSIONS_TABLE, SESSION_COLUMNS), (MESSAGES_TABLE, MESSAGE_COLUMNS)):
            if name not in found:
                raise StoreError(f"{self.spec.label} is not an SDK session store: no table {name}")
            missing = sorted(needed - found[name])
            if missing:
                raise StoreError(
                    f"{self.spec.label}: table {name} is not the SDK's layout "
                    f"(missing column {', '.join(missing)})"
                )

    async def sessions(self, session_id: str | None = None) -> AsyncIterator[StoredSession]:
        """Every session (or the one named), streamed in session id order, rows in read order."""
        from sqlalchemy import select

        s, m = self.sessions_table.c, self.messages_table.c
        joined = self.sessions_table.outerjoin(self.messages_table, m.session_id == s.session_id)
        query = select(s.session_id, m.id, m.message_data, m.created_at).select_from(joined)
        if session_id is not None:
            query = query.where(s.session_id == session_id)
        query = query.order_by(s.session_id, *self._order())
        current: str | None = None
        rows: list[Row] = []
        async with self.engine.connect() as conn:
            result = await conn.stream(query.execution_options(yield_per=BATCH_ROWS))
            async for batch in result.partitions():  # one await per batch, not per row
                for sid, row_id, data, created in batch:
                    if sid != current:
                        if current is not None:
                            yield StoredSession(current, tuple(rows))
                        current, rows = sid, []
                    if row_id is not None:
                        rows.append(Row(int(row_id), str(data), _text(created)))
        if current is not None:
            yield StoredSession(current, tuple(rows))

    async def read_rows(self, conn: AsyncConnection, session_id: str) -> StoredSession:
        """One session's rows inside an open transaction."""
        from sqlalchemy import select

        m = self.messages_table.c
        query = select(m.id, m.message_data, m.created_at).where(m.session_id == session_id)
        result = await conn.execute(query.order_by(*self._order()))
        rows = tuple(Row(int(i), str(d), _text(c)) for i, d, c in result.all())
        return StoredSession(session_id, rows)

    @asynccontextmanager
    async def locked(self, session_id: str) -> AsyncIterator[AsyncConnection]:
        """One transaction that holds the session's write lock, committed when the block ends.

        SQLite takes the database's writer with a first write (the SDK's own trick); other
        databases lock the session's row ``FOR UPDATE``, as the SDK's writers do.
        """
        from sqlalchemy import select, update

        if not self.write:
            raise StoreError("the store was opened for reading")
        s = self.sessions_table.c
        async with self.engine.begin() as conn:
            if self.dialect == "sqlite":
                await conn.execute(
                    update(self.sessions_table)
                    .where(s.session_id == session_id)
                    .values(updated_at=s.updated_at)
                )
            else:
                query = select(s.session_id).where(s.session_id == session_id)
                await conn.execute(query.with_for_update())
            yield conn

    async def read_back(self, session_id: str) -> list[dict[str, Any]]:
        """The session's items as the SDK's own session class returns them."""
        if self.spec.kind == "sqlite-file":
            from agents import SQLiteSession

            session = SQLiteSession(session_id, str(self.spec.path))
            try:
                items = await session.get_items()
            finally:
                session.close()
        else:
            from agents.extensions.memory import SQLAlchemySession

            items = await SQLAlchemySession(session_id, engine=self.engine).get_items()
        return [dict(item) for item in items]

    async def close(self) -> None:
        await self.engine.dispose()


async def open_store(spec: StoreSpec, *, write: bool = False) -> Store:
    """Connect and check the layout; a one-line ``StoreError`` for any problem, nothing written."""
    from sqlalchemy.exc import SQLAlchemyError

    try:
        engine, sessions, messages = _engine(spec, write)
    except (SQLAlchemyError, ImportError, ValueError, TypeError) as error:
        raise StoreError(f"cannot open {spec.label}: {_one_line(error)}") from None
    store = Store(spec, engine, sessions, messages, write)
    try:
        await store.check_layout()
    except StoreError:
        await store.close()
        raise
    except Exception as error:  # driver errors (refused, corrupt file) have many types
        await store.close()
        raise StoreError(f"cannot read {spec.label}: {_one_line(error)}") from None
    return store


def _engine(spec: StoreSpec, write: bool) -> tuple[AsyncEngine, Table, Table]:
    """The engine and tables: the SDK's ``SQLAlchemySession`` for URLs, read-only for files."""
    if spec.kind == "sqlite-file":
        from sqlalchemy.ext.asyncio import create_async_engine

        sessions, messages = _file_tables()
        return create_async_engine(spec.engine_url(write=write)), sessions, messages
    from agents.extensions.memory import SQLAlchemySession

    session = SQLAlchemySession.from_url("approval-compaction-doctor", url=spec.url)
    # The SDK's own table objects, so the store reads and writes exactly its columns.
    tables = (getattr(session, "_sessions", None), getattr(session, "_messages", None))
    if tables[0] is None or tables[1] is None:
        raise ValueError("this openai-agents release's SQLAlchemySession has no table objects")
    return session.engine, tables[0], tables[1]


@asynccontextmanager
async def opened(text: str, *, write: bool = False) -> AsyncIterator[Store]:
    """Open the store named by ``text`` for the block, and close it after."""
    store = await open_store(parse_store(text), write=write)
    try:
        yield store
    finally:
        await store.close()
