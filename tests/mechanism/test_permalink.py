"""Permalinks point at the release's tag, and the installed files are the tag's (issue 23).

The check against the real release reads the sdist ``make permalinks`` cached (pip, once): the
tests never fetch it. Without the cached copy it skips with the reason, except under CI.
"""

from __future__ import annotations

import importlib.metadata
import io
import subprocess
import tarfile
from collections.abc import Sequence
from pathlib import Path

import needs
import pytest

from approval_compaction.lab.mechanism.catalogue import CATALOGUE, PINNED
from approval_compaction.lab.mechanism.permalink import (
    SdistError,
    differences,
    fetch_sdist,
    installed_sources,
    permalink,
    sdist_archive,
    sdist_sources,
)
from approval_compaction.lab.mechanism.record import recorded_release
from approval_compaction.lab.mechanism.source import PRESENT, site_packages


def _sdist(path: Path, version: str, files: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files.items():
            member = tarfile.TarInfo(f"openai_agents-{version}/{name}")
            member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
    return path


def test_permalink_names_the_tag_the_src_folder_and_the_lines() -> None:
    base = "https://github.com/openai/openai-agents-python/blob/v0.23.1/src/agents/run.py"
    assert permalink("0.23.1", "agents/run.py", 12, 40) == base + "#L12-L40"
    assert permalink("0.23.1", "agents/run.py", 7) == base + "#L7"
    assert permalink("0.23.1", "agents/run.py", 7, 7) == base + "#L7"


@pytest.mark.parametrize(("start", "end"), [(0, None), (5, 4)], ids=["line-0", "backwards"])
def test_permalink_refuses_a_range_no_file_has(start: int, end: int | None) -> None:
    with pytest.raises(ValueError):
        permalink("0.23.1", "agents/run.py", start, end)


def test_permalink_sdist_sources_are_its_src_agents_files(tmp_path: Path) -> None:
    files = {
        "src/agents/run.py": b"print(1)\n",
        "src/agents/memory/s.py": b"x = 1\n",
        "tests/test_run.py": b"",
        "README.md": b"",
    }
    archive = _sdist(tmp_path / "openai_agents-9.9.9.tar.gz", "9.9.9", files)
    assert sdist_sources(archive, "9.9.9") == {
        "agents/run.py": b"print(1)\n",
        "agents/memory/s.py": b"x = 1\n",
    }


def test_permalink_sdist_without_src_agents_is_refused_in_one_line(tmp_path: Path) -> None:
    archive = _sdist(tmp_path / "a.tar.gz", "9.9.9", {"agents/run.py": b""})
    with pytest.raises(SdistError, match="has no openai_agents-9.9.9/src/agents/"):
        sdist_sources(archive, "9.9.9")
    (tmp_path / "b.tar.gz").write_bytes(b"not a tar")
    with pytest.raises(SdistError, match="not a readable sdist"):
        sdist_sources(tmp_path / "b.tar.gz", "9.9.9")


def test_permalink_differences_find_missing_extra_and_changed_files(tmp_path: Path) -> None:
    (tmp_path / "agents" / "__pycache__").mkdir(parents=True)
    (tmp_path / "agents" / "run.py").write_bytes(b"a\n")
    (tmp_path / "agents" / "extra.py").write_bytes(b"")
    (tmp_path / "agents" / "__pycache__" / "run.cpython-311.pyc").write_bytes(b"\0")
    installed = installed_sources(tmp_path)
    assert set(installed) == {"agents/run.py", "agents/extra.py"}
    assert not differences({"agents/run.py": b"a\n", "agents/extra.py": b""}, installed)
    found = differences({"agents/run.py": b"b\n", "agents/gone.py": b""}, installed)
    assert found.changed == ("agents/run.py",)
    assert found.only_first == ("agents/gone.py",)
    assert found.only_second == ("agents/extra.py",)
    assert "different: agents/run.py" in found.said("in the sdist", "installed")


class _Pip:
    def __init__(self, returncode: int = 0, writes: bool = True) -> None:
        self.returncode, self.writes = returncode, writes
        self.commands: list[list[str]] = []

    def __call__(
        self, command: Sequence[str], timeout: float, *, cwd: Path
    ) -> subprocess.CompletedProcess[str]:
        self.commands.append(list(command))
        if self.writes:
            (cwd / "openai_agents-9.9.9.tar.gz").write_bytes(b"sdist")
        return subprocess.CompletedProcess(list(command), self.returncode, "", "no such release")


def test_permalink_fetch_downloads_the_sdist_once_with_pip(tmp_path: Path) -> None:
    pip = _Pip()
    archive = fetch_sdist("9.9.9", tmp_path, run=pip)
    assert archive == sdist_archive("9.9.9", tmp_path) and archive.read_bytes() == b"sdist"
    assert pip.commands[0][1:4] == ["-m", "pip", "download"]
    assert "--no-binary" in pip.commands[0] and pip.commands[0][-1] == "openai-agents==9.9.9"
    assert fetch_sdist("9.9.9", tmp_path, run=pip) == archive
    assert len(pip.commands) == 1  # the cached copy is reused


def test_permalink_fetch_that_fails_says_why_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(SdistError, match="openai-agents==9.9.9: no sdist: no such release"):
        fetch_sdist("9.9.9", tmp_path, run=_Pip(returncode=1, writes=False))


def _cached_sdist() -> Path:
    archive = sdist_archive(PINNED)
    if not archive.is_file():
        needs.require(
            f"no cached sdist at {archive}: `make permalinks` fetches it once", "permalink"
        )
    return archive


@pytest.mark.releases
def test_permalink_installed_release_is_the_tags_src_agents_byte_for_byte() -> None:
    """The notebooks' permalinks carry line numbers read from the installed files."""
    assert importlib.metadata.version("openai-agents") == PINNED
    sdist = sdist_sources(_cached_sdist(), PINNED)
    found = differences(sdist, installed_sources(site_packages()))
    assert not found, str(found)


@pytest.mark.releases
def test_permalink_lines_at_the_tag_are_the_recorded_functions() -> None:
    sdist = sdist_sources(_cached_sdist(), PINNED)
    functions = recorded_release(PINNED).functions
    present = [functions[f.qualname] for f in CATALOGUE if functions[f.qualname].status == PRESENT]
    assert present
    for extract in present:
        lines = sdist[extract.path].decode().splitlines()
        count = len(extract.source.splitlines())
        at_tag = lines[extract.first_line - 1 : extract.first_line - 1 + count]
        assert at_tag == extract.source.splitlines(), extract.path
