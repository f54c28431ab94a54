"""Upstream (JS): what a snapshot of openai-agents-js says about the fixes, recorded once.

GitHub is out of reach of ``make``, so this runs by hand on a git checkout (or bare mirror) of
openai-agents-js, ``python -m approval_compaction js-upstream --checkout PATH``, and writes
``data/js-upstream.json``, which the reports read:

- the snapshot: its commit and date, its ``@openai/agents-openai`` version, whether its
  compaction session holds what the fixes change (the exchange check of #1953), and whether
  its ``tsconfig.json`` compiler options are the ones ``js-typecheck`` uses (and how many
  commits have touched that file);
- ``packages/agents-openai``'s own vitest suite at that commit, run against the pinned release
  and each patched package (``js/sdk-test/vitest.upstream.config.mjs``: ``../src`` is the
  installed package), the counts of each and every test whose outcome differs from the
  release's.

The fakes of the SDK's own tests (``js-stall --checkout``) read the same snapshot.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

from ..lab import paths
from .fakes import CheckoutError
from .harness import NodeError, node_binary
from .packages import pinned
from .patched import patched_folder
from .sdk_test import SDK_TEST, TIMEOUT, VITEST
from .typecheck import TYPECHECK

CONFIG = SDK_TEST / "vitest.upstream.config.mjs"
PACKAGE = "packages/agents-openai"
SESSION_SOURCE = f"{PACKAGE}/src/memory/openaiResponsesCompactionSession.ts"
SESSION_TEST = "openaiResponsesCompactionSession.test.ts"  # the touched module's own tests
EXCHANGE_CHECK = "getModelVisibleSessionItems"  # what #1953 added, and the fixes change
PATCHES = (
    "agents-openai-0.20.0.diff",
    "agents-openai-0.20.0-stall.diff",
    "agents-openai-0.20.0-both.diff",
)
SHOWN = 5


@dataclass(frozen=True)
class SuiteRun:
    """``packages/agents-openai``'s suite on one package: counts, the touched module's, and each
    test's outcome."""

    package: str
    files: int
    tests: int
    passed: int
    failed: int
    session_tests: int  # the touched module's own file
    session_passed: int
    outcomes: dict[str, str]  # ``file: full name`` -> passed, failed or skipped


def _git(checkout: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(checkout), *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise CheckoutError(f"{checkout} is not a git checkout of openai-agents-js: {args[0]}")
    return done.stdout


def _options(text: str) -> dict[str, Any]:
    """A tsconfig's compilerOptions (JSON with comments)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"^\s*//.*$", "", text, flags=re.M)
    options: dict[str, Any] = json.loads(text)["compilerOptions"]
    return options


def snapshot(checkout: Path, ref: str = "HEAD") -> dict[str, Any]:
    """What the snapshot is, and whether it holds what the fixes change."""
    commit = _git(checkout, "rev-parse", ref).strip()
    date = _git(checkout, "show", "-s", "--format=%cI", commit).strip()
    meta = json.loads(_git(checkout, "show", f"{commit}:{PACKAGE}/package.json"))
    source = _git(checkout, "show", f"{commit}:{SESSION_SOURCE}")
    theirs = _options(_git(checkout, "show", f"{commit}:tsconfig.json"))
    ours = _options((TYPECHECK / "tsconfig.json").read_text())
    touched = _git(checkout, "log", "--format=%h", commit, "--", "tsconfig.json").split()
    return {
        "repository": "openai/openai-agents-js",
        "commit": commit,
        "date": date,
        "agents_openai": meta["version"],
        "has_exchange_check": EXCHANGE_CHECK in source,
        "tsconfig_matches": theirs == ours,
        "tsconfig_lib": theirs.get("lib", []),
        "tsconfig_commits": len(touched),
    }


def _extract_tests(checkout: Path, commit: str, into: Path) -> None:
    """``packages/agents-openai/test`` at ``commit`` into ``into/test``."""
    done = subprocess.run(
        ["git", "-C", str(checkout), "archive", commit, f"{PACKAGE}/test"],
        capture_output=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise CheckoutError(f"{checkout}: no {PACKAGE}/test at {commit[:12]}")
    with tarfile.open(fileobj=BytesIO(done.stdout)) as archive:
        for member in archive.getmembers():
            member.name = member.name.removeprefix(f"{PACKAGE}/")
        archive.extractall(into, filter="data")


def run_suite(tests: Path, package: Path, label: str, files: Sequence[str] = ()) -> SuiteRun:
    """The suite in ``tests`` (holding ``test/``) with vitest against ``package`` (``files``:
    only those test files, by name)."""
    if not VITEST.is_file():
        raise NodeError("vitest is not installed in js/sdk-test: run `make js-sdk-test`")
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI")}
    env.update(AGENTS_PACKAGE=str(package), UPSTREAM_TESTS=str(tests), NODE_NO_WARNINGS="1", CI="1")
    report = tests / "report.json"
    command = [
        node_binary(), str(VITEST), "run", "--config", str(CONFIG), "--reporter=json",
        f"--outputFile={report}", *(f"test/{name}" for name in files),
    ]  # fmt: skip
    started = time.perf_counter()
    subprocess.run(
        command, cwd=SDK_TEST, env=env, capture_output=True, text=True,
        timeout=TIMEOUT * 4, check=False,
    )  # fmt: skip
    if not report.is_file():
        raise NodeError(f"vitest wrote no report in {time.perf_counter() - started:.0f} s")
    data = json.loads(report.read_text())
    report.unlink()
    outcomes = {
        f"{Path(result['name']).name}: {case['fullName']}": case["status"]
        for result in data["testResults"]
        for case in result["assertionResults"]
    }
    own = [o for name, o in outcomes.items() if name.startswith(f"{SESSION_TEST}: ")]
    return SuiteRun(
        package=label,
        files=len(data["testResults"]),
        tests=int(data["numTotalTests"]),
        passed=int(data["numPassedTests"]),
        failed=int(data["numFailedTests"]),
        session_tests=len(own),
        session_passed=sum(1 for o in own if o == "passed"),
        outcomes=outcomes,
    )


def recheck(
    tests: Path, differ: Sequence[str], release: Path, patched: Path, label: str
) -> list[str]:
    """The tests of ``differ`` whose outcomes differ again when their files run once more on
    the release and on the patched package (one that does not was timing, not the patch)."""
    if not differ:
        return []
    files = sorted({name.split(": ")[0] for name in differ})
    before = run_suite(tests, release, pinned(), files).outcomes
    after = run_suite(tests, patched, label, files).outcomes
    return [name for name in differ if before.get(name) != after.get(name)]


def upstream_record(checkout: Path, ref: str = "HEAD") -> dict[str, Any]:
    """The snapshot, and its package suite on the release and on each patched package."""
    found = snapshot(checkout, ref)
    fix = paths.ROOT / "js" / "fix"
    packages = {pinned(): paths.ROOT} | {
        f"{pinned()}+{name}": patched_folder(fix / name) for name in PATCHES
    }
    with tempfile.TemporaryDirectory(prefix="approval-compaction-upstream-") as scratch:
        _extract_tests(checkout, found["commit"], Path(scratch))
        runs = [run_suite(Path(scratch), folder, label) for label, folder in packages.items()]
        released = runs[0].outcomes
        suites = []
        for run, folder in zip(runs, packages.values(), strict=True):
            differ = sorted(t for t, o in run.outcomes.items() if released.get(t) != o)
            changed = recheck(Path(scratch), differ, packages[pinned()], folder, run.package)
            suites.append(
                {
                    "package": run.package,
                    "files": run.files,
                    "tests": run.tests,
                    "passed": run.passed,
                    "failed": run.failed,
                    "session_tests": run.session_tests,
                    "session_passed": run.session_passed,
                    "differ_from_release": len(differ),
                    "differ_shown": differ[:SHOWN],
                    "differ_again": len(changed),
                    "differ_again_shown": changed[:SHOWN],
                }
            )
    failing = sorted(t for t, o in released.items() if o == "failed")
    return {
        "snapshot": found,
        "command": "python -m approval_compaction js-upstream --checkout PATH",
        "suite": f"{PACKAGE}/test at {found['commit'][:12]}, vitest "
        "(js/sdk-test/vitest.upstream.config.mjs: ../src is the installed package's dist)",
        "runs": suites,
        "failing_on_release": failing[:SHOWN],
        "failing_files_on_release": sorted({t.split(": ")[0] for t in failing}),
    }
