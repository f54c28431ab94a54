"""Atomic writes: the new content or the old, never half a file, and no temporary left behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from approval_compaction.formats.files import FileExists, write_all_atomic, write_atomic


def leftovers(folder: Path) -> list[str]:
    """Temporary files ``write_atomic`` would leave beside its target (``.name.*``)."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


@pytest.mark.parametrize("content", ["text ✓\n", b"\x89PNG\r\n\x1a\n"], ids=["str", "bytes"])
def test_files_write_atomic_writes_text_as_utf8_and_bytes_as_they_are(
    tmp_path: Path, content: str | bytes
) -> None:
    path = tmp_path / "out"
    write_atomic(path, content)
    expected = content.encode() if isinstance(content, str) else content
    assert path.read_bytes() == expected
    assert leftovers(tmp_path) == []


def test_files_write_atomic_creates_missing_folders(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "out.json"
    write_atomic(path, "[]\n")
    assert path.read_text() == "[]\n"


def test_files_write_atomic_replaces_the_previous_content(tmp_path: Path) -> None:
    path = tmp_path / "out"
    path.write_text("a much longer previous content\n")
    write_atomic(path, "new\n")
    assert path.read_text() == "new\n"


@pytest.mark.parametrize("mode", [0o600, 0o644, 0o755], ids=oct)
def test_files_write_atomic_keeps_the_mode_of_the_file_it_replaces(
    tmp_path: Path, mode: int
) -> None:
    path = tmp_path / "run.sh"
    path.write_text("old\n")
    path.chmod(mode)
    write_atomic(path, "new\n")
    assert path.stat().st_mode & 0o777 == mode


def test_files_write_atomic_new_file_is_readable_by_all(tmp_path: Path) -> None:
    """``mkstemp`` creates 0600 files; a results file must be as readable as one ``open`` makes."""
    old_umask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new", "x")
    finally:
        os.umask(old_umask)
    assert (tmp_path / "new").stat().st_mode & 0o777 == 0o644


def test_files_failed_write_keeps_the_previous_file_and_leaves_no_temp(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    path.write_text("previous\n")
    with pytest.raises(TypeError):
        write_atomic(path, 123)  # type: ignore[arg-type]  # fails while writing the temporary
    assert path.read_text() == "previous\n"
    assert leftovers(tmp_path) == []


def test_files_failed_rename_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    (target / "inside").mkdir(parents=True)  # a file cannot replace a non-empty folder
    with pytest.raises(OSError):
        write_atomic(target, "x")
    assert (target / "inside").is_dir()
    assert leftovers(tmp_path) == []


def test_files_write_all_atomic_keeps_the_whole_set_when_one_file_fails(tmp_path: Path) -> None:
    """A set that belongs together (JSON and its CSV) is replaced whole or not at all."""
    first, second = tmp_path / "a.json", tmp_path / "a.csv"
    write_all_atomic({first: "old json", second: "old csv"})
    unwritable = first / "inside-a-file.md"  # its folder is a file: writing it fails
    with pytest.raises(OSError):
        write_all_atomic({first: "new json", second: "new csv", unwritable: "x"})
    assert (first.read_text(), second.read_text()) == ("old json", "old csv")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "a.json"]


def test_files_write_atomic_without_replace_refuses_a_file_that_exists(tmp_path: Path) -> None:
    """Issue 33: ``share --output FILE`` and ``report --output FILE`` replaced any file (run
    as root, system files too); without ``--force`` the write links the new file into place,
    which fails on a file that exists, even one that appeared after the command checked."""
    target = tmp_path / "mine.md"
    target.write_text("someone's")
    with pytest.raises(FileExists, match=r"mine\.md already exists: pass --force"):
        write_atomic(target, "new", replace=False)
    assert target.read_text() == "someone's"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.md"]  # no temporary file left
    fresh = tmp_path / "fresh.md"
    write_atomic(fresh, "new", replace=False)
    assert fresh.read_text() == "new"
