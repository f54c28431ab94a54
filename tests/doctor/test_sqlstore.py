"""SQL stores: the layout check, the SDK's own classification, a file read in the SDK's order."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from approval_compaction.doctor import sqlstore
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
