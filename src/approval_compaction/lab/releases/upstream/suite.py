"""Suite: the SDK's test files that touch compaction or approvals, run as its Makefile runs them.

A file is selected when it builds a compaction session, or runs approvals through a session
(or, with ``--select``, when its text matches a pattern). The selection runs as the Makefile's
``tests`` target runs it: the shard-safe tests on a bounded number of xdist workers, then the
``serial`` ones alone. With the workaround, ``fix.suite_plugin`` is loaded into the run and
counts the compaction sessions it made deferring in a folder named by ``COUNTS_VARIABLE``.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import environments
from .checkout import Checkout

FIX_PLUGIN = "approval_compaction.fix.suite_plugin"  # loaded by name in the release's interpreter
COUNTS_VARIABLE = "APPROVAL_COMPACTION_SUITE_COUNTS"  # the plugin's (a test checks they match)
COMPACTION = r"OpenAIResponsesCompactionSession|run_compaction|_defer_compaction"
APPROVAL = r"needs_approval|\.approve\(|\.reject\(|interruptions"
SESSION = r"session="
DEFAULT_WORKERS = 2
SUITE_TIMEOUT_SECONDS = 3600


@dataclass(frozen=True)
class CaseOutcome:
    """One test's outcome in one run: passed, failed, error, skipped."""

    test: str
    outcome: str
    message: str


@dataclass(frozen=True)
class SuiteRun:
    """One run of the selected tests on one release: ``baseline`` or ``fix``."""

    sdk_version: str
    variant: str
    files: int
    tests: int
    passed: int
    failed: int
    error: int
    skipped: int
    sessions_upgraded: int  # compaction sessions the plugin made deferring (0 in the baseline)


@dataclass(frozen=True)
class SuiteFailure:
    """One test that failed or errored in one run (``baseline`` or ``fix``), with its message:
    the runs keep counts, these keep the names."""

    sdk_version: str
    variant: str
    test: str
    outcome: str
    message: str


def failures(version: str, variant: str, outcomes: Sequence[CaseOutcome]) -> list[SuiteFailure]:
    """The run's failed and errored tests, in test order."""
    bad = [o for o in outcomes if o.outcome in ("failed", "error")]
    return [
        SuiteFailure(version, variant, o.test, o.outcome, o.message)
        for o in sorted(bad, key=lambda o: o.test)
    ]


def select_files(tests: Path, pattern: str | None = None) -> list[str]:
    """Test files (relative to the checkout) that touch compaction sessions or approvals."""
    chosen = []
    for path in sorted(tests.rglob("test_*.py")):
        text = path.read_text(errors="replace")
        if pattern is not None:
            hit = re.search(pattern, text) is not None
        else:
            hit = re.search(COMPACTION, text) is not None or (
                re.search(APPROVAL, text) is not None and re.search(SESSION, text) is not None
            )
        if hit:
            chosen.append(path.relative_to(tests.parent).as_posix())
    return chosen


def test_id(case: environments.JUnitCase) -> str:
    """``tests/x/test_y.py::Class::test_z[param]`` from a JUnit test case."""
    parts = case.classname.split(".")
    # classname is the module path with dots, then any classes: find where the file ends.
    for cut in range(len(parts), 0, -1):
        candidate = "/".join(parts[:cut]) + ".py"
        if parts[cut - 1].startswith("test_") or cut == 1:
            return "::".join([candidate, *parts[cut:], case.name])
    return case.name


def clean_message(text: str) -> str:
    """A failure message on one line, without memory addresses (the results are committed)."""
    return re.sub(r" at 0x[0-9a-fA-F]+", "", " ".join(text.split()))[:300]


def case_outcome(case: environments.JUnitCase) -> CaseOutcome:
    return CaseOutcome(test_id(case), case.outcome, clean_message(case.message))


def pytest_arguments(files: Sequence[str], fix: bool, workers: int) -> list[list[str]]:
    """As the Makefile's ``tests`` target: shard-safe tests on xdist, then ``serial`` alone."""
    base = [*files, *(["-p", FIX_PLUGIN] if fix else [])]
    parallel = [*base, "-n", str(workers), "--dist", "worksteal", "-m", "not serial"]
    return [parallel, [*base, "-m", "serial"]]


def run_suite(
    checkout: Checkout,
    files: Sequence[str],
    *,
    fix: bool,
    workers: int = DEFAULT_WORKERS,
    run: environments.Runner = environments.run,
) -> tuple[list[CaseOutcome], int]:
    """Run the selected files once; the outcomes and how many sessions the plugin upgraded."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-upstream-") as scratch:
        reports = Path(scratch)
        counts = reports / "counts"
        counts.mkdir()
        env = environments.isolated_environ(with_package=fix)
        env[COUNTS_VARIABLE] = str(counts)
        outcomes: list[CaseOutcome] = []
        for index, arguments in enumerate(pytest_arguments(files, fix, workers)):
            cases = environments.run_pytest(
                checkout.python,
                arguments,
                cwd=checkout.folder,
                env=env,
                timeout=SUITE_TIMEOUT_SECONDS,
                report=reports / f"report-{index}.xml",
                label=f"{checkout.version}: pytest",
                runner=run,
            )
            outcomes += [case_outcome(case) for case in cases]
        upgraded = sum(int(p.read_text() or 0) for p in counts.glob("upgraded-*.txt"))
    return outcomes, upgraded


def summarize(
    version: str, variant: str, files: int, outcomes: Sequence[CaseOutcome], upgraded: int
) -> SuiteRun:
    """Counts of one run."""

    def count(word: str) -> int:
        return sum(1 for o in outcomes if o.outcome == word)

    return SuiteRun(
        version,
        variant,
        files,
        len(outcomes),
        count("passed"),
        count("failed"),
        count("error"),
        count("skipped"),
        upgraded,
    )


def tally(run: SuiteRun) -> str:
    """One run's counts in one line."""
    return (
        f"{run.sdk_version} {run.variant}: {run.tests} tests, {run.passed} passed, "
        f"{run.failed} failed, {run.error} errors, {run.skipped} skipped"
        + (f"; {run.sessions_upgraded} sessions made deferring" if run.variant == "fix" else "")
    )
