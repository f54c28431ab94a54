"""SQL stores: the layout check, the SDK's own classification, a file read in the SDK's order."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from approval_compaction.doctor import sqlstore
from approval_compaction.doctor.status import AFFECTED
from approval_compaction.doctor.stores import StoreError, opened


def test_check_columns_names_the_missing_table_and_column() -> None:
    with pytest.raises(StoreError, match="no table agent_sessions"):
        sqlstore._check_columns("x.db", {}, advanced=False)
    found = {
        sqlstore.SESSIONS_TABLE: set(sqlstore.SESSION_COLUMNS),
        sqlstore.MESSAGES_TABLE: set(sqlstore.MESSAGE_COLUMNS) - {"message_data"},
    }
    with pytest.raises(StoreError, match="missing column message_data"):
        sqlstore._check_columns("x.db", found, advanced=False)
    found[sqlstore.MESSAGES_TABLE] = set(sqlstore.MESSAGE_COLUMNS)
    sqlstore._check_columns("x.db", found, advanced=False)  # the SDK's layout passes
    with pytest.raises(StoreError, match=f"no table {sqlstore.STRUCTURE_TABLE}"):
        sqlstore._check_columns("x.db", found, advanced=True)


def test_classify_is_the_advanced_sessions_own() -> None:
    call = {"type": "function_call", "name": "lookup", "call_id": "c1", "arguments": "{}"}
    assert sqlstore._classify(call) == ("function_call", "lookup")
    assert sqlstore._classify({"role": "user", "content": "hi"})[0] == "user"


def test_a_file_is_read_in_the_sdk_sessions_order(tmp_path: Path) -> None:
    from agents import SQLiteSession

    target = tmp_path / "app.db"

    async def run() -> list[object]:
        session = SQLiteSession("s", str(target))
        await session.add_items([{"role": "user", "content": str(n)} for n in range(3)])
        expected = await session.get_items()
        session.close()
        async with opened(str(target)) as store:
            [stored] = [s async for s in store.sessions()]
        assert [item for _, item in stored.readable()] == expected
        return expected

    assert len(asyncio.run(run())) == 3


def test_a_file_without_the_sdk_tables_is_one_line_and_unchanged(tmp_path: Path) -> None:
    target = tmp_path / "other.db"
    with sqlite3.connect(target) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
    before = target.read_bytes()

    async def run() -> None:
        async with opened(str(target), write=True):
            pass

    with pytest.raises(StoreError, match="not an SDK session store") as caught:
        asyncio.run(run())
    assert "\n" not in str(caught.value) and target.read_bytes() == before


ORPHAN = '{"type": "function_call_output", "call_id": "gone", "output": "42"}'


@pytest.mark.parametrize("backend", ["sqlite", "sqlite-url"])  # a server enforces the key
def test_rows_whose_session_row_is_missing_are_scanned_repaired_and_restored(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    backend: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 42: message rows whose agent_sessions row is missing are read by the SDK's
    get_items, but the scan joined from agent_sessions and never saw the poisoned session."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from approval_compaction.cli import main
    from approval_compaction.doctor.repair import apply
    from approval_compaction.doctor.restore import restore
    from approval_compaction.doctor.scan import scan_store
    from approval_compaction.lab.stores.synthetic import generate

    from .conftest import new_store

    name = new_store(request, tmp_path, backend.removesuffix("-url"))
    asyncio.run(generate(name, 2, 4, ("healthy",)))
    store = f"sqlite+aiosqlite:///{name}" if backend == "sqlite-url" else name
    url = name if "://" in name else f"sqlite+aiosqlite:///{name}"

    async def add_orphan() -> list[tuple[object, ...]]:
        engine = create_async_engine(url)
        async with engine.begin() as conn:
            await conn.execute(
                text("INSERT INTO agent_messages (session_id, message_data) VALUES ('lost', :d)"),
                {"d": ORPHAN},
            )
            found = await conn.execute(text("SELECT id, message_data FROM agent_messages"))
            rows = [tuple(r) for r in found]
        await engine.dispose()
        return rows

    before = asyncio.run(add_orphan())
    found = {r.session_id: r.verdict for r in asyncio.run(scan_store(store))}
    assert found["lost"] == "poisoned"
    assert [r.verdict for r in asyncio.run(scan_store(store, "lost"))] == ["poisoned"]
    assert main(["doctor", "scan", store, "--in-database", "--format", "json"]) == AFFECTED
    assert [r["session_id"] for r in json.loads(capsys.readouterr().out)] == ["lost"]
    result = asyncio.run(apply(store, tmp_path / "b.jsonl"))
    assert [(o.session_id, o.status) for o in result.outcomes] == [("lost", "repaired")]
    asyncio.run(restore(tmp_path / "b.jsonl", store))
    assert sorted(asyncio.run(add_orphan()))[: len(before)] == sorted(before)


ODD = [("text", "'{\"role\": \"user\", \"content\": \"q\"}'"), ("blob", "x'7b7d'"), ("int", "7"),
       ("real", "2.5"), ("null", "NULL"), ("rawtext", "CAST(x'ff7b' AS TEXT)")]  # fmt: skip


def _odd_store(path: Path) -> None:
    """A SQLite file the SDK reads whose message column has no type: any value stays as given."""
    with sqlite3.connect(path) as conn:
        conn.executescript(
            "CREATE TABLE agent_sessions (session_id TEXT PRIMARY KEY, created_at TEXT, "
            "updated_at TEXT);"
            "CREATE TABLE agent_messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, "
            "message_data, created_at);"
            "INSERT INTO agent_sessions (session_id) VALUES ('odd'), ('other');"
        )
        for _, value in ODD:
            conn.execute(
                f"INSERT INTO agent_messages (session_id, message_data, created_at) "
                f"VALUES ('odd', {value}, {value})"
            )
        conn.execute(
            f"INSERT INTO agent_messages (session_id, message_data) VALUES ('odd', '{ORPHAN}')"
        )
        conn.execute(
            "INSERT INTO agent_messages (session_id, message_data) "
            'VALUES (\'other\', \'{"role": "user", "content": "hi"}\')'
        )


def _cells(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT id, session_id, typeof(message_data), hex(message_data), typeof(created_at), "
            "hex(created_at) FROM agent_messages ORDER BY id"
        ).fetchall()


def test_a_backup_keeps_each_value_s_type_and_bytes_and_restore_puts_them_back(
    tmp_path: Path,
) -> None:
    """Issue 42: SQLite keeps blobs, integers, reals, NULL and text that is not UTF-8 where the
    SDK writes JSON text; a row that went through a backup did not always come back as it was."""
    from approval_compaction.doctor.repair import apply
    from approval_compaction.doctor.restore import restore

    store = tmp_path / "odd.db"
    _odd_store(store)
    before = _cells(store)
    assert {c[2] for c in before} == {"text", "blob", "integer", "real", "null"}
    result = asyncio.run(apply(str(store), tmp_path / "b.jsonl"))
    assert [(o.session_id, o.status) for o in result.outcomes] == [("odd", "repaired")]
    with sqlite3.connect(store) as conn:
        conn.execute("DELETE FROM agent_messages WHERE session_id = 'odd'")
    asyncio.run(restore(tmp_path / "b.jsonl", exact=True))
    assert _cells(store) == before


def test_a_row_that_is_not_utf8_is_reported_for_its_session_and_the_rest_are_scanned(
    tmp_path: Path,
) -> None:
    """Issue 42: one row SQLite could not hand over as text stopped the whole store's scan,
    --session-id for another session too."""
    from approval_compaction.doctor.scan import scan_store

    store = tmp_path / "odd.db"
    _odd_store(store)
    found = {r.session_id: (r.verdict, r.unreadable) for r in asyncio.run(scan_store(str(store)))}
    assert found == {"odd": ("poisoned", 3), "other": ("healthy", 0)}
    assert [r.verdict for r in asyncio.run(scan_store(str(store), "other"))] == ["healthy"]


def test_a_scan_of_a_wal_file_leaves_no_wal_or_shm_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 42: a read-only scan of a WAL-mode file created its -wal and -shm files (SQLite
    creates them for a mode=ro connection too, and only a writer's connection removes them)."""
    from approval_compaction.cli import main
    from approval_compaction.lab.stores.synthetic import generate

    store = tmp_path / "store.db"
    asyncio.run(generate(str(store), 3, 4))  # healthy, poisoned, pending: affected
    with sqlite3.connect(store) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store.db"]
    before = store.read_bytes()
    for argv in (
        ["scan", str(store)],
        ["scan", str(store), "--in-database"],
        ["repair", str(store)],
    ):
        assert main(["doctor", *argv]) == AFFECTED
        assert sorted(p.name for p in tmp_path.iterdir()) == ["store.db"], argv
    assert store.read_bytes() == before
    app = sqlite3.connect(store)  # the application has it open: its files are its own
    app.execute("SELECT 1 FROM agent_messages").fetchall()
    assert main(["doctor", "scan", str(store)]) == AFFECTED
    assert "3 sessions" in capsys.readouterr().out
    app.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store.db"]


def test_a_store_given_as_a_symbolic_link_is_backed_up_beside_the_link(tmp_path: Path) -> None:
    """Issue 42: the default backup of a store given as a symbolic link went beside the link's
    target, a folder the operator did not name."""
    from approval_compaction.doctor.repair import default_backup
    from approval_compaction.lab.stores.synthetic import generate

    (tmp_path / "data").mkdir()
    (tmp_path / "app").mkdir()
    target, link = tmp_path / "data" / "store.db", tmp_path / "app" / "current.db"
    asyncio.run(generate(str(target), 3, 4))
    link.symlink_to(target)
    found = default_backup(str(link), "STAMP")
    assert found == tmp_path / "app" / "current.db.doctor-backup-STAMP.jsonl"


def test_a_row_of_json_that_is_not_an_object_does_not_stop_a_repair(tmp_path: Path) -> None:
    """Issue 42, found by the store fuzzer: the SDK's get_items returns a row holding ``7`` as
    the integer 7, and reading a repaired session back through it ended in a TypeError."""
    from approval_compaction.doctor.repair import apply

    store = tmp_path / "odd.db"
    _odd_store(store)
    with sqlite3.connect(store) as conn:
        conn.execute("INSERT INTO agent_messages (session_id, message_data) VALUES ('odd', '7')")
        conn.execute("DELETE FROM agent_messages WHERE typeof(message_data) = 'text' "
                     "AND CAST(message_data AS BLOB) = x'ff7b'")  # fmt: skip
    result = asyncio.run(apply(str(store), tmp_path / "b.jsonl"))
    assert [(o.session_id, o.status) for o in result.outcomes] == [("odd", "repaired")]


def test_a_null_row_the_sdk_cannot_read_does_not_stop_a_repair_of_a_url_store(
    tmp_path: Path,
) -> None:
    """Issue 42, found by the store fuzzer: SQLAlchemySession's get_items raises a TypeError on
    a NULL row, and reading a repaired session back through it ended in that traceback."""
    from approval_compaction.doctor.repair import apply

    store = tmp_path / "odd.db"
    _odd_store(store)
    with sqlite3.connect(store) as conn:
        conn.execute("DELETE FROM agent_messages WHERE typeof(message_data) = 'text' "
                     "AND CAST(message_data AS BLOB) = x'ff7b'")  # fmt: skip
    result = asyncio.run(apply(f"sqlite+aiosqlite:///{store}", tmp_path / "b.jsonl"))
    assert [(o.session_id, o.status) for o in result.outcomes] == [("odd", "repaired")]
