"""Upstream (ADK): adk-python's own unit tests of the touched module, run on the pinned release
and patched, recorded once.

No stored snapshot of adk-python holds ``apps/compaction.py`` (the newest, 7c670f63, is 1.4.2),
so the tests come from a copy of the repository's files at a commit (a checkout, or files
saved from one): ``python -m approval_compaction adk-upstream --tests DIR --source TEXT``, where
``DIR`` holds ``tests/unittests/...`` and ``TEXT`` names where they came from. They run in a
scratch folder with a ``conftest.py`` standing in for adk-python's (its ``env_variables``
fixture, the one these tests use; the repository's also reaches modules the release lacks) and
the ``[tool.pytest]`` settings of its ``pyproject.toml`` (asyncio mode ``auto``), by the
interpreter of the release's environment and of the patched one: the wheel's ``google/adk/`` is
the repository's ``src/google/adk/``. ``data/adk-upstream.json`` holds the counts and every
test whose outcome differs.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from ..lab.releases.environments import install_tools, isolated_environ, run_pytest
from .packages import cache_folder, pinned, release_environment
from .patched import label, patched_environment
from .sdk_test import TIMEOUT, TOOLS

TOUCHED_TESTS = ("tests/unittests/apps/test_compaction.py",)
CONFTEST = '''"""Stands in for adk-python's tests/unittests/conftest.py: its env_variables."""

import os

import pytest

_ENV_VARS = {
    'GOOGLE_API_KEY': 'fake_google_api_key',
    'GOOGLE_CLOUD_PROJECT': 'fake_google_cloud_project',
    'GOOGLE_CLOUD_LOCATION': 'fake_google_cloud_location',
}
ENV_SETUPS = {
    'GOOGLE_AI': {'GOOGLE_GENAI_USE_VERTEXAI': '0', **_ENV_VARS},
    'VERTEX': {'GOOGLE_GENAI_USE_VERTEXAI': '1', **_ENV_VARS},
}


@pytest.fixture
def env_variables(request):
  envs = ENV_SETUPS[request.param]
  original = {key: os.environ.get(key) for key in envs}
  os.environ.update(envs)
  yield
  for key, value in original.items():
    if value is None:
      os.environ.pop(key, None)
    else:
      os.environ[key] = value
'''
PYTEST_INI = """[pytest]
asyncio_mode = auto
asyncio_default_fixture_loop_scope = function
"""


def lay_out(tests: Path, scratch: Path) -> list[str]:
    """The touched tests copied from ``tests`` into ``scratch``, with the stand-in conftest
    and the pytest settings beside them; the files to run."""
    for name in TOUCHED_TESTS:
        target = scratch / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(tests / name, target)
    (scratch / "tests" / "unittests" / "conftest.py").write_text(CONFTEST)
    (scratch / "pytest.ini").write_text(PYTEST_INI)
    return list(TOUCHED_TESTS)


def run_suite(tests: Path, python: Path) -> dict[str, str]:
    """Each test's outcome (``passed``, ``failed``, ``skipped``, ``error``) with ``python``."""
    tools = install_tools(cache_folder() / "_tools", TOOLS)
    env = isolated_environ(with_package=False, tools=tools)
    env["PYTHONWARNINGS"] = "ignore"
    with tempfile.TemporaryDirectory(prefix="approval-compaction-adk-upstream-") as scratch:
        files = lay_out(tests, Path(scratch))
        cases = run_pytest(
            python, files, cwd=Path(scratch), env=env, timeout=TIMEOUT,
            report=Path(scratch) / "report.xml", label="adk-python's compaction tests",
        )  # fmt: skip
    return {f"{c.classname}::{c.name}": c.outcome for c in cases}


def upstream_record(tests: Path, source: str) -> dict[str, Any]:
    """The touched module's tests on the pinned release and patched."""
    runs = {
        pinned(): run_suite(tests, release_environment(pinned()).python),
        label(): run_suite(tests, patched_environment().python),
    }
    return record_of(runs, pinned(), source)


def record_of(runs: dict[str, dict[str, str]], release: str, source: str) -> dict[str, Any]:
    """The record of each package's outcomes (``runs``, the release's among them): counts, and
    the tests whose outcome differs from the release's."""
    released = runs[release]
    rows = []
    for package, outcomes in runs.items():
        counts = {o: sum(1 for v in outcomes.values() if v == o) for o in set(outcomes.values())}
        differ = sorted(t for t, o in outcomes.items() if released.get(t) != o)
        rows.append(
            {
                "package": package,
                "tests": len(outcomes),
                "passed": counts.get("passed", 0),
                "failed": counts.get("failed", 0) + counts.get("error", 0),
                "skipped": counts.get("skipped", 0),
                "differ_from_release": len(differ),
                "differ_shown": differ[:5],
            }
        )
    failing = sorted(t for t, o in released.items() if o in ("failed", "error"))
    return {
        "source": source,
        "files": list(TOUCHED_TESTS),
        "command": "python -m approval_compaction adk-upstream --tests DIR --source TEXT",
        "mapping": "the wheel's google/adk/ is adk-python's src/google/adk/",
        "conftest": "a stand-in providing adk-python's env_variables fixture",
        "runs": rows,
        "failing_on_release": failing,
    }
