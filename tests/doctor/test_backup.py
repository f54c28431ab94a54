"""Backups: written whole or not at all, never over another file, and checked before use."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from approval_compaction.doctor import backup as backups
from approval_compaction.doctor.repair import apply
from approval_compaction.doctor.restore import restore
from approval_compaction.doctor.stores import Row, StoredSession
from approval_compaction.lab.stores.synthetic import generate

SESSION = StoredSession("s1", (Row(1, '{"role": "user", "content": "hi"}', "2026-01-01 00:00:00"),))


def write(path: Path) -> Path:
    with backups.BackupWriter(path, "/some/store.db", "sqlite-file") as writer:
        writer.add(SESSION)
        writer.add(StoredSession("s2", ()))
        return writer.close()


def test_backup_round_trips_every_row(tmp_path: Path) -> None:
    header, saved = backups.read(write(tmp_path / "b.jsonl"))
    assert (header.store, header.kind, header.sessions) == ("/some/store.db", "sqlite-file", 2)
    assert saved[0] == SESSION and saved[0].fingerprint == SESSION.fingerprint
    assert saved[1].rows == ()


def test_backup_never_overwrites(tmp_path: Path) -> None:
    target = write(tmp_path / "b.jsonl")
    with pytest.raises(backups.BackupError, match="already exists"):
        write(target)


def test_unfinished_backup_leaves_no_file(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError):
        with backups.BackupWriter(tmp_path / "b.jsonl", "x", "sqlite-file") as writer:
            writer.add(SESSION)
            raise RuntimeError("interrupted")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[: len(text) // 2],
        lambda text: "\n".join(text.splitlines()[:-1]) + "\n",
        lambda text: text.replace("synthetic:", "synthetic!"),
        lambda text: "",
    ],
    ids=["cut-mid-line", "no-end-line", "edited", "empty"],
)
def test_damaged_backup_is_one_line_and_restores_nothing(tmp_path: Path, damage: object) -> None:
    store = tmp_path / "store.db"
    asyncio.run(generate(str(store), 3, 6))
    asyncio.run(apply(str(store), tmp_path / "b.jsonl"))
    healed = store.read_bytes()
    path = tmp_path / "b.jsonl"
    path.write_text(damage(path.read_text()))  # type: ignore[operator]
    with pytest.raises(backups.BackupError) as caught:
        asyncio.run(restore(path))
    assert "\n" not in str(caught.value)
    assert store.read_bytes() == healed


def test_a_backup_name_taken_meanwhile_is_kept_and_this_backup_refused(tmp_path: Path) -> None:
    """Issue 42: two repairs given one --backup both said they kept it, and the final rename
    replaced the first run's file with the second's: one store's undo was lost."""
    target = tmp_path / "b.jsonl"
    writer = backups.BackupWriter(target, "/some/store.db", "sqlite-file")
    writer.add(SESSION)
    target.write_text("the other run's backup\n")
    with pytest.raises(backups.BackupError, match="created by another run meanwhile"):
        writer.close()
    assert target.read_text() == "the other run's backup\n"
    assert [p.name for p in tmp_path.iterdir()] == ["b.jsonl"]


def test_the_run_that_loses_the_backup_name_writes_nothing_to_its_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 42: the run that loses the race for a backup name stops before its first write."""
    store = tmp_path / "store.db"
    asyncio.run(generate(str(store), 3, 6))
    before, target = store.read_bytes(), tmp_path / "b.jsonl"
    claim = backups.claim

    def lose(temp: Path, path: Path) -> None:
        path.write_text("the other run's backup\n")  # the other run claims it first
        claim(temp, path)

    monkeypatch.setattr(backups, "claim", lose)
    with pytest.raises(backups.BackupError, match="nothing written to the store"):
        asyncio.run(apply(str(store), target))
    assert store.read_bytes() == before and target.read_text() == "the other run's backup\n"
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".b.jsonl")]


def test_a_full_disk_while_the_backup_is_written_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 42: a full disk while the backup was written left a temporary file beside it."""

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(backups.os, "fsync", full)
    with pytest.raises(backups.BackupFull, match="No space left on device") as stop:
        write(tmp_path / "b.jsonl")
    assert stop.value.exit_code == 5 and str(stop.value).endswith("nothing written to the store")
    assert list(tmp_path.iterdir()) == []
