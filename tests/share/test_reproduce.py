"""Reproduce: the one line runs the pasted test outside this repository; error text and fix."""

from __future__ import annotations

import importlib.metadata
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from factories import cross_record, release_record

from approval_compaction import paths
from approval_compaction.share.reproduce import (
    TEST_NAME,
    api_errors,
    committed_fix_release,
    error_sentence,
    fix_release,
    one_line,
)
from approval_compaction.share.snippet import upstream_test
from approval_compaction.study.harness import run_matrix
from approval_compaction.study.scenario import select_cases

RUN_TIMEOUT = 300  # seconds: uv builds the environment from its cache, then pytest runs 4 tests
PINNED = importlib.metadata.version("openai-agents")


def requirement_pins() -> dict[str, str]:
    lines = (paths.ROOT / "requirements.txt").read_text().splitlines()
    return dict(re.findall(r"^([\w.-]+)==(\S+)$", "\n".join(lines), re.M))


def test_one_line_pins_the_tools_requirements_txt_pins() -> None:
    words = shlex.split(one_line("1.2.3"))
    pins = dict(w.split("==") for w in words if "==" in w)
    wanted = requirement_pins()
    assert pins == {
        "openai-agents": "1.2.3",
        "pytest": wanted["pytest"],
        "pytest-asyncio": wanted["pytest-asyncio"],
    }
    assert words[:3] == ["uv", "run", "--no-project"] and words[-2:] == ["pytest", TEST_NAME]


def run_offline(line: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """The line as a maintainer runs it, in a folder holding only the pasted test, with this
    project's uv and its cache, offline (no socket is opened), on the base interpreter."""
    (folder / TEST_NAME).write_text(upstream_test(paths.REGRESSION_TEST.read_text()))
    words = shlex.split(line)
    uv = Path(sys.executable).with_name("uv")
    command = [str(uv), words[1], "--offline", *words[2:]]
    base = Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update(UV_PYTHON=str(base), UV_NO_CONFIG="1", UV_PYTHON_DOWNLOADS="never")
    return subprocess.run(
        command,
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )


def not_in_cache(proc: subprocess.CompletedProcess[str]) -> bool:
    """uv could not build the environment (not pytest failing): exit 2 before any session."""
    return proc.returncode == 2 and "test session starts" not in proc.stdout


def test_one_line_fails_on_the_pinned_release_with_the_orphan(tmp_path: Path) -> None:
    """Regression (openai-agents #5340): the pasted test, run as the report says, catches the
    orphan output on the pinned release, with no clone and no configuration file."""
    proc = run_offline(one_line(PINNED), tmp_path)
    assert not not_in_cache(proc), proc.stderr[-2000:]
    summary = proc.stdout.splitlines()[-1]
    assert proc.returncode == 1 and "4 failed" in summary, proc.stdout[-3000:]
    assert "no tests ran" not in summary and "skipped" not in summary
    assert "'outputs sent without their call in the next turn': ['pending-c1']" in proc.stdout


def test_one_line_passes_on_the_fixing_release(tmp_path: Path) -> None:
    fixed = committed_fix_release()
    if fixed is None:
        pytest.skip("no fixing release in data/fix-releases.json and data/sweep.json")
    proc = run_offline(one_line(fixed), tmp_path)
    if not_in_cache(proc):
        pytest.skip(f"openai-agents {fixed} is not in uv's cache: {proc.stderr.strip()[-300:]}")
    assert proc.returncode == 0 and "4 passed" in proc.stdout.splitlines()[-1], proc.stdout[-3000:]


def test_api_errors_words_the_next_turn_as_the_api_does() -> None:
    """The rules' answer to the scripted next turn is what the SDK's client raised over HTTP."""
    from approval_compaction.analysis.outcomes import outcome_frame
    from approval_compaction.study.wiring import responses_backend

    cases = select_cases("runner=run,decision=reject,state_boundary=json")
    errors = api_errors(run_matrix(cases))
    observed = outcome_frame(run_matrix(cases, backend=responses_backend))
    assert [f"Error code: {e.status} - {e.message}" for e in errors] == [
        m for m in observed["message"] if m
    ]
    assert f"HTTP 400 `{errors[0].message}`" in error_sentence(errors)
    assert api_errors(run_matrix(select_cases("runner=run,compaction=off"))) == []
    assert error_sentence([]) == "The Responses API accepts every next-turn request."


@pytest.mark.parametrize(
    ("tests", "violated", "fixed"),
    [
        ({"0.9.0": "failed", "0.10.0": "passed", "0.11.0": "passed"}, set(), "0.10.0"),
        ({"0.9.0": "failed", "0.10.0": "passed", "0.11.0": "passed"}, {"0.10.0"}, "0.11.0"),
        ({"0.9.0": "passed", "0.10.0": "failed", "0.11.0": "passed"}, set(), "0.11.0"),
        ({"0.9.0": "failed", "0.10.0": "failed"}, set(), None),
        ({"0.9.0": "failed", "0.11.0": "passed"}, set(), "0.11.0"),
    ],
    ids=["version-order", "invariant-violated", "regressed-later", "never", "untested-gap"],
)
def test_fix_release_is_the_first_release_fixed_from_then_on(
    tests: dict[str, str], violated: set[str], fixed: str | None
) -> None:
    crossed = [cross_record(sdk_version=v, unfixed=u) for v, u in reversed(tests.items())]
    sweep = [release_record(sdk_version=v, holds=v not in violated) for v in tests]
    assert fix_release(crossed, sweep) == fixed


def test_fix_release_needs_the_test_on_a_swept_release() -> None:
    """A release the sweep judged but the test never ran on breaks the run of fixed releases."""
    crossed = [cross_record(sdk_version="0.10.0", unfixed="passed")]
    sweep = [release_record(sdk_version=v) for v in ("0.10.0", "0.11.0")]
    assert fix_release(crossed, sweep) is None


def test_committed_fix_release_reads_the_data_or_says_none(tmp_path: Path) -> None:
    assert committed_fix_release(tmp_path) is None
    fixed = committed_fix_release()
    assert fixed is not None
    from approval_compaction.formats.records import read_records
    from approval_compaction.releases.crosscheck import CrossRecord

    tested = read_records(paths.FIX_RELEASES, CrossRecord)
    assert {r.unfixed for r in tested if r.sdk_version == fixed} == {"passed"}
