"""Soundness (``Store.soundness``, SQLite's ``quick_check``): the doctor writes nothing on a
damaged store. Regression for issue 33: with one page overwritten, ``doctor scan`` exited 0
without a word, ``repair --apply`` rewrote 20 of 25 sessions before a 141-line traceback, and
``restore`` crashed the same way."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

import pytest

from approval_compaction.cli import main
from approval_compaction.doctor.repair import apply
from approval_compaction.doctor.status import AFFECTED, HEALTHY
from approval_compaction.doctor.stores import UnsoundStore
from approval_compaction.lab.stores.synthetic import generate


def quick_check(path: Path) -> list[str]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        try:
            return [str(row[0]) for row in conn.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as error:
            return [str(error)]


def scan_reads(path: Path) -> bool:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        try:
            conn.execute(
                "SELECT s.session_id, m.id, m.message_data FROM agent_sessions s LEFT JOIN "
                "agent_messages m ON m.session_id = s.session_id ORDER BY s.session_id, m.id"
            ).fetchall()
        except sqlite3.DatabaseError:
            return False
    return True


def damaged(source: Path, target: Path, readable: bool) -> Path:
    """A copy of ``source`` with one page zeroed, its header intact, that fails quick_check and
    that the scan's query can (``readable``) or cannot read."""
    size = source.stat().st_size
    for page in range(2, size // 4096):
        shutil.copy(source, target)
        with target.open("r+b") as handle:
            handle.seek(page * 4096)
            handle.write(bytes(4096))
        if quick_check(target) != ["ok"] and scan_reads(target) == readable:
            return target
    pytest.fail(f"no page of {source} gives that damage")


@pytest.fixture
def store(tmp_path: Path) -> Path:
    target = tmp_path / "store.db"
    asyncio.run(generate(str(target), 25, 40))
    return target


@pytest.mark.parametrize("readable", [True, False], ids=["scan-reads-it", "scan-fails-on-it"])
def test_repair_and_restore_refuse_a_damaged_file_and_write_nothing(
    store: Path, tmp_path: Path, readable: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    backup = tmp_path / "backup.jsonl"
    asyncio.run(apply(str(store), backup))  # a sound store's backup, to restore later
    bad = damaged(store, tmp_path / "bad.db", readable)
    before = bad.read_bytes()
    with pytest.raises(UnsoundStore, match=r"fails its integrity check \(SQLite's quick_check"):
        asyncio.run(apply(str(bad), tmp_path / "second.jsonl"))
    assert main(["doctor", "repair", str(bad), "--apply"]) == 2
    assert main(["doctor", "restore", str(backup), "--store", str(bad), "--force"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all("writes nothing on a damaged store" in line for line in err)
    assert bad.read_bytes() == before
    wal = tmp_path / "bad.db-wal"  # a read-only connection to a WAL file makes it, empty
    assert not wal.exists() or wal.stat().st_size == 0
    left = {p.name for p in tmp_path.iterdir()} - {"bad.db-wal", "bad.db-shm"}
    assert left == {"backup.jsonl", "bad.db", "store.db"}  # no second backup


def test_scan_of_a_damaged_file_warns_and_is_affected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file that fails its engine's check is a problem found and not healed (fsck's 4),
    whatever the sessions it could read say: here every one of them is healthy."""
    store = tmp_path / "store.db"
    asyncio.run(generate(str(store), 25, 40, ("healthy",)))
    bad = damaged(store, tmp_path / "bad.db", readable=True)
    assert main(["doctor", "scan", str(bad), "--format", "json"]) == AFFECTED
    captured = capsys.readouterr()
    (warning,) = captured.err.splitlines()
    assert warning.startswith(f"warning: {bad} fails its integrity check")
    assert captured.out.startswith("[")  # the verdicts of what could be read, still JSON
    assert main(["doctor", "repair", str(bad)]) == AFFECTED  # the dry run: --apply would refuse
    (warning,) = capsys.readouterr().err.splitlines()
    assert "the doctor writes nothing on a damaged store" in warning


@pytest.mark.parametrize("form", ["file", "url"])
def test_scan_that_meets_damage_mid_stream_is_one_line(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], form: str
) -> None:
    bad = damaged(store, tmp_path / "bad.db", readable=False)
    text = str(bad) if form == "file" else f"sqlite+aiosqlite:///{bad}"
    assert main(["doctor", "scan", text]) == 2
    warning, error = capsys.readouterr().err.splitlines()
    assert warning.startswith(f"warning: {text} fails its integrity check")
    assert error.startswith(f"error: cannot read {text}: ")
    assert error.endswith("database disk image is malformed")
    assert main(["doctor", "repair", text, "--apply"]) == 2
    assert "writes nothing on a damaged store" in capsys.readouterr().err


def test_a_sound_file_passes_and_its_status_is_its_sessions(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No warning; the status is the verdicts': affected for the poisoned sessions of the
    mix, healthy for a store of healthy sessions."""
    assert main(["doctor", "scan", str(store)]) == AFFECTED
    assert capsys.readouterr().err == ""
    healthy = tmp_path / "healthy.db"
    asyncio.run(generate(str(healthy), 5, 8, ("healthy",)))
    assert main(["doctor", "scan", str(healthy)]) == HEALTHY
    assert capsys.readouterr().err == ""
