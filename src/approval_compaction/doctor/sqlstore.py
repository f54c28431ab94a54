"""SQL stores: ``SQLiteSession``, ``AsyncSQLiteSession`` and ``AdvancedSQLiteSession`` files, and
``SQLAlchemySession`` on any database SQLAlchemy reaches with an async driver.

Reads of a SQLite file go straight through the standard library's ``sqlite3``, opened read-only
(the fastest way to hand rows to a scan); reads of a URL stream through SQLAlchemy in batches.
Writes go through SQLAlchemy in one transaction per session that first takes the session's lock
the way the SDK's writers do: a first write takes SQLite's writer, other databases lock the
session's row ``FOR UPDATE``.

An ``AdvancedSQLiteSession`` file keeps each message once, in ``agent_messages``, and orders it
in each branch by a ``message_structure`` row that also records the SDK's classification of the
item (``message_type``, ``tool_name``). A rewritten message gets its structure rows classified
again by the SDK's own rules, in the same transaction; ``turn_usage`` is never touched.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import datetime
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..errors import printable
from . import stores
from .codec import PLAIN
from .stores import (
    BATCH_ROWS,
    MESSAGE_COLUMNS,
    MESSAGES_TABLE,
    SESSION_COLUMNS,
    SESSIONS_TABLE,
    STRUCTURE_COLUMNS,
    STRUCTURE_TABLE,
    USAGE_TABLE,
    Backend,
    Differences,
    FailAfter,
    Item,
    Plan,
    Row,
    StoredSession,
    StoreError,
    StoreSpec,
    StructureRow,
    Unit,
    UnsoundStore,
    closing_on_error,
    database_file,
    differences,
    one_line,
    open_items,
    text_time,
    unsound,
    write_stopped,
)
from .values import RawText, Value, read_text

if TYPE_CHECKING:
    from sqlalchemy import Table
    from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

DEFAULT_PORTS = {"postgresql": 5432, "mysql": 3306, "mariadb": 3306}  # a URL without a port
_STRUCTURE_SELECT = (
    "st.id, st.session_id, st.message_id, st.branch_id, st.message_type, st.sequence_number, "
    "st.user_turn_number, st.branch_turn_number, st.tool_name, st.created_at"
)


def _tables(advanced: bool) -> tuple[Table, Table, Table | None]:
    """The SQLite files' tables, declared with the columns the doctor reads and writes."""
    from sqlalchemy import Column, Integer, MetaData, String, Table, Text

    metadata = MetaData()
    sessions = Table(
        SESSIONS_TABLE, metadata,
        Column("session_id", String, primary_key=True),
        Column("created_at", Text), Column("updated_at", Text),
    )  # fmt: skip
    messages = Table(
        MESSAGES_TABLE, metadata,
        Column("id", Integer, primary_key=True), Column("session_id", String),
        Column("message_data", Text), Column("created_at", Text),
    )  # fmt: skip
    if not advanced:
        return sessions, messages, None
    structure = Table(
        STRUCTURE_TABLE, metadata,
        Column("id", Integer, primary_key=True), Column("session_id", String),
        Column("message_id", Integer), Column("branch_id", String),
        Column("message_type", String), Column("sequence_number", Integer),
        Column("user_turn_number", Integer), Column("branch_turn_number", Integer),
        Column("tool_name", String), Column("created_at", Text),
    )  # fmt: skip
    return sessions, messages, structure


def _structure(row: Sequence[Any]) -> StructureRow:
    return StructureRow(int(row[0]), int(row[2]), str(row[3]), str(row[4]), int(row[5]),
                        row[6], row[7], row[8], text_time(row[9]))  # fmt: skip


def _rows(found: Iterable[Sequence[Any]], raw: bool) -> tuple[Row, ...]:
    """The rows of ``_rows_sql``'s answer for one session (its NULL row, if any, left out):
    each value as stored (``raw``: SQLite, whose cells may hold any type), else the text of a
    server's column and its time as text."""
    if raw:
        return tuple(Row(int(i), d, c) for _, i, d, c in found if i is not None)
    return tuple(Row(int(i), str(d), text_time(c)) for _, i, d, c in found if i is not None)


def _bind(value: Value) -> Any:
    """A value to write back as it was read: text that is not UTF-8 goes back as text."""
    if isinstance(value, RawText):
        from sqlalchemy import LargeBinary, Text, cast, literal

        return cast(literal(bytes(value), LargeBinary), Text)
    return value


def _connected(dbapi_connection: Any, record: Any) -> None:
    """Every SQLite connection of the engine reads text as ``values.read_text`` does, and
    waits ``stores.LOCK_WAIT`` for a lock another writer holds."""
    inner = getattr(dbapi_connection, "_connection", dbapi_connection)  # aiosqlite's
    inner.text_factory = read_text
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {int(stores.LOCK_WAIT * 1000)}")
    cursor.close()


def _on_connect(engine: AsyncEngine) -> None:
    from sqlalchemy import event

    event.listen(engine.sync_engine, "connect", _connected)


def _check_columns(label: str, found: dict[str, set[str]], advanced: bool) -> None:
    needed = [(SESSIONS_TABLE, SESSION_COLUMNS), (MESSAGES_TABLE, MESSAGE_COLUMNS)]
    if advanced:
        needed.append((STRUCTURE_TABLE, STRUCTURE_COLUMNS))
    for name, columns in needed:
        if name not in found:
            raise StoreError(f"{label} is not an SDK session store: no table {name}")
        missing = sorted(columns - found[name])
        if missing:
            raise StoreError(
                f"{label}: table {name} is not the SDK's layout "
                f"(missing column {', '.join(missing)})"
            )


def _classify(stored: Item) -> tuple[str, str | None]:
    """``AdvancedSQLiteSession``'s own classification of a stored value (its methods read no
    state of the session: called unbound)."""
    from agents.extensions.memory import AdvancedSQLiteSession

    cls = cast(Any, AdvancedSQLiteSession)
    return str(cls._classify_message_type(None, stored)), cls._extract_tool_name(None, stored)


class SqlStore:
    """A store in SQL tables, read in the SDK session class's order (a ``stores.Store``)."""

    def __init__(
        self,
        spec: StoreSpec,
        engine: AsyncEngine | None,
        tables: tuple[Table, Table, Table | None],
        write: bool,
        file: sqlite3.Connection | None,
    ) -> None:
        self.spec, self.write, self.codec = spec, write, PLAIN
        self._engine, self._file = engine, file
        self.sessions_table, self.messages_table, self.structure_table = tables

    @property
    def engine(self) -> AsyncEngine:
        if self._engine is None:
            from sqlalchemy.ext.asyncio import create_async_engine

            self._engine = create_async_engine(f"sqlite+aiosqlite:///{self.spec.path}")
            _on_connect(self._engine)
        return self._engine

    @property
    def dialect(self) -> str:
        if self._file is not None or self.spec.backend.file:
            return "sqlite"
        return str(self.engine.dialect.name)

    @property
    def branches(self) -> bool:
        return self.structure_table is not None

    def dump(self, value: Item) -> str:
        if not self.spec.backend.file:  # SQLAlchemySession's
            return json.dumps(value, ensure_ascii=True, separators=(",", ":"))
        return json.dumps(value)  # SQLiteSession's, AsyncSQLiteSession's, AdvancedSQLiteSession's

    @property
    def order(self) -> str:
        """The SDK class's read order of one session's rows."""
        return "m.id" if self.spec.backend.file else "m.created_at, m.id"

    async def soundness(self) -> str | None:
        if self.spec.path is None:
            return None  # PostgreSQL's amcheck and MariaDB's CHECK TABLE are the DBA's to run
        return quick_check(self.spec.path, self._file)

    @property
    def identity(self) -> str:
        if self.spec.path is not None:  # a file, or a sqlite+aiosqlite URL naming it
            return f"sqlite:{self.spec.path}"
        from sqlalchemy.engine import make_url

        url = make_url(self.spec.url)
        backend, host = url.get_backend_name(), (url.host or "localhost").lower()
        port = url.port or DEFAULT_PORTS.get(backend) or ""
        return f"{backend}://{host}:{port}/{url.database or ''}"

    async def _batches(self, sql: str, params: dict[str, Any]) -> AsyncIterator[list[Any]]:
        """Rows of a query in batches: ``sqlite3`` for a file, SQLAlchemy's stream for a URL.
        A file damaged where the query reads is a one-line ``StoreError``."""
        if self._file is not None:
            try:
                cursor = self._file.execute(sql, params)
            except sqlite3.DatabaseError as error:
                raise StoreError(f"cannot read {self.spec.label}: {one_line(error)}") from None
            try:
                while True:
                    try:
                        batch = cursor.fetchmany(BATCH_ROWS)
                    except sqlite3.DatabaseError as error:
                        raise StoreError(
                            f"cannot read {self.spec.label}: {one_line(error)}"
                        ) from None
                    if not batch:
                        break
                    yield batch
            finally:
                with contextlib.suppress(sqlite3.ProgrammingError):  # closed with the store
                    cursor.close()
            return
        from sqlalchemy import text
        from sqlalchemy.exc import DBAPIError

        if not params:  # a query with no parameters may hold colons (the in-database query)
            sql = sql.replace(":", "\\:")
        try:
            async with self.engine.connect() as conn:
                query = text(sql).execution_options(yield_per=BATCH_ROWS)
                result = await conn.stream(query, params or None)
                async for partition in result.partitions(BATCH_ROWS):  # the size keeps it streaming
                    yield [tuple(row) for row in partition]
        except DBAPIError as error:  # a damaged file, a server gone mid-scan: one line
            raise StoreError(f"cannot read {self.spec.label}: {one_line(error)}") from None

    async def _grouped(
        self, sql: str, params: dict[str, Any], width: int = 1
    ) -> AsyncIterator[tuple[Any, list[Any]]]:
        """The query's rows grouped by their first ``width`` columns (the query orders them)."""
        key = itemgetter(*range(width)) if width > 1 else itemgetter(0)
        current: Any = None
        rows: list[Any] = []
        started = False
        async for batch in self._batches(sql, params):
            for value, group in groupby(batch, key):
                if started and value == current:
                    rows.extend(group)
                    continue
                if started:
                    yield current, rows
                current, rows, started = value, list(group), True
        if started:
            yield current, rows

    def _where(self, session_id: str | None, column: str) -> tuple[str, dict[str, Any]]:
        if session_id is None:
            return "", {}
        return f" WHERE {column} = :sid", {"sid": session_id}

    def _rows_sql(
        self, session_id: str | None, columns: str = "m.id, m.message_data, m.created_at"
    ) -> tuple[str, dict[str, Any]]:
        """Each session's (or the one named) message rows in the SDK class's read order, after
        its id; a session without messages gives one row of NULLs."""
        ids, params = self._ids(session_id)
        sql = (
            f"SELECT s.session_id, {columns} FROM {ids} s "
            f"LEFT JOIN {MESSAGES_TABLE} m ON m.session_id = s.session_id "
            f"ORDER BY s.session_id, {self.order}"
        )
        return sql, params

    def _ids(self, session_id: str | None) -> tuple[str, dict[str, Any]]:
        """Every session id the SDK reads rows of (or the one named), as a subquery: those of
        ``agent_sessions`` and those of message rows whose ``agent_sessions`` row is missing
        (the SDK's ``get_items`` reads ``agent_messages`` alone)."""
        where, params = self._where(session_id, "session_id")
        ids = (
            f"(SELECT session_id FROM {SESSIONS_TABLE}{where} "
            f"UNION SELECT session_id FROM {MESSAGES_TABLE}{where})"
        )
        return ids, params

    def _structure_sql(self, session_id: str | None) -> tuple[str, dict[str, Any]]:
        """Each session's (or the one named) ``message_structure`` rows, by id, after its id:
        those it names, and those that order one of its messages (``AdvancedSQLiteSession``
        reads a branch by the message's session, whatever session the structure row names)."""
        where, params = self._where(session_id, "x.sid")
        owners = (
            f"SELECT id AS row_id, session_id AS sid FROM {STRUCTURE_TABLE} UNION "
            f"SELECT st.id, m.session_id FROM {STRUCTURE_TABLE} st "
            f"JOIN {MESSAGES_TABLE} m ON m.id = st.message_id"
        )
        sql = (
            f"SELECT x.sid, {_STRUCTURE_SELECT} FROM ({owners}) x "
            f"JOIN {STRUCTURE_TABLE} st ON st.id = x.row_id{where} ORDER BY x.sid, st.id"
        )
        return sql, params

    async def sessions(self, session_id: str | None = None) -> AsyncIterator[StoredSession]:
        sql, params = self._rows_sql(session_id)
        structures = self._structures(session_id) if self.branches else None
        try:
            async for session in self._merged(sql, params, structures):
                yield session
        finally:
            if structures is not None:
                await structures.aclose()

    async def _merged(
        self,
        sql: str,
        params: dict[str, Any],
        structures: AsyncIterator[tuple[Any, list[StructureRow]]] | None,
    ) -> AsyncIterator[StoredSession]:
        pending: tuple[Any, list[StructureRow]] | None = None
        async for sid, found in self._grouped(sql, params):
            rows = _rows(found, self.dialect == "sqlite")
            structure: tuple[StructureRow, ...] | None = None
            if structures is not None:
                taken: list[StructureRow] = []
                while True:
                    if pending is None:
                        pending = await anext(structures, None)
                        if pending is None:
                            break
                    if pending[0] < sid:
                        pending = None
                        continue
                    if pending[0] == sid:
                        taken, pending = pending[1], None
                    break
                structure = tuple(taken)
            yield StoredSession(str(sid), rows, structure, self.codec)

    async def _structures(
        self, session_id: str | None
    ) -> AsyncGenerator[tuple[Any, list[StructureRow]], None]:
        async for sid, found in self._grouped(*self._structure_sql(session_id)):
            yield sid, [_structure(row[1:]) for row in found]

    def _units_sql(self, session_id: str | None) -> tuple[str, dict[str, Any], int]:
        if not self.branches:
            return (*self._rows_sql(session_id, "m.message_data"), 1)
        ids, params = self._ids(session_id)
        sql = (
            f"SELECT s.session_id, b.branch_id, b.message_data FROM {ids} s "
            f"LEFT JOIN (SELECT m.session_id, st.branch_id, st.sequence_number, m.message_data "
            f"FROM {STRUCTURE_TABLE} st JOIN {MESSAGES_TABLE} m ON m.id = st.message_id"
            f") b ON b.session_id = s.session_id "
            f"ORDER BY s.session_id, b.branch_id, b.sequence_number"
        )
        return sql, params, 2

    async def units(self, session_id: str | None = None) -> AsyncIterator[Unit]:
        sql, params, width = self._units_sql(session_id)
        if width == 1:
            async for sid, found in self._grouped(sql, params):
                yield Unit(str(sid), None, [d for _, d in found if d is not None])
            return
        async for (sid, branch), found in self._grouped(sql, params, width):
            texts = [d for _, _, d in found if d is not None]
            yield Unit(str(sid), "main" if branch is None else str(branch), texts)

    async def samples(self, limit: int = 50) -> list[tuple[str, str]]:
        half = max(1, limit // 2)
        found: list[tuple[str, str]] = []
        for direction in ("ASC", "DESC"):
            sql = (
                f"SELECT session_id, message_data FROM {MESSAGES_TABLE} "
                f"ORDER BY id {direction} LIMIT {half}"
            )
            async for batch in self._batches(sql, {}):
                found.extend((str(s), str(d)) for s, d in batch)
        return found

    async def read_rows(self, conn: AsyncConnection, session_id: str) -> StoredSession:
        """One session's rows (and structure) inside an open transaction, read as a scan reads
        them."""
        from sqlalchemy import text

        sql, params = self._rows_sql(session_id)
        rows = _rows((await conn.execute(text(sql), params)).all(), self.dialect == "sqlite")
        structure = None
        if self.branches:
            sql, params = self._structure_sql(session_id)
            found = (await conn.execute(text(sql), params)).all()
            structure = tuple(_structure(row[1:]) for row in found)
        return StoredSession(session_id, rows, structure, self.codec)

    @asynccontextmanager
    async def locked(self, session_id: str) -> AsyncIterator[AsyncConnection]:
        """One transaction that holds the session's write lock, committed when the block ends.

        SQLite takes the database's writer with a first write (the SDK's own trick); other
        databases lock the session's row ``FOR UPDATE``, as the SDK's writers do.
        """
        from sqlalchemy import select, text, update

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
                wait = int(stores.LOCK_WAIT * 1000)
                if self.dialect == "postgresql":
                    await conn.execute(text(f"SET LOCAL lock_timeout = {wait}"))
                elif self.dialect in ("mysql", "mariadb"):
                    await conn.execute(
                        text(f"SET innodb_lock_wait_timeout = {max(1, wait // 1000)}")
                    )
                query = select(s.session_id).where(s.session_id == session_id)
                await conn.execute(query.with_for_update())
            yield conn

    async def rewrite(
        self, session_id: str, plan: Plan, fail_after: FailAfter | None = None
    ) -> tuple[StoredSession, dict[int, str]]:
        from sqlalchemy.exc import DBAPIError

        try:
            return await self._rewrite(session_id, plan, fail_after)
        except DBAPIError as error:  # rolled back: a lock held too long, a refusal, a full disk
            raise write_stopped(self.spec.label, session_id, error) from None

    async def _rewrite(
        self, session_id: str, plan: Plan, fail_after: FailAfter | None
    ) -> tuple[StoredSession, dict[int, str]]:
        from sqlalchemy import update

        m = self.messages_table.c
        written: dict[int, str] = {}
        async with self.locked(session_id) as conn:
            current = await self.read_rows(conn, session_id)
            for row_id, item in plan(current).items():
                stored = self.codec.encode(session_id, item)
                written[row_id] = self.dump(stored)
                await conn.execute(
                    update(self.messages_table)
                    .where(m.id == row_id, m.session_id == session_id)
                    .values(message_data=written[row_id])
                )
                if self.structure_table is not None:
                    kind, tool = _classify(stored)
                    st = self.structure_table.c
                    await conn.execute(
                        update(self.structure_table)
                        .where(st.message_id == row_id)  # the SDK's join: by message id
                        .values(message_type=kind, tool_name=tool)
                    )
            if fail_after is not None:
                fail_after(session_id)  # a test's injected failure: rolls this one back
        return current, written

    def _created(self, value: Value) -> Any:
        if not isinstance(value, str) or self.dialect == "sqlite":
            return value
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            return value

    async def put_back(self, saved: StoredSession, exact: bool = False) -> Differences:
        from sqlalchemy.exc import DBAPIError, IntegrityError

        try:
            return await self._put_back(saved, exact)
        except IntegrityError as error:  # rolled back
            if not any(word in str(error).lower() for word in ("unique", "duplicate", "primary")):
                raise write_stopped(self.spec.label, saved.session_id, error) from None  # a trigger
            # a row id the backup holds is another session's
            taken = ", ".join(str(row.id) for row in saved.rows[:3])
            raise StoreError(
                f"{saved.session_id}: {self.spec.label} already holds rows with the backup's "
                f"ids (among {taken}) in another session: not restored (is it the backup's store?)"
            ) from None
        except DBAPIError as error:  # rolled back: a lock held too long, a refusal, a full disk
            raise write_stopped(self.spec.label, saved.session_id, error) from None

    async def _put_back(self, saved: StoredSession, exact: bool) -> Differences:
        from sqlalchemy import delete, insert, select, update

        s, m = self.sessions_table, self.messages_table
        async with self.locked(saved.session_id) as conn:
            parent = select(s.c.session_id).where(s.c.session_id == saved.session_id)
            if (await conn.execute(parent)).first() is None:
                await conn.execute(insert(s).values(session_id=saved.session_id))
            before = await self.read_rows(conn, saved.session_id)
            updates, inserts, deletes = found = differences(before.rows, saved.rows, exact)
            for row in updates:
                await conn.execute(
                    update(m).where(m.c.id == row.id, m.c.session_id == saved.session_id)
                    .values(message_data=_bind(row.data))
                )  # fmt: skip
            if deletes:
                await conn.execute(
                    delete(m).where(m.c.session_id == saved.session_id, m.c.id.in_(deletes))
                )
            for row in inserts:
                values: dict[str, Any] = {"id": row.id, "session_id": saved.session_id}
                values["message_data"] = _bind(row.data)
                if row.created_at is not None:
                    values["created_at"] = _bind(self._created(row.created_at))
                await conn.execute(insert(m).values(**values))
            if self.structure_table is not None and saved.structure is not None:
                await self._restore_structure(conn, saved, before, exact)
        return found

    async def _restore_structure(
        self, conn: AsyncConnection, saved: StoredSession, before: StoredSession, exact: bool
    ) -> None:
        from sqlalchemy import delete, insert, update

        assert self.structure_table is not None and saved.structure is not None
        st = self.structure_table
        now = {e.id: e for e in before.structure or ()}
        wanted = {e.id: e for e in saved.structure}
        for entry in saved.structure:
            values = {"message_id": entry.message_id,
                      "branch_id": entry.branch_id, "message_type": entry.message_type,
                      "sequence_number": entry.sequence_number,
                      "user_turn_number": entry.user_turn_number,
                      "branch_turn_number": entry.branch_turn_number,
                      "tool_name": entry.tool_name}  # fmt: skip
            if entry.id not in now:
                await conn.execute(
                    insert(st).values(id=entry.id, created_at=entry.created_at,
                                      session_id=saved.session_id, **values)
                )  # fmt: skip
            elif now[entry.id] != entry:  # the session it names stays (the SDK reads by message)
                await conn.execute(update(st).where(st.c.id == entry.id).values(**values))
        extra = [i for i in now if i not in wanted]
        if extra and exact:  # else the structure rows of messages added since are kept
            await conn.execute(
                delete(st).where(st.c.session_id == saved.session_id, st.c.id.in_(extra))
            )

    async def read_back(self, session_id: str) -> dict[str | None, list[Item]]:
        underlying: Any
        branches: list[str | None] = [None]
        if self.spec.backend.file and not self.branches:
            from agents import SQLiteSession

            underlying = SQLiteSession(session_id, str(self.spec.path))
        elif self.spec.backend.file:
            from agents.extensions.memory import AdvancedSQLiteSession

            underlying = AdvancedSQLiteSession(session_id=session_id, db_path=str(self.spec.path))
            branches = sorted({b["branch_id"] for b in await underlying.list_branches()}) or [
                "main"
            ]
        else:
            from agents.extensions.memory import SQLAlchemySession

            underlying = SQLAlchemySession(session_id, engine=self.engine)
        try:
            found: dict[str | None, list[Item]] = {}
            for branch in branches:
                if branch is None:
                    raw = await underlying.get_items()
                else:
                    raw = await underlying.get_items(branch_id=branch)
                found[branch] = open_items(self.codec, session_id, raw)
            return found
        # The SDK cannot read it either: text that is not UTF-8 (sqlite3's error), a NULL row
        # (SQLAlchemySession's json.loads: TypeError).
        except (sqlite3.Error, TypeError, ValueError) as error:
            raise StoreError(f"the SDK cannot read session {printable(session_id)}: "
                             f"{one_line(error)}") from None  # fmt: skip
        finally:
            if hasattr(underlying, "close") and self.spec.backend.file:
                underlying.close()

    async def write_raw(self, sessions: Sequence[tuple[str, Sequence[str]]]) -> None:
        from sqlalchemy import insert

        if not sessions:
            return
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(self.sessions_table), [{"session_id": sid} for sid, _ in sessions]
            )
            rows = [
                {"session_id": sid, "message_data": t} for sid, texts in sessions for t in texts
            ]
            if rows:
                await conn.execute(insert(self.messages_table), rows)

    async def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        if self._engine is not None:
            await self._engine.dispose()


def quick_check(path: Path, conn: sqlite3.Connection | None = None) -> str | None:
    """What SQLite's ``PRAGMA quick_check`` finds wrong with the file (its first three
    findings, on one line), or None when it answers ``ok``; read-only."""
    opened = conn or sqlite3.connect(reading_uri(path), uri=True)
    try:
        found = [str(row[0]) for row in opened.execute("PRAGMA quick_check(3)")]
    except sqlite3.DatabaseError as error:
        return f"SQLite's quick_check: {one_line(error)}"
    finally:
        if opened is not conn:
            opened.close()
    if found == ["ok"]:
        return None
    return f"SQLite's quick_check: {one_line(Exception('; '.join(found)))}"


def refuse_unsound(spec: StoreSpec, conn: sqlite3.Connection | None = None) -> None:
    """Before a SQLite file is opened for writing (which alone creates its WAL files): an
    ``UnsoundStore`` when it fails ``quick_check``."""
    if spec.path is None:
        return
    problem = quick_check(spec.path, conn)
    if problem is not None:
        raise UnsoundStore(unsound(spec.label, problem))


def _file_tables(conn: sqlite3.Connection) -> dict[str, set[str]]:
    names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {name: {r[1] for r in conn.execute(f'PRAGMA table_info("{name}")')} for name in names}


def reading_uri(path: Path) -> str:
    """The URI that opens a SQLite file for reading without leaving a file behind.

    ``mode=ro``, except for a WAL database that no one has open (no ``-wal`` file): SQLite
    creates ``-wal`` and ``-shm`` even for a read-only connection, and only a connection that
    may write removes them when it closes, as every reader of the application's does. The doctor
    still only reads on it; where the ``-wal`` exists the application has the file open, and
    ``mode=ro`` creates nothing.
    """
    with path.open("rb") as handle:
        header = handle.read(20)
    wal = len(header) == 20 and header[18] == 2  # the file format's write version: 2 is WAL
    in_use = path.with_name(f"{path.name}-wal").exists()
    return f"{path.as_uri()}?mode={'rw' if wal and not in_use else 'ro'}"


async def _open_file(spec: StoreSpec, write: bool) -> SqlStore:
    assert spec.path is not None
    try:
        uri = reading_uri(spec.path)
        conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
        conn.text_factory = read_text
        found = _file_tables(conn)
    except (sqlite3.Error, OSError) as error:
        raise StoreError(f"cannot read {spec.label}: {one_line(error)}") from None
    advanced = STRUCTURE_TABLE in found or USAGE_TABLE in found
    try:
        _check_columns(spec.label, found, advanced)
    except StoreError:
        conn.close()
        raise
    kind_spec = replace(spec, kind="advanced-file") if advanced else spec
    store = SqlStore(kind_spec, None, _tables(advanced), write, conn)
    if write:
        try:
            refuse_unsound(spec, conn)
        except UnsoundStore:
            conn.close()
            raise
        async with closing_on_error(store, f"cannot open {spec.label} for writing"):
            async with store.engine.connect():
                pass
    return store


def parse(text: str, backend: Backend) -> tuple[str, str, Path | None]:
    """The table's parser for SQLAlchemy URLs: the URL, its label without the password, and
    the database file of a ``sqlite+aiosqlite`` URL (which must exist)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(text)  # ValueError: a port that is not a number, an unclosed [
    except (ArgumentError, ValueError) as error:
        raise StoreError(
            f"not a store string (file, SQLAlchemy URL or redis://): {one_line(error)}"
        ) from None
    label = parsed.render_as_string(hide_password=True)
    host = parsed.host or ""
    if any(c in "[]/@ " or not c.isprintable() for c in host.strip("[]") if c) or (
        host.count("[") != host.count("]")
    ):
        raise StoreError(f"{printable(label)}: '{printable(host)}' is not a host name")
    if parsed.port is not None and not 0 < parsed.port < 65536:
        raise StoreError(f"{label}: port {parsed.port} is not a TCP port (1 to 65535)")
    _check_driver(parsed, label, backend.extra)
    database: Path | None = None
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        database = database_file(str(parsed.database), label)  # before SQLite can create it
    return text, label, database


def _check_driver(url: Any, label: str, extra: str) -> None:
    """The SDK's ``SQLAlchemySession`` needs an async driver that is installed."""
    from sqlalchemy.exc import NoSuchModuleError

    try:
        dialect = url.get_dialect()
    except NoSuchModuleError:
        raise StoreError(
            f"{label}: unknown scheme or driver {url.drivername!r} (a store is a SQLite file, "
            "an SQLAlchemy URL such as postgresql+asyncpg:// or mysql+asyncmy://, or redis://)"
        ) from None
    except ImportError as error:
        raise StoreError(
            f"{label}: driver {url.drivername!r} is not installed ({error}): install "
            f"approval-compaction[{extra}]"
        ) from None
    if not getattr(dialect, "is_async", False):
        raise StoreError(
            f"{label}: driver {url.drivername!r} is not async; SQLAlchemySession needs one "
            "such as postgresql+asyncpg, mysql+asyncmy or sqlite+aiosqlite"
        )


async def open_store(spec: StoreSpec, write: bool) -> SqlStore:
    """Connect and check the layout; a one-line ``StoreError`` for any problem, nothing written."""
    if spec.backend.file:
        return await _open_file(spec, write)
    from sqlalchemy import inspect
    from sqlalchemy.exc import SQLAlchemyError

    if write:
        refuse_unsound(spec)  # a sqlite+aiosqlite URL's file, before the engine opens it
    try:
        from agents.extensions.memory import SQLAlchemySession

        session = SQLAlchemySession.from_url("approval-compaction-doctor", url=spec.url)
        # The SDK's own table objects, so the store reads and writes exactly its columns.
        sessions, messages = (
            getattr(session, "_sessions", None),
            getattr(session, "_messages", None),
        )
        if sessions is None or messages is None:
            raise ValueError("this openai-agents release's SQLAlchemySession has no table objects")
    except (SQLAlchemyError, ImportError, ValueError, TypeError) as error:
        raise StoreError(f"cannot open {spec.label}: {one_line(error)}") from None
    if session.engine.dialect.name == "sqlite":
        _on_connect(session.engine)
    store = SqlStore(spec, session.engine, (sessions, messages, None), write, None)

    def columns(sync_conn: Any) -> dict[str, set[str]]:
        inspector = inspect(sync_conn)
        names = set(inspector.get_table_names())
        return {name: {c["name"] for c in inspector.get_columns(name)} for name in names
                if name in (SESSIONS_TABLE, MESSAGES_TABLE)}  # fmt: skip

    async with closing_on_error(store, f"cannot read {spec.label}"):
        async with asyncio.timeout(30):
            async with store.engine.connect() as conn:
                found = await conn.run_sync(columns)
        _check_columns(spec.label, found, False)
    return store
