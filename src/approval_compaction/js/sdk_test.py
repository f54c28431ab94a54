"""SDK test: the regression tests written for openai-agents-js, run here with vitest.

``js/sdk-test/test/`` holds the files a maintainer drops into ``packages/agents-openai/test/``
as they are: the pending call's (``JS_REGRESSION_TEST``), the stall's (``JS_STALL_TEST``), and
the guard the stall's fix keeps (``JS_FILTERED_TEST``: history an application filtered is not
compacted), and the read the stall's fix makes (``JS_WINDOWED_TEST``: a backend that answers a
read without a limit with a window loses no question to a compaction). Each is vitest, the SDK's
``ScriptedModel``, a fake client whose ``responses.compact`` is a mock, no network. Here they
run in their own small package (``js/sdk-test``: vitest pinned, its lock committed,
``make js-sdk-test`` installs it), against the ``@openai/agents`` installed in a folder
(``AGENTS_PACKAGE``): the repository's (the pinned release), a release's cached folder, or a
patched copy (``patched.patched_folder``). Its config resolves the test's ``../src`` to that
folder's ``@openai/agents-openai``.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..lab import paths
from .harness import NodeError, node_binary

SDK_TEST = paths.ROOT / "js" / "sdk-test"
JS_REGRESSION_TEST = SDK_TEST / "test" / "openaiResponsesCompactionSession.pendingApproval.test.ts"
JS_STALL_TEST = SDK_TEST / "test" / "openaiResponsesCompactionSession.stall.test.ts"
JS_FILTERED_TEST = SDK_TEST / "test" / "openaiResponsesCompactionSession.filteredHistory.test.ts"
JS_WINDOWED_TEST = SDK_TEST / "test" / "openaiResponsesCompactionSession.windowedHistory.test.ts"
VITEST = SDK_TEST / "node_modules" / "vitest" / "vitest.mjs"
TIMEOUT = 300.0


@dataclass(frozen=True)
class SdkTestRun:
    """The regression test's outcome on one installed package."""

    tests: int
    passed: int
    failed: int
    seconds: float  # wall time of the vitest process (not written to data/: it varies)
    failing: tuple[str, ...] = ()  # ``file: title`` of each failing test, sorted


def vitest_installed() -> bool:
    return VITEST.is_file()


def run_sdk_test(
    package: Path = paths.ROOT, test: Path | Sequence[Path] = JS_REGRESSION_TEST
) -> SdkTestRun:
    """Run regression test files (one, or several) with vitest against the ``@openai/agents``
    in ``package``."""
    tests = [test] if isinstance(test, Path) else list(test)
    if not vitest_installed():
        raise NodeError("vitest is not installed in js/sdk-test: run `make js-sdk-test`")
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI")}
    env.update(AGENTS_PACKAGE=str(package), NODE_NO_WARNINGS="1", CI="1")
    with tempfile.TemporaryDirectory(prefix="approval-compaction-vitest-") as scratch:
        report = Path(scratch) / "report.json"
        command = [
            node_binary(), str(VITEST), "run", "--reporter=json", f"--outputFile={report}",
            *(path.relative_to(SDK_TEST).as_posix() for path in tests),
        ]  # fmt: skip
        started = time.perf_counter()
        try:
            done = subprocess.run(
                command, cwd=SDK_TEST, env=env, capture_output=True, text=True,
                timeout=TIMEOUT, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            raise NodeError(f"vitest did not finish in {TIMEOUT:.0f} s") from None
        seconds = time.perf_counter() - started
        if not report.is_file():
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise NodeError(f"vitest exited with {done.returncode} and no report: {last}")
        data = json.loads(report.read_text())
    failing = sorted(
        f"{Path(result['name']).name}: {case['title']}"
        for result in data["testResults"]
        for case in result["assertionResults"]
        if case["status"] == "failed"
    )
    return SdkTestRun(
        tests=int(data["numTotalTests"]),
        passed=int(data["numPassedTests"]),
        failed=int(data["numFailedTests"]),
        seconds=seconds,
        failing=tuple(failing),
    )


def regression_tests() -> list[Path]:
    """Every regression test file of ``js/sdk-test``."""
    return sorted((SDK_TEST / "test").glob("*.test.ts"))
