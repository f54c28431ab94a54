"""Extraction reads each function as the installed release has it; the record keeps it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import needs
import pytest

from approval_compaction.lab.mechanism.catalogue import CATALOGUE, PINNED, RELEASES, Function, Mark
from approval_compaction.lab.mechanism.probe import MODULE
from approval_compaction.lab.mechanism.record import recorded_release
from approval_compaction.lab.mechanism.source import (
    ABSENT,
    Extract,
    enclosing,
    extract,
    extract_all,
    mark_lines,
    resolve,
)
from approval_compaction.lab.releases.environments import (
    isolated_environ,
)

OTHERS = [v for v in RELEASES if v != PINNED]


def test_source_committed_pinned_record_equals_a_live_extraction() -> None:
    assert recorded_release(PINNED).functions == extract_all(), "run `make mechanism`"


def test_source_extract_has_real_line_numbers_and_a_site_packages_path() -> None:
    function = CATALOGUE[0]
    found = extract(function)
    target = resolve(function.module, function.qualname)
    assert target is not None
    assert found.first_line == target.__code__.co_firstlineno
    assert found.path.startswith("agents/") and found.path.endswith(".py")
    assert found.source.lstrip().startswith(f"async def {function.name}(")


def test_source_absent_function_is_recorded_as_absent() -> None:
    missing = Function("compact", "agents.memory", "NoSuchSession.run", "none", ())
    assert extract(missing) == Extract(status=ABSENT, path="", first_line=0, source="")
    assert resolve("agents_no_such_module", "f") is None


def test_source_mark_lines_are_file_line_numbers() -> None:
    function = CATALOGUE[0]
    found = extract(function)
    lines = Path(resolve(function.module, function.qualname).__code__.co_filename).read_text()
    for number in mark_lines(found, function.marks[0]):
        assert function.marks[0].text in lines.splitlines()[number - 1]
    assert mark_lines(found, Mark("no such text anywhere", "")) == []


def test_source_enclosing_finds_the_block_a_check_runs_under() -> None:
    """0.23.1's pairing check runs only for a partial snapshot (the bug); 0.24.0's does not."""
    locked = next(f for f in CATALOGUE if f.name == "_run_compaction_locked")
    check = Mark("drop_orphan_function_calls(", "")
    found = extract(locked)
    assert enclosing(found, mark_lines(found, check)[0])[1] == (
        "if snapshot is not None and (not complete or suffix_start > 0):"
    )


@pytest.mark.releases
@pytest.mark.parametrize("version", OTHERS)
def test_source_live_extraction_in_a_cached_environment_equals_the_record(version: str) -> None:
    env = needs.release(version)
    script = (
        "import json, sys\n"
        "from approval_compaction.lab.mechanism.source import extract_all\n"
        "from dataclasses import asdict\n"
        "json.dump({k: asdict(v) for k, v in extract_all().items()}, sys.stdout)\n"
    )
    proc = subprocess.run(
        [str(env.python), "-c", script],
        capture_output=True,
        text=True,
        env=isolated_environ(),
        timeout=120,
        check=True,
    )
    found = {k: Extract.from_json(v) for k, v in json.loads(proc.stdout).items()}
    assert found == recorded_release(version).functions, (
        f"{version} differs from data/mechanism.json: run `make mechanism` ({MODULE})"
    )
