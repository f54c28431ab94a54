"""The doctor command line: scan formats, a dry run, apply, restore, and one-line errors."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from approval_compaction.cli import main
from approval_compaction.doctor.status import AFFECTED, FULL, HEALED, HEALTHY, LOCKED, REFUSED
from approval_compaction.lab.stores.synthetic import app_session, close_app_session, generate


@pytest.fixture
def store(tmp_path: Path) -> Path:
    target = tmp_path / "store.db"
    asyncio.run(generate(str(target), 3, 6))
    return target


def test_scan_formats(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A store with a poisoned session is affected in every format (issue 60: a CI job gates
    on the status); one healthy session alone is healthy."""
    assert main(["doctor", "scan", str(store), "--format", "json"]) == AFFECTED
    rows = json.loads(capsys.readouterr().out)
    assert [r["verdict"] for r in rows] == ["healthy", "poisoned", "pending"]
    assert main(["doctor", "scan", str(store), "--format", "csv"]) == AFFECTED
    assert len(list(csv.DictReader(io.StringIO(capsys.readouterr().out)))) == 3
    assert main(["doctor", "scan", str(store), "--session-id", "session-000001"]) == AFFECTED
    out = capsys.readouterr().out.splitlines()
    assert (
        "poisoned" in out[1] and out[-1] == "1 session: 0 healthy, 1 poisoned, 0 stuck, 0 pending"
    )
    for healthy in ("session-000000", "session-000002"):  # healthy, and pending (may wait)
        assert main(["doctor", "scan", str(store), "--session-id", healthy]) == HEALTHY


def test_repair_dry_run_then_apply_then_restore(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = store.read_bytes()
    assert main(["doctor", "repair", str(store)]) == AFFECTED
    assert "would repair" in capsys.readouterr().out and store.read_bytes() == before
    backup = tmp_path / "b.jsonl"
    assert main(["doctor", "repair", str(store), "--apply", "--backup", str(backup)]) == HEALED
    assert "1 repaired" in capsys.readouterr().out
    assert main(["doctor", "scan", str(store)]) == HEALTHY
    again = tmp_path / "again.jsonl"
    assert main(["doctor", "repair", str(store), "--apply", "--backup", str(again)]) == HEALTHY
    assert main(["doctor", "restore", str(backup)]) == HEALTHY
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
    assert main(["doctor", "scan", str(store), "--in-database", "--format", "json"]) == AFFECTED
    listed = json.loads(capsys.readouterr().out)
    assert listed == [
        {
            "session_id": "session-000001",
            "verdict": "poisoned",
            "orphan_outputs": 1,
            "dead_calls": 0,
        }
    ]
    assert main(["doctor", "scan", str(store), "--in-database"]) == AFFECTED
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("1 session to repair: 1 poisoned, 0 stuck ")


def test_every_form_names_an_abandoned_mcp_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real run's store with a hosted MCP approval nobody decided: ``doctor scan`` calls it
    stuck and names the request, the in-database scan lists it, the dry run rewrites the
    request, and ``--apply`` then ``restore`` undo each other."""
    from approval_compaction.openai_agents.harness import MCP_REQUEST, MCP_REQUEST_ID

    from .test_stuck import abandoned_mcp_store

    store = tmp_path / "mcp.db"
    abandoned_mcp_store(store)
    assert main(["doctor", "scan", str(store), "--format", "json"]) == AFFECTED
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["verdict"], row["open_calls"]) == ("stuck", MCP_REQUEST_ID)
    assert row["note"].startswith(f"unanswered MCP approval request {MCP_REQUEST_ID} ")
    assert main(["doctor", "scan", str(store), "--in-database", "--format", "json"]) == AFFECTED
    (listed,) = json.loads(capsys.readouterr().out)
    assert (listed["verdict"], listed["orphan_outputs"], listed["dead_calls"]) == ("stuck", 0, 1)
    assert main(["doctor", "repair", str(store)]) == AFFECTED
    out = capsys.readouterr().out
    assert f"mcp_approval_request {MCP_REQUEST_ID}" in out
    assert f"The MCP approval request {MCP_REQUEST_ID} ({MCP_REQUEST['server_label']}" in out
    last = "dry run: 1 session to repair (poisoned or stuck); pass --apply to repair"
    assert out.splitlines()[-1] == last
    backup = tmp_path / "b.jsonl"
    assert main(["doctor", "repair", str(store), "--apply", "--backup", str(backup)]) == HEALED
    assert "1 repaired" in capsys.readouterr().out
    assert main(["doctor", "scan", str(store), "--format", "json"]) == HEALTHY
    assert json.loads(capsys.readouterr().out)[0]["verdict"] == "healthy"
    assert main(["doctor", "restore", str(backup)]) == HEALTHY
    assert capsys.readouterr().out.splitlines()[-1] == "1 of 1 sessions as backed up"
    assert main(["doctor", "scan", str(store), "--format", "json"]) == AFFECTED
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
    assert main(["doctor", "scan", str(target), "--format", "json", "--ttl", "3600"]) == AFFECTED
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
    assert main(["doctor", "scan", str(store), "--format", "json"]) == AFFECTED
    rows = json.loads(capsys.readouterr().out)
    assert [(r["verdict"], r["unreadable"]) for r in rows] == [
        ("unreadable", 1), ("poisoned", 0), ("pending", 0)
    ]  # fmt: skip


def _stopped(
    argv: list[str], capsys: pytest.CaptureFixture[str], code: int, folder: Path
) -> tuple[str, str]:
    """Run a command the store stops: its exit status, one error line, no temporary file."""
    assert main(argv) == code
    out, err = capsys.readouterr()
    assert len(err.splitlines()) == 1 and err.startswith("error: ")
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]
    return out, err


def test_a_lock_held_by_the_application_stops_the_repair_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 42: a store whose write lock another process held ended ``repair --apply`` in a
    139-line ``database is locked`` traceback after about 5 s, after the backup was written."""
    store = tmp_path / "store.db"
    asyncio.run(generate(str(store), 6, 6))
    holder = sqlite3.connect(store, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # the application, mid-transaction
    try:
        backup = tmp_path / "b.jsonl"
        argv = ["doctor", "repair", str(store), "--apply", "--backup", str(backup)]
        _, err = _stopped(argv, capsys, LOCKED, tmp_path)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "locked by another writer: waited 5 s" in err
    assert f"no session repaired before it; the store is as it was (backup: {backup})" in err


def test_a_write_the_store_refuses_ends_on_what_was_repaired_and_its_backup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 42: a write the database refused mid-repair (here a trigger) was a traceback, with
    no summary of the sessions repaired before it and a temporary file beside the store."""
    store = tmp_path / "store.db"
    asyncio.run(generate(str(store), 6, 6))  # session-000001 and session-000004 are poisoned
    with sqlite3.connect(store) as conn:
        conn.execute(
            "CREATE TRIGGER archive BEFORE UPDATE ON agent_messages "
            "WHEN OLD.session_id = 'session-000004' BEGIN SELECT RAISE(ABORT, 'archived'); END"
        )
    rows = "SELECT id, message_data FROM agent_messages ORDER BY id"
    with sqlite3.connect(store) as conn:
        before = conn.execute(rows).fetchall()
    backup = tmp_path / "b.jsonl"
    argv = ["doctor", "repair", str(store), "--apply", "--backup", str(backup)]
    out, err = _stopped(argv, capsys, REFUSED, tmp_path)
    assert "refused the write of session session-000004: (sqlite3.IntegrityError) archived" in err
    assert err.rstrip().endswith(
        f"1 session repaired before it (session-000001); doctor restore {backup} undoes them"
    )
    assert out.startswith("session-000001  repaired")
    assert main(["doctor", "restore", str(backup)]) == HEALTHY  # undoes what was done
    assert capsys.readouterr().out.splitlines()[-1] == "2 of 2 sessions as backed up"
    with sqlite3.connect(store) as conn:
        assert conn.execute(rows).fetchall() == before


def test_a_full_disk_mid_repair_is_one_line_exit_5(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 42: a full disk after the backup fits was a traceback, not a line and a summary."""
    from sqlalchemy.exc import OperationalError

    from approval_compaction.doctor import repair
    from approval_compaction.doctor.stores import DiskFull

    store = tmp_path / "store.db"
    asyncio.run(generate(str(store), 6, 6))

    def full(session_id: str) -> None:
        if session_id == "session-000004":  # what SQLite answers when a page cannot be written
            raise OperationalError(
                "UPDATE", {}, sqlite3.OperationalError("database or disk is full")
            )

    with pytest.raises(DiskFull) as stop:
        asyncio.run(repair.apply(str(store), tmp_path / "b.jsonl", fail_after=full))
    assert stop.value.exit_code == FULL and len(str(stop.value).splitlines()) == 1
    assert "is full: the write of session session-000004 failed" in str(stop.value)
    assert "1 session repaired before it (session-000001)" in str(stop.value)


FORGED = "s\x1b[2J\rforged\n0 poisoned\x07"


def test_stored_text_reaches_the_terminal_escaped_in_every_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 42: session ids and other stored text were printed raw in scan tables, so control
    characters in a stored id could rewrite the operator's terminal and forge lines."""
    from approval_compaction.lab.stores.synthetic import write_sessions

    store = tmp_path / "store.db"
    orphan = {"type": "function_call_output", "call_id": "c\x1b]0;x\x07", "output": "o\r\x1b[1A"}
    asyncio.run(write_sessions(str(store), iter([(FORGED, [orphan])])))
    backup = tmp_path / "b.jsonl"
    runs = [
        (["doctor", "scan", str(store)], 3),
        (["doctor", "scan", str(store), "--format", "csv"], 2),
        (["doctor", "repair", str(store)], 4),
        (["doctor", "repair", str(store), "--apply", "--backup", str(backup)], 4),
        (["doctor", "restore", str(backup)], 2),
    ]
    for argv, lines in runs:
        main(argv)
        out = capsys.readouterr().out
        assert out.count("\n") == lines, argv
        assert all(c.isprintable() for c in out.replace("\n", "")), argv
        assert "s\\x1b[2J\\rforged\\n0 poisoned\\x07" in out, argv


def test_a_lock_held_during_a_restore_stops_it_in_one_line_saying_what_was_restored(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 42: a lock the application held during a write was a traceback; for a restore it
    is one line that says how many sessions were put back before it, exit 3."""
    from approval_compaction.doctor import stores

    backup = tmp_path / "b.jsonl"
    assert main(["doctor", "repair", str(store), "--apply", "--backup", str(backup)]) == HEALED
    capsys.readouterr()
    monkeypatch.setattr(stores, "LOCK_WAIT", 0.2)
    holder = sqlite3.connect(store, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        _, err = _stopped(["doctor", "restore", str(backup)], capsys, LOCKED, tmp_path)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "waited 0.2 s for the write lock" in err
    assert err.rstrip().endswith(
        "0 of 1 sessions restored before it; run the restore again to finish"
    )
    assert main(["doctor", "restore", str(backup)]) == HEALTHY


def test_doctor_check_json_rows_and_table_answer(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["doctor", "check", "--mode", "input", "--trigger", "always", "--turns", "1"]
    assert main([*args, "--later", "2", "--format", "json"]) == AFFECTED
    found = json.loads(capsys.readouterr().out)
    rows = found["rows"]
    assert [(r["prior_turns"], r["next_turn"]) for r in rows] == [(0, "rejected"), (1, "rejected")]
    liveness = {(r["prior_turns"], r["invariant"]): r for r in found["liveness"]}
    assert sorted(liveness) == [
        (p, name) for p in (0, 1) for name in ("compaction_runs", "history_bounded")
    ]
    assert all(r["turns"] == 2 for r in liveness.values())
    assert len(found["answers"]) == 2 and "later turns" in found["answers"][1]
    assert main([*args, "--later", "2"]) == AFFECTED
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[0] == "prior_turns" and len(lines) == 5
    assert "affected at 2 of 2 pause positions" in lines[-2]
    assert "each pause position continued for 2 later turns" in lines[-1]
    holds = all(r["holds"] for r in liveness.values())
    assert ("keep compacting" in lines[-1]) == holds


def test_doctor_check_negative_turns_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "check", "--turns", "-1"]) == 2
    assert capsys.readouterr().err == "error: --turns must be 0 or more\n"
    assert main(["doctor", "check", "--later", "-1"]) == 2
    assert capsys.readouterr().err == "error: --later must be 0 or more\n"


def test_doctor_check_response_store_false_moves_the_400_from_the_pause(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``auto`` with the store unset: the pause is refused; with ``store=False``: it pauses, and
    the next turn sends the decision's output without its call."""
    args = ["doctor", "check", "--mode", "auto", "--trigger", "always", "--turns", "0"]
    rows = {}
    for word in ("default", "false"):
        code = main([*args, "--later", "0", "--format", "json", "--response-store", word])
        assert code == AFFECTED
        (rows[word],) = json.loads(capsys.readouterr().out)["rows"]
    assert rows["default"]["at_pause"].startswith("HTTP 400: No tool output found")
    assert (rows["false"]["at_pause"], rows["false"]["next_turn"]) == ("paused", "rejected")
