"""The doctor command line: scan formats, a dry run, apply, restore, and one-line errors."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from pathlib import Path

import pytest

from approval_compaction.cli import main
from approval_compaction.lab.stores.synthetic import app_session, close_app_session, generate


@pytest.fixture
def store(tmp_path: Path) -> Path:
    target = tmp_path / "store.db"
    asyncio.run(generate(str(target), 3, 6))
    return target


def test_scan_formats(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "scan", str(store), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["verdict"] for r in rows] == ["healthy", "poisoned", "pending"]
    assert main(["doctor", "scan", str(store), "--format", "csv"]) == 0
    assert len(list(csv.DictReader(io.StringIO(capsys.readouterr().out)))) == 3
    assert main(["doctor", "scan", str(store), "--session-id", "session-000001"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert (
        "poisoned" in out[1] and out[-1] == "1 session: 0 healthy, 1 poisoned, 0 stuck, 0 pending"
    )


def test_repair_dry_run_then_apply_then_restore(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = store.read_bytes()
    assert main(["doctor", "repair", str(store)]) == 0
    assert "would repair" in capsys.readouterr().out and store.read_bytes() == before
    backup = tmp_path / "b.jsonl"
    assert main(["doctor", "repair", str(store), "--apply", "--backup", str(backup)]) == 0
    assert "1 repaired" in capsys.readouterr().out
    assert main(["doctor", "restore", str(backup)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 of 1 sessions as backed up"


def test_errors_are_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "scan", str(tmp_path / "none.db")]) == 2
    assert main(["doctor", "restore", str(tmp_path / "none.jsonl")]) == 2
    assert main(["doctor", "check", "--mode", "sideways"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3 and all(line.startswith("error: ") for line in lines)
    assert list(tmp_path.iterdir()) == []


def test_sql_prints_the_query_and_scan_in_database_runs_it(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for dialect in ("sqlite", "postgresql", "mysql"):
        assert main(["doctor", "sql", "--dialect", dialect]) == 0
        assert capsys.readouterr().out.startswith(
            "-- approval-compaction doctor: poisoned and stuck"
        )
    assert main(["doctor", "sql", "--dialect", "mysql", "--branches"]) == 2
    assert main(["doctor", "scan", str(store), "--in-database", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed == [
        {
            "session_id": "session-000001",
            "verdict": "poisoned",
            "orphan_outputs": 1,
            "dead_calls": 0,
        }
    ]
    assert main(["doctor", "scan", str(store), "--in-database"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("1 session to repair: 1 poisoned, 0 stuck ")


def test_every_form_names_an_abandoned_mcp_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real run's store with a hosted MCP approval nobody decided: ``doctor scan`` calls it
    stuck and names the request, the in-database scan lists it, the dry run rewrites the
    request, and ``--apply`` then ``restore`` undo each other."""
    from approval_compaction.fix.edge_cases import MCP_REQUEST, MCP_REQUEST_ID

    from .test_stuck import abandoned_mcp_store

    store = tmp_path / "mcp.db"
    abandoned_mcp_store(store)
    assert main(["doctor", "scan", str(store), "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["verdict"], row["open_calls"]) == ("stuck", MCP_REQUEST_ID)
    assert row["note"].startswith(f"unanswered MCP approval request {MCP_REQUEST_ID} ")
    assert main(["doctor", "scan", str(store), "--in-database", "--format", "json"]) == 0
    (listed,) = json.loads(capsys.readouterr().out)
    assert (listed["verdict"], listed["orphan_outputs"], listed["dead_calls"]) == ("stuck", 0, 1)
    assert main(["doctor", "repair", str(store)]) == 0
    out = capsys.readouterr().out
    assert f"mcp_approval_request {MCP_REQUEST_ID}" in out
    assert f"The MCP approval request {MCP_REQUEST_ID} ({MCP_REQUEST['server_label']}" in out
    last = "dry run: 1 session to repair (poisoned or stuck); pass --apply to repair"
    assert out.splitlines()[-1] == last
    backup = tmp_path / "b.jsonl"
    assert main(["doctor", "repair", str(store), "--apply", "--backup", str(backup)]) == 0
    assert "1 repaired" in capsys.readouterr().out
    assert main(["doctor", "scan", str(store), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["verdict"] == "healthy"
    assert main(["doctor", "restore", str(backup)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 of 1 sessions as backed up"
    assert main(["doctor", "scan", str(store), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["verdict"] == "stuck"


def test_scan_calls_a_session_with_items_under_another_key_unreadable_and_says_what_ttl_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression for issue 33: items under a second key were shown ``healthy`` (0 items,
    3 unreadable), and ``--ttl`` said nothing of what it left out."""
    key, second = "q2H3pO4J0m3S6u7Yc8bC9dE0fG1hI2jK3lM4nO5pQ6r=", "x" * 43 + "="
    target = tmp_path / "sealed.db"
    asyncio.run(generate(str(target), 3, 6, ("healthy",), key=key))

    async def append_under_second_key() -> None:
        session = app_session(str(target), "session-000002", second)
        try:
            await session.add_items([{"role": "user", "content": "sealed elsewhere"}] * 3)
        finally:
            await close_app_session(session)

    asyncio.run(append_under_second_key())
    monkeypatch.setenv("SESSION_ENCRYPTION_KEY", key)
    assert main(["doctor", "scan", str(target), "--format", "json", "--ttl", "3600"]) == 0
    captured = capsys.readouterr()
    rows = {r["session_id"]: r for r in json.loads(captured.out)}
    assert (rows["session-000002"]["verdict"], rows["session-000002"]["unreadable"]) == (
        "unreadable", 3
    )  # fmt: skip
    assert {rows[s]["verdict"] for s in ("session-000000", "session-000001")} == {"healthy"}
    assert captured.err.splitlines() == [
        "--ttl 3600 left out 0 items older than 3600 s, as EncryptedSession with this ttl "
        "skips them (they count in no column)"
    ]
    with pytest.raises(SystemExit) as stop:
        main(["doctor", "scan", str(target), "--ttl", "0"])
    assert stop.value.code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: argument --ttl: 0 is not a number of seconds (at least 1)")


def test_scan_judges_every_other_session_past_a_row_nested_5000_deep(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression for issue 33: one such row aborted the whole scan (exit 2)."""
    import sqlite3

    deep = '{"type": "message", "content": ' + "[" * 5000 + "]" * 5000 + "}"
    with sqlite3.connect(store) as conn:
        row = ("session-000000", deep)
        conn.execute("INSERT INTO agent_messages (session_id, message_data) VALUES (?, ?)", row)
    assert main(["doctor", "scan", str(store), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["verdict"], r["unreadable"]) for r in rows] == [
        ("unreadable", 1), ("poisoned", 0), ("pending", 0)
    ]  # fmt: skip
