"""adk-python's own tests of the touched module: laid out with a stand-in for the repository's
conftest, and their outcomes on the release and patched tallied into the recorded file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from approval_compaction.adk.upstream import TOUCHED_TESTS, lay_out, record_of

ENV_TEST = """import os

import pytest


@pytest.mark.parametrize("env_variables", ["GOOGLE_AI", "VERTEX"], indirect=True)
def test_env(env_variables):
    assert os.environ["GOOGLE_API_KEY"] == "fake_google_api_key"
    assert os.environ["GOOGLE_GENAI_USE_VERTEXAI"] in ("0", "1")


def test_restored():
    assert "GOOGLE_GENAI_USE_VERTEXAI" not in os.environ
"""


def _checkout(folder: Path, text: str) -> Path:
    for name in TOUCHED_TESTS:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def test_lay_out_copies_the_touched_tests_beside_the_stand_in_conftest(tmp_path: Path) -> None:
    tests = _checkout(tmp_path / "checkout", "def test_x():\n  pass\n")
    files = lay_out(tests, tmp_path / "scratch")
    assert files == list(TOUCHED_TESTS)
    assert (tmp_path / "scratch" / files[0]).read_text() == "def test_x():\n  pass\n"
    conftest = (tmp_path / "scratch" / "tests" / "unittests" / "conftest.py").read_text()
    assert "def env_variables(request):" in conftest
    assert "asyncio_mode = auto" in (tmp_path / "scratch" / "pytest.ini").read_text()


@pytest.mark.subprocess
def test_lay_out_stand_in_sets_each_env_setup_and_restores_the_environment(
    tmp_path: Path,
) -> None:
    """The tests ask for ``env_variables`` by indirect parameter, as adk-python's do."""
    scratch = tmp_path / "scratch"
    files = lay_out(_checkout(tmp_path / "checkout", ENV_TEST), scratch)
    env = {"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"}
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files],
        cwd=scratch, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout[-2000:]
    assert "3 passed" in ran.stdout


def test_record_of_counts_each_package_and_names_the_tests_that_differ() -> None:
    runs = {
        "2.13.0": {"t::a": "passed", "t::b": "failed", "t::c": "skipped"},
        "patched": {"t::a": "error", "t::b": "passed", "t::c": "skipped"},
    }
    record = record_of(runs, "2.13.0", "a checkout at abc123")
    released, patched = record["runs"]
    assert (released["passed"], released["failed"], released["skipped"]) == (1, 1, 1)
    assert released["differ_from_release"] == 0
    assert (patched["passed"], patched["failed"]) == (1, 1)  # an error counts as a failure
    assert patched["differ_shown"] == ["t::a", "t::b"]
    assert record["failing_on_release"] == ["t::b"]
    assert record["source"] == "a checkout at abc123" and record["files"] == list(TOUCHED_TESTS)
