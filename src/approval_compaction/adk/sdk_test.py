"""SDK test: the regression test written for adk-python, run here with pytest.

``adk/sdk-test/tests/unittests/`` holds the files a maintainer drops into adk-python's
``tests/unittests/`` as they are (the late answer's, and the long-running call's that stops
compaction): pytest with pytest-asyncio, a fake ``BaseLlm`` and a recording
``BaseEventsSummarizer``, no network, in that project's style. Here it runs with the
interpreter of a release's environment (or a patched one, ``patched``), with this project's
pins of pytest and pytest-asyncio in a tools folder beside it, so the environment stays as the
sweep made it; ``adk/sdk-test/pytest.ini`` stands in for adk-python's pytest settings.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..lab import paths
from ..lab.releases.environments import install_tools, isolated_environ, run_pytest
from .packages import cache_folder

SDK_TEST = paths.ROOT / "adk" / "sdk-test"
ADK_REGRESSION_TEST = SDK_TEST / "tests" / "unittests" / "apps" / "test_compaction_late_answer.py"
# The long-running call nobody answers, which stops compaction for good (the search found it).
LONG_RUNNING_TEST = ADK_REGRESSION_TEST.with_name("test_compaction_long_running.py")
TOOLS = ("pytest", "pytest-asyncio")
TIMEOUT = 600.0


@dataclass(frozen=True)
class SdkTestRun:
    """The regression test's outcome on one environment: its cases and how each ended."""

    tests: int
    passed: int
    failed: int
    failing: tuple[str, ...]  # the failing cases' names: ``test_title[parameters]``


def run_sdk_test(
    python: Path, test: Path = ADK_REGRESSION_TEST, overlay: Path | None = None
) -> SdkTestRun:
    """Run a regression test (the late answer's by default) with ``python`` (a release's, or
    a patched one's); ``overlay``: a folder whose ``google/adk`` is imported instead of the
    environment's (a mutant's)."""
    tools = install_tools(cache_folder() / "_tools", TOOLS)
    env = isolated_environ(with_package=False, tools=tools)
    if overlay is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(overlay), env["PYTHONPATH"]])
    env["PYTHONWARNINGS"] = "ignore"
    with tempfile.TemporaryDirectory(prefix="approval-compaction-adk-test-") as scratch:
        cases = run_pytest(
            python,
            [str(test.relative_to(SDK_TEST))],
            cwd=SDK_TEST,
            env=env,
            timeout=TIMEOUT,
            report=Path(scratch) / "report.xml",
            label="the adk-python regression test",
        )
    failing = tuple(c.name for c in cases if c.outcome != "passed")
    passed = sum(1 for c in cases if c.outcome == "passed")
    return SdkTestRun(len(cases), passed, len(cases) - passed, failing)
