"""Store fuzzer: SQLite stores built at random, and the doctor's three promises checked on each.

A case (``StoreCase``) is data: the message table's declared column types, the journal mode,
which sessions have an ``agent_sessions`` row, the message rows in insertion order (items of
each kind pairing reads, and values the SDK does not write but reads or skips: blobs, integers,
reals, NULL, text that is not UTF-8 or not JSON), session and call ids with control characters,
whether another connection holds the write lock during the repair, and a write failure to
inject in one session (a trigger's refusal, or a full disk). ``run_case`` builds the store in a
folder, runs ``scan``, ``repair --apply`` and ``restore``, and returns each promise it saw
broken (none: an empty list):

- **no traceback**: every step ends with an exit status, or in one ``error:`` line, and what
  it prints holds no control character;
- **nothing the SDK reads is lost**: the scan reports every session that has message rows, and
  after the repair the SDK's ``SQLiteSession`` reads as many items of each session as before;
- **every changed session restorable byte for byte**: after ``doctor restore`` every message
  row's id, session, value and time are back, type and bytes.

The store is named as a file path, or as ``SQLAlchemySession`` names it (a ``sqlite+aiosqlite``
URL). ``store_cases`` is the hypothesis strategy; ``tests/doctor/test_fuzz.py`` runs it in the full
tier and ``benchmarks/doctor_fuzz.py`` measures it.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from ..cli import main
from ..doctor import repair, status, stores
from ..errors import InvestigationError

KINDS = ("user", "call", "output", "compaction", "assistant", "blob", "int", "real", "null",
         "rawtext", "notjson")  # fmt: skip
FAILURES = (None, "trigger", "full")
ID_CHARS = "ab1é\x1b\r\n\t\x07"
FUZZ_LOCK_WAIT = 0.05  # seconds a write waits for the held lock (the doctor's default is 5)
# The statuses that end a step in one error line; healthy, healed and affected say what was found.
FAILED = (status.ERROR, status.LOCKED, status.FULL, status.REFUSED)


@dataclass(frozen=True)
class StoreCase:
    """One generated store, and what happens around its repair."""

    message_type: str  # the message_data column's declared type ("" for none)
    created_type: str
    wal: bool
    session_ids: tuple[str, ...]
    with_row: tuple[bool, ...]  # whether each session has its agent_sessions row
    rows: tuple[tuple[int, str, str, int], ...]  # (session index, kind, call id, created_at kind)
    lock: bool
    failure: str | None
    failing: int  # the session index the failure hits
    url: bool = False  # named as SQLAlchemySession names it (sqlite+aiosqlite:///), not a path

    def store(self, path: Path) -> str:
        """The store string the doctor is given."""
        return f"sqlite+aiosqlite:///{path}" if self.url else str(path)


@st.composite
def store_cases(draw: Callable[..., Any]) -> StoreCase:
    """Random stores, as the hypothesis strategy of ``StoreCase``."""
    ids = draw(st.lists(st.text(ID_CHARS, min_size=1, max_size=4), min_size=1, max_size=4,
                        unique=True))  # fmt: skip
    count = len(ids)
    row = st.tuples(st.integers(0, count - 1), st.sampled_from(KINDS),
                    st.sampled_from(("c1", "c2", "c\x1b")), st.integers(0, 2))  # fmt: skip
    return StoreCase(
        draw(st.sampled_from(("TEXT", "", "BLOB"))),
        draw(st.sampled_from(("TEXT", ""))),
        draw(st.booleans()),
        tuple(ids),
        tuple(draw(st.lists(st.booleans(), min_size=count, max_size=count))),
        tuple(draw(st.lists(row, max_size=12))),
        draw(st.booleans()),
        draw(st.sampled_from(FAILURES)),
        draw(st.integers(0, count - 1)),
        draw(st.booleans()),
    )


def _value(kind: str, call_id: str) -> tuple[str, Any]:
    """The SQL placeholder and the value of one row of ``kind``."""
    items = {
        "user": {"role": "user", "content": "q"},
        "assistant": {"role": "assistant", "content": "a"},
        "call": {"type": "function_call", "call_id": call_id, "name": "t", "arguments": "{}"},
        "output": {"type": "function_call_output", "call_id": call_id, "output": "o"},
        "compaction": {"type": "compaction", "id": "k", "encrypted_content": "s"},
    }
    if kind in items:
        return "?", json.dumps(items[kind])
    raw: dict[str, Any] = {"blob": json.dumps(items["user"]).encode(), "int": 7, "real": 2.5,
                           "null": None, "rawtext": b"\xff{", "notjson": "not json"}  # fmt: skip
    return ("CAST(? AS TEXT)" if kind == "rawtext" else "?"), raw[kind]


def build(case: StoreCase, path: Path) -> None:
    """Write the case's store at ``path``."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute(f"PRAGMA journal_mode = {'WAL' if case.wal else 'DELETE'}")
        conn.execute(
            "CREATE TABLE agent_sessions (session_id TEXT PRIMARY KEY, "
            "created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP)"
        )
        conn.execute(
            f"CREATE TABLE agent_messages (id INTEGER PRIMARY KEY AUTOINCREMENT, "
            f"session_id TEXT, message_data {case.message_type}, created_at {case.created_type})"
        )
        for sid, present in zip(case.session_ids, case.with_row, strict=True):
            if present:
                conn.execute("INSERT INTO agent_sessions (session_id) VALUES (?)", (sid,))
        created = ("2026-01-01 00:00:00", 5, None)
        for index, kind, call_id, when in case.rows:
            mark, value = _value(kind, call_id)
            conn.execute(
                f"INSERT INTO agent_messages (session_id, message_data, created_at) "
                f"VALUES (?, {mark}, ?)",
                (case.session_ids[index], value, created[when]),
            )
        if case.failure == "trigger":
            target = _quote(case.session_ids[case.failing])
            conn.execute(
                f"CREATE TRIGGER refuse BEFORE UPDATE ON agent_messages WHEN OLD.session_id = "
                f"{target} BEGIN SELECT RAISE(ABORT, 'refused'); END"
            )
    finally:
        conn.close()


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def cells(path: Path) -> list[tuple[Any, ...]]:
    """Every message row's id, session, value and time, each with its SQLite type."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return conn.execute(
            "SELECT id, hex(session_id), typeof(message_data), hex(message_data), "
            "typeof(created_at), hex(created_at) FROM agent_messages ORDER BY id"
        ).fetchall()


def sdk_reads(path: Path, session_ids: Sequence[str]) -> dict[str, int | str]:
    """How many items the SDK's ``SQLiteSession`` reads of each session (or its error)."""
    from agents import SQLiteSession

    found: dict[str, int | str] = {}
    for sid in session_ids:
        session = SQLiteSession(sid, str(path))
        try:
            found[sid] = len(asyncio.run(session.get_items()))
        except sqlite3.Error as error:  # the SDK cannot read it (text that is not UTF-8)
            found[sid] = type(error).__name__
        finally:
            session.close()
    return found


def _cli(argv: list[str], problems: list[str], step: str) -> tuple[int, str]:
    """Run the command line in-process: its exit status and output, and what broke a promise."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except Exception as error:  # the promise broken: anything that is not one line
        problems.append(f"{step}: traceback: {type(error).__name__}: {error}")
        return -1, ""
    _one_line(step, code, out.getvalue(), err.getvalue(), problems)
    return code, out.getvalue()


def _one_line(step: str, code: int, out: str, err: str, problems: list[str]) -> None:
    if any(not c.isprintable() for c in out.replace("\n", "") + err.replace("\n", "")):
        problems.append(f"{step}: a control character reached the terminal")
    if code in FAILED and len(err.splitlines()) != 1:
        problems.append(f"{step}: exit {code} without one error line: {err!r}")


@contextlib.contextmanager
def short_lock_wait() -> Iterator[None]:
    """The doctor waits ``FUZZ_LOCK_WAIT`` for a held lock while the block runs."""
    saved, stores.LOCK_WAIT = stores.LOCK_WAIT, FUZZ_LOCK_WAIT
    try:
        yield
    finally:
        stores.LOCK_WAIT = saved


def run_case(case: StoreCase, folder: Path) -> list[str]:
    """Build the case's store in ``folder``, scan, repair and restore it; the broken promises."""
    with short_lock_wait():
        return _run(case, folder)


def _run(case: StoreCase, folder: Path) -> list[str]:
    path, backup = folder / "store.db", folder / "b.jsonl"
    problems: list[str] = []
    build(case, path)
    with_rows = sorted({case.session_ids[index] for index, *_ in case.rows})
    before, read_before = cells(path), sdk_reads(path, with_rows)
    code, out = _cli(["doctor", "scan", case.store(path), "--format", "json"], problems, "scan")
    if code in (status.HEALTHY, status.AFFECTED):  # the verdicts were written
        seen = {row["session_id"] for row in json.loads(out)}
        problems += [f"scan: session {sid!r} the SDK reads is not reported"
                     for sid in with_rows if sid not in seen]  # fmt: skip
    _cli(["doctor", "scan", case.store(path)], problems, "scan table")
    problems += _repair(case, path, backup)
    read_after = sdk_reads(path, with_rows)
    problems += [f"repair: the SDK reads {read_after[sid]} items of {sid!r}, {n} before"
                 for sid, n in read_before.items() if read_after[sid] != n]  # fmt: skip
    if backup.exists():
        code, _ = _cli(["doctor", "restore", str(backup)], problems, "restore")
        if code != 0:
            problems.append(f"restore: exit {code}")
    if cells(path) != before:
        problems.append("restore: the rows are not back byte for byte")
    problems += [f"left behind: {p.name}" for p in folder.iterdir() if p.name.startswith(".")]
    return problems


def _repair(case: StoreCase, path: Path, backup: Path) -> list[str]:
    """``repair --apply`` with the case's lock held and its failure injected."""
    from sqlalchemy.exc import OperationalError

    def full(session_id: str) -> None:
        if case.failure == "full" and session_id == case.session_ids[case.failing]:
            raise OperationalError(
                "UPDATE", {}, sqlite3.OperationalError("database or disk is full")
            )

    holder = sqlite3.connect(path, isolation_level=None) if case.lock else None
    if holder is not None:
        holder.execute("BEGIN IMMEDIATE")
    try:
        asyncio.run(repair.apply(case.store(path), backup, fail_after=full))
    except InvestigationError as error:
        problems = [] if "\n" not in str(error) else [f"repair: not one line: {error!r}"]
        if case.lock and isinstance(error, stores.StoreLocked):
            return problems
        if case.failure and isinstance(error, stores.WriteStopped):
            return problems
        return [*problems, f"repair: unexpected error: {error}"]
    except Exception as error:  # the promise broken: anything that is not one line
        return [f"repair: traceback: {type(error).__name__}: {error}"]
    finally:
        if holder is not None:
            holder.execute("ROLLBACK")
            holder.close()
    return []
