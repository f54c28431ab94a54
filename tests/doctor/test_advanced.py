"""AdvancedSQLiteSession files (every branch judged, structure rows kept consistent, usage left
alone) and AsyncSQLiteSession files, written through the SDK's own classes."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from approval_compaction.doctor.repair import PREFIX, apply
from approval_compaction.doctor.restore import restore
from approval_compaction.doctor.scan import scan_store
from approval_compaction.doctor.sqlstore import _classify
from approval_compaction.doctor.verdict import POISONED
from approval_compaction.lab.stores import synthetic


def table(path: Path, name: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as conn:
        return list(conn.execute(f"SELECT * FROM {name} ORDER BY id"))


def branch_items(path: Path, session_id: str) -> dict[str, list[dict[str, Any]]]:
    from agents.extensions.memory import AdvancedSQLiteSession

    async def read() -> dict[str, list[dict[str, Any]]]:
        session = AdvancedSQLiteSession(session_id=session_id, db_path=str(path))
        try:
            names = sorted({b["branch_id"] for b in await session.list_branches()})
            return {b: [dict(i) for i in await session.get_items(branch_id=b)] for b in names}
        finally:
            session.close()

    return asyncio.run(read())


def test_every_branch_is_judged_repaired_and_restored(tmp_path: Path) -> None:
    path = tmp_path / "advanced.db"
    asyncio.run(synthetic.generate_advanced(str(path), 8, 12))
    with sqlite3.connect(path) as conn:  # usage the application recorded: never touched
        conn.execute("INSERT INTO turn_usage (session_id, branch_id, user_turn_number, requests,"
                     " input_tokens, output_tokens, total_tokens) VALUES"
                     " ('session-000001', 'main', 1, 1, 10, 5, 15)")  # fmt: skip
    reports = asyncio.run(scan_store(str(path)))
    poisoned = {(r.session_id, r.branch) for r in reports if r.verdict == POISONED}
    assert poisoned == {
        ("session-000001", "main"), ("session-000004", "main"), ("session-000007", "main"),
        ("session-000001", "from-turn-2"), ("session-000005", "from-turn-2"),
    }  # fmt: skip
    assert {r.branch for r in reports} == {"main", "from-turn-2"}
    messages, structure = table(path, "agent_messages"), table(path, "message_structure")
    usage = table(path, "turn_usage")
    before = {sid: branch_items(path, sid) for sid, _ in poisoned}

    result = asyncio.run(apply(str(path), tmp_path / "backup.jsonl"))
    assert result.count("repaired") == 4 and len(result.outcomes) == 4
    assert not [r for r in asyncio.run(scan_store(str(path))) if r.verdict == POISONED]
    rewritten = {c.row_id for o in result.outcomes for c in o.changes}
    for sid, branches in before.items():
        after = branch_items(path, sid)
        assert after.keys() == branches.keys()
        for name, items in branches.items():
            assert len(after[name]) == len(items)
            for old, new in zip(items, after[name], strict=True):
                assert new == old or (old["type"] == "function_call_output"
                                      and new["content"].startswith(PREFIX))  # fmt: skip
    data = {row[0]: row[2] for row in table(path, "agent_messages")}
    for row in table(path, "message_structure"):  # structure rows as the SDK classifies
        if row[2] in rewritten:
            import json

            assert (row[4], row[8]) == _classify(json.loads(data[row[2]])) == ("assistant", None)
    assert table(path, "turn_usage") == usage
    assert [r[0] for r in table(path, "message_structure")] == [r[0] for r in structure]

    assert {r.status for r in asyncio.run(restore(tmp_path / "backup.jsonl"))} == {"restored"}
    assert table(path, "agent_messages") == messages
    assert table(path, "message_structure") == structure
    assert table(path, "turn_usage") == usage


def test_async_sqlite_session_files_scan_repair_and_restore(tmp_path: Path) -> None:
    from agents.extensions.memory import AsyncSQLiteSession

    path = tmp_path / "async.db"
    sessions = list(synthetic.mixed_sessions(6, 8))

    async def write() -> None:
        for sid, verdict in sessions:
            session = AsyncSQLiteSession(sid, str(path))
            await session.add_items(synthetic.session_items(verdict, 8))  # type: ignore[arg-type]
            await session.close()

    async def read(sid: str) -> list[Any]:
        session = AsyncSQLiteSession(sid, str(path))
        try:
            return list(await session.get_items())
        finally:
            await session.close()

    asyncio.run(write())
    original = table(path, "agent_messages")
    verdicts = {r.session_id: r.verdict for r in asyncio.run(scan_store(str(path)))}
    assert verdicts == dict(sessions)
    result = asyncio.run(apply(str(path), tmp_path / "backup.jsonl"))
    assert result.count("repaired") == 2
    for sid, verdict in sessions:  # AsyncSQLiteSession reads the healed items
        items = asyncio.run(read(sid))
        healed = any(str(i.get("content", "")).startswith(PREFIX) for i in items)
        assert healed == (verdict == POISONED)
    asyncio.run(restore(tmp_path / "backup.jsonl"))
    assert table(path, "agent_messages") == original


def test_structure_rows_naming_another_session_are_read_as_the_sdk_reads_them(
    tmp_path: Path,
) -> None:
    """Issue 42: AdvancedSQLiteSession reads a branch by its messages' session (a join on the
    message id), whatever session its structure rows name; the scan required both to agree and
    missed a poisoned branch whose structure rows name another session."""
    path = tmp_path / "advanced.db"
    asyncio.run(synthetic.generate_advanced(str(path), 8, 12))
    with sqlite3.connect(path) as conn:
        conn.execute(
            "UPDATE message_structure SET session_id = 'elsewhere' "
            "WHERE session_id = 'session-000004'"
        )
    from agents.extensions.memory import AdvancedSQLiteSession

    async def main_branch() -> int:
        session = AdvancedSQLiteSession(session_id="session-000004", db_path=str(path))
        try:
            return len(await session.get_items(branch_id="main"))
        finally:
            session.close()

    assert asyncio.run(main_branch()) == 12  # the SDK still reads the branch
    reports = asyncio.run(scan_store(str(path), "session-000004"))
    assert [(r.branch, r.verdict) for r in reports] == [("main", POISONED)]
    structure = table(path, "message_structure")
    result = asyncio.run(apply(str(path), tmp_path / "backup.jsonl", "session-000004"))
    assert [o.status for o in result.outcomes] == ["repaired"]
    asyncio.run(restore(tmp_path / "backup.jsonl"))
    assert table(path, "message_structure") == structure
