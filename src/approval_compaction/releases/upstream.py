"""Upstream suite: the SDK's own tests, run as they are and with the workaround in place.

A release's sdist (from PyPI, through pip) ships its ``tests/``, conftest, ``Makefile`` and
``uv.lock``. The development environment is made as that Makefile's ``sync`` target makes it
(``uv sync --all-extras --all-packages --group dev``, with this interpreter), once per release,
in the user's cache beside the sweep's environments. The test files that touch compaction
sessions or approvals are run twice, as the Makefile's ``tests`` target runs them (the shard-safe
tests on a bounded number of xdist workers, then the ``serial`` ones alone): once as they are,
once with a pytest plugin that applies the workaround to every ``OpenAIResponsesCompactionSession``
the tests construct. A test whose outcome differs between the two runs is a change; each change
is reported with the failing assertion, and with the reason when it is the intended deferral.

The project's upstream-form regression test (``tests/sdk_regression/upstream/``) is copied into
the checkout's ``tests/memory/`` and checked with the release's own ruff and pyright, then run in
both runs like any other selected test.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from .. import paths
from ..errors import InvestigationError
from ..formats.files import write_atomic
from ..formats.markdown import markdown_table
from ..formats.records import read_records, records_json, write_records
from . import environments
from .versions import PACKAGE

if TYPE_CHECKING:  # pandas only for the notebook's tables
    import pandas as pd

Report = Callable[[str], None]
Runner = Callable[[Sequence[str], Path, dict[str, str], float], "subprocess.CompletedProcess[str]"]

PINNED = "0.23.1"
FIX_PLUGIN = "approval_compaction.fix.suite_plugin"  # loaded by name in the release's interpreter
COUNTS_VARIABLE = "APPROVAL_COMPACTION_SUITE_COUNTS"
UPSTREAM_TEST = paths.ROOT / "tests" / "sdk_regression" / "upstream" / "pending_approval_cases.py"
UPSTREAM_TEST_NAME = "test_compaction_pending_approval_cases.py"  # its name inside the checkout
UPSTREAM_TEST_FOLDER = "tests/memory"
# A file is selected when it builds a compaction session, or runs approvals through a session.
COMPACTION = r"OpenAIResponsesCompactionSession|run_compaction|_defer_compaction"
APPROVAL = r"needs_approval|\.approve\(|\.reject\(|interruptions"
SESSION = r"session="
DEFAULT_WORKERS = 2
FETCH_TIMEOUT_SECONDS = 900
SYNC_TIMEOUT_SECONDS = 1800
SUITE_TIMEOUT_SECONDS = 3600
CHECK_TIMEOUT_SECONDS = 600

# The changes the workaround is meant to make on the pinned release, by test id (a prefix).
INTENDED: dict[str, str] = {
    f"{UPSTREAM_TEST_FOLDER}/{UPSTREAM_TEST_NAME}::": (
        "the project's upstream-form regression test: it fails on an affected release and "
        "passes once automatic compaction waits for the pending call"
    ),
}


class UpstreamError(InvestigationError):
    """The SDK's suite cannot be fetched, set up or run."""


@dataclass(frozen=True)
class Checkout:
    """A release's unpacked sdist and the development environment its Makefile makes."""

    version: str
    folder: Path  # the unpacked sdist: tests/, Makefile, uv.lock

    @property
    def python(self) -> Path:
        return self.folder / ".venv" / "bin" / "python"

    @property
    def marker(self) -> Path:
        return self.folder.parent / "approval-compaction.json"

    def ready(self, command: Sequence[str]) -> bool:
        try:
            recorded = json.loads(self.marker.read_text())
        except (OSError, ValueError):
            return False
        return bool(recorded == self.spec(command)) and self.python.exists()

    def spec(self, command: Sequence[str]) -> dict[str, object]:
        return {PACKAGE: self.version, "sync": list(command)}


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
class SuiteChange:
    """A test whose outcome differs with the workaround, and why when that is intended."""

    sdk_version: str
    test: str
    baseline: str
    fixed: str
    message: str  # the failing assertion of whichever run failed
    reason: str  # empty: not explained


@dataclass(frozen=True)
class SuiteCheck:
    """The upstream-form regression test under the release's own tools."""

    sdk_version: str
    check: str  # ruff check, ruff format, pyright
    passed: bool
    message: str


def run_command(
    command: Sequence[str], cwd: Path, env: dict[str, str], timeout: float
) -> subprocess.CompletedProcess[str]:
    """Run a command to completion, capturing its text output, without raising on failure."""
    return subprocess.run(
        list(command),
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def default_root() -> Path:
    """Where release checkouts live: beside the sweep's environments, in the user's cache."""
    return environments.default_envs() / "_upstream"


def sync_command(makefile: Path, uv: str) -> list[str]:
    """The Makefile's ``sync`` recipe, with this project's uv and interpreter."""
    lines = makefile.read_text().splitlines()
    for index, line in enumerate(lines):
        if line.startswith("sync:"):
            recipe = lines[index + 1].strip() if index + 1 < len(lines) else ""
            words = recipe.split()
            if words[:2] == ["uv", "sync"]:
                return [uv, *words[1:], "--python", sys.executable]
            raise UpstreamError(f"{makefile}: the sync target runs {recipe!r}, not uv sync")
    raise UpstreamError(f"{makefile} has no sync target")


def fetch(version: str, root: Path, run: Runner = run_command) -> Path:
    """The unpacked sdist of ``openai-agents==version`` under ``root/version``, fetched by pip."""
    home = root / version
    folder = home / f"openai_agents-{version}"
    if (folder / "Makefile").exists():
        return folder
    home.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
    command += ["--no-binary", ":all:", "-d", str(home), f"{PACKAGE}=={version}"]
    proc = run(command, home, dict(os.environ), FETCH_TIMEOUT_SECONDS)
    archives = sorted(home.glob("*.tar.gz"))
    if proc.returncode != 0 or not archives:
        why = environments.last_line(proc.stderr)
        raise UpstreamError(f"{PACKAGE}=={version}: no sdist: {why}")
    unpack(archives[0], home)
    if not (folder / "Makefile").exists():
        raise UpstreamError(f"{archives[0].name} has no Makefile at {folder.name}/")
    return folder


def unpack(archive: Path, into: Path) -> None:
    """Extract an sdist, refusing members that would land outside ``into``."""
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")


def prepare(
    version: str, root: Path, *, run: Runner = run_command, report: Report = print
) -> Checkout:
    """The release's checkout with its development environment, made once and reused."""
    checkout = Checkout(version, fetch(version, root, run))
    command = sync_command(checkout.folder / "Makefile", environments.uv_binary())
    if checkout.ready(command):
        return checkout
    report(f"{version}: uv {' '.join(command[1:])}")
    env = environments.isolated_environ(with_package=False)
    proc = run(command, checkout.folder, env, SYNC_TIMEOUT_SECONDS)
    if proc.returncode != 0:
        raise UpstreamError(f"{version}: make sync failed: {environments.last_line(proc.stderr)}")
    write_atomic(checkout.marker, json.dumps(checkout.spec(command), sort_keys=True) + "\n")
    return checkout


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


def install_upstream_test(folder: Path, source: Path = UPSTREAM_TEST) -> str:
    """Copy the upstream-form regression test into the checkout; return its path there."""
    target = folder / UPSTREAM_TEST_FOLDER / UPSTREAM_TEST_NAME
    shutil.copyfile(source, target)
    return target.relative_to(folder).as_posix()


def test_id(case: ET.Element) -> str:
    """``tests/x/test_y.py::Class::test_z[param]`` from a JUnit test case."""
    parts = case.attrib.get("classname", "").split(".")
    name = case.attrib.get("name", "?")
    # classname is the module path with dots, then any classes: find where the file ends.
    for cut in range(len(parts), 0, -1):
        candidate = "/".join(parts[:cut]) + ".py"
        if parts[cut - 1].startswith("test_") or cut == 1:
            return "::".join([candidate, *parts[cut:], name])
    return name


def clean_message(text: str) -> str:
    """A failure message on one line, without memory addresses (the results are committed)."""
    return re.sub(r" at 0x[0-9a-fA-F]+", "", " ".join(text.split()))[:300]


def parse_junit(text: str) -> list[CaseOutcome]:
    """Each test case of a JUnit XML report, with its failure's first line."""
    outcomes = []
    for case in ET.fromstring(text).iter("testcase"):
        result, message = "passed", ""
        for tag in ("failure", "error", "skipped"):
            child = case.find(tag)
            if child is not None:
                result = {"failure": "failed"}.get(tag, tag)
                message = clean_message(child.attrib.get("message") or "")
                break
        outcomes.append(CaseOutcome(test_id(case), result, message))
    return outcomes


def suite_environ(fix: bool, counts: Path) -> dict[str, str]:
    """The release's interpreter's variables: isolated, and with the plugin's package if fixing."""
    env = environments.isolated_environ(with_package=fix)
    env[COUNTS_VARIABLE] = str(counts)
    return env


def pytest_commands(
    checkout: Checkout, files: Sequence[str], fix: bool, workers: int, reports: Path
) -> list[list[str]]:
    """As the Makefile's ``tests`` target: shard-safe tests on xdist, then ``serial`` alone."""
    base = [str(checkout.python), "-m", "pytest", *files, "-q", "-p", "no:cacheprovider"]
    if fix:
        base += ["-p", FIX_PLUGIN]
    parallel = [*base, "-n", str(workers), "--dist", "worksteal", "-m", "not serial"]
    serial = [*base, "-m", "serial"]
    return [
        [*parallel, f"--junitxml={reports / 'parallel.xml'}"],
        [*serial, f"--junitxml={reports / 'serial.xml'}"],
    ]


def run_suite(
    checkout: Checkout,
    files: Sequence[str],
    *,
    fix: bool,
    workers: int = DEFAULT_WORKERS,
    run: Runner = run_command,
) -> tuple[list[CaseOutcome], int]:
    """Run the selected files once; the outcomes and how many sessions the plugin upgraded."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-upstream-") as scratch:
        reports = Path(scratch)
        counts = reports / "counts"
        counts.mkdir()
        env = suite_environ(fix, counts)
        outcomes: list[CaseOutcome] = []
        for command in pytest_commands(checkout, files, fix, workers, reports):
            proc = run(command, checkout.folder, env, SUITE_TIMEOUT_SECONDS)
            report = Path(command[-1].split("=", 1)[1])
            if not report.exists():
                tail = environments.last_line(proc.stdout + proc.stderr)
                raise UpstreamError(f"{checkout.version}: pytest wrote no report: {tail}")
            outcomes += parse_junit(report.read_text())
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


def reason_for(test: str, intended: dict[str, str] = INTENDED) -> str:
    """The explanation of an intended change, or empty."""
    return next((why for prefix, why in intended.items() if test.startswith(prefix)), "")


def changes(
    version: str,
    baseline: Iterable[CaseOutcome],
    fixed: Iterable[CaseOutcome],
    intended: dict[str, str] = INTENDED,
) -> list[SuiteChange]:
    """Every test whose outcome differs between the runs (missing in one counts as a change)."""
    before = {o.test: o for o in baseline}
    after = {o.test: o for o in fixed}
    found = []
    for test in sorted(before.keys() | after.keys()):
        old = before.get(test, CaseOutcome(test, "missing", ""))
        new = after.get(test, CaseOutcome(test, "missing", ""))
        if old.outcome != new.outcome:
            message = new.message if new.outcome != "passed" else old.message
            reason = reason_for(test, intended)
            found.append(SuiteChange(version, test, old.outcome, new.outcome, message, reason))
    return found


def check_commands(checkout: Checkout, test: str) -> dict[str, list[str]]:
    """The release's own ruff and pyright on one test file, as its Makefile configures them."""
    tools = checkout.python.parent
    return {
        "ruff check": [str(tools / "ruff"), "check", test],
        "ruff format": [str(tools / "ruff"), "format", "--check", test],
        "pyright": [str(tools / "pyright"), "--project", "pyrightconfig.json", test],
    }


def run_checks(checkout: Checkout, test: str, run: Runner = run_command) -> list[SuiteCheck]:
    """Each check of the upstream-form test: passed, or the first line it complained with."""
    env = environments.isolated_environ(with_package=False)
    env["PATH"] = os.pathsep.join([str(checkout.python.parent), env.get("PATH", "")])
    found = []
    for name, command in check_commands(checkout, test).items():
        proc = run(command, checkout.folder, env, CHECK_TIMEOUT_SECONDS)
        complaint = _complaint(proc.stdout + proc.stderr) if proc.returncode else ""
        found.append(SuiteCheck(checkout.version, name, proc.returncode == 0, complaint))
    return found


def _complaint(text: str) -> str:
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    told = [line for line in lines if re.search(r"error|Would reformat|\b[A-Z]+\d+\b", line)]
    return (told or lines or ["no output"])[0][:300]


@dataclass(frozen=True)
class SuiteResult:
    """Everything one ``upstream-suite`` run found on one release."""

    runs: list[SuiteRun]
    changes: list[SuiteChange]
    checks: list[SuiteCheck]

    @property
    def unexplained(self) -> list[SuiteChange]:
        return [c for c in self.changes if not c.reason]


def upstream_suite(
    version: str,
    *,
    fix: bool = True,
    pattern: str | None = None,
    root: Path | None = None,
    workers: int = DEFAULT_WORKERS,
    run: Runner = run_command,
    report: Report = print,
) -> SuiteResult:
    """Set up the release, check the upstream-form test, run the selection (twice with ``fix``)."""
    checkout = prepare(version, root or default_root(), run=run, report=report)
    ours = install_upstream_test(checkout.folder)
    checks = run_checks(checkout, ours, run)
    files = sorted({*select_files(checkout.folder / "tests", pattern), ours})
    report(f"{version}: {len(files)} test files selected")
    baseline, _ = run_suite(checkout, files, fix=False, workers=workers, run=run)
    runs = [summarize(version, "baseline", len(files), baseline, 0)]
    report(_tally(runs[-1]))
    found: list[SuiteChange] = []
    if fix:
        fixed, upgraded = run_suite(checkout, files, fix=True, workers=workers, run=run)
        runs.append(summarize(version, "fix", len(files), fixed, upgraded))
        report(_tally(runs[-1]))
        found = confirm(checkout, changes(version, baseline, fixed), workers=workers, run=run)
    return SuiteResult(runs, found, checks)


def confirm(
    checkout: Checkout,
    found: Sequence[SuiteChange],
    *,
    workers: int = DEFAULT_WORKERS,
    run: Runner = run_command,
) -> list[SuiteChange]:
    """Re-run each unexplained change alone, both ways; one that does not recur is timing.

    A test that fails once under load (a timeout while other workers hold the cores) and passes
    on its own in both runs is not a change the workaround made: it keeps its record, with the
    re-run's outcomes as its reason.
    """
    suspects = [c.test for c in found if not c.reason]
    if not suspects:
        return list(found)
    again, _ = run_suite(checkout, suspects, fix=False, workers=workers, run=run)
    fixed, _ = run_suite(checkout, suspects, fix=True, workers=workers, run=run)
    recurring = {c.test for c in changes(checkout.version, again, fixed)}
    before = {o.test: o.outcome for o in again}
    after = {o.test: o.outcome for o in fixed}
    kept = []
    for change in found:
        if change.reason or change.test in recurring:
            kept.append(change)
            continue
        note = (
            f"not reproduced: re-run alone, {before.get(change.test, 'missing')} without and "
            f"{after.get(change.test, 'missing')} with the workaround (a failure under load)"
        )
        kept.append(replace(change, reason=note))
    return kept


def _tally(run: SuiteRun) -> str:
    return (
        f"{run.sdk_version} {run.variant}: {run.tests} tests, {run.passed} passed, "
        f"{run.failed} failed, {run.error} errors, {run.skipped} skipped"
        + (f"; {run.sessions_upgraded} sessions made deferring" if run.variant == "fix" else "")
    )


def result_paths(version: str, folder: Path = paths.DATA) -> dict[str, Path]:
    """Where a release's results are committed: the changes, the runs and the checks."""
    return {
        "changes": folder / f"upstream-suite-{version}.json",
        "runs": folder / f"upstream-suite-{version}-runs.json",
        "checks": folder / f"upstream-suite-{version}-checks.json",
    }


def write(result: SuiteResult, version: str, folder: Path = paths.DATA) -> list[Path]:
    """The three record files of a release (JSON and CSV each, the changes as markdown too)."""
    where = result_paths(version, folder)
    rows = [(c.test, c.baseline, c.fixed, c.reason or "NOT EXPLAINED") for c in result.changes]
    markdown = markdown_table_rows(("test", "baseline", "fix", "reason"), rows)
    written = write_records(where["changes"], result.changes, SuiteChange, markdown=markdown)
    written += write_records(where["runs"], result.runs, SuiteRun)
    written += write_records(where["checks"], result.checks, SuiteCheck)
    return written


def markdown_table_rows(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A markdown table of plain rows (a line saying none when there are none)."""
    import pandas as pd

    if not rows:
        return "No test changes its outcome.\n"
    frame = pd.DataFrame(list(rows), columns=list(header)).set_index(header[0])
    return markdown_table(frame) + "\n"


def load(version: str, folder: Path = paths.DATA) -> SuiteResult:
    """A release's committed results."""
    where = result_paths(version, folder)
    return SuiteResult(
        read_records(where["runs"], SuiteRun),
        read_records(where["changes"], SuiteChange),
        read_records(where["checks"], SuiteCheck),
    )


def render(result: SuiteResult, form: str) -> str:
    """The result as a plain table or as JSON."""
    if form == "json":
        payload = {
            "runs": json.loads(records_json(result.runs)),
            "changes": json.loads(records_json(result.changes)),
            "checks": json.loads(records_json(result.checks)),
        }
        return json.dumps(payload, indent=2) + "\n"
    lines = [_tally(run) for run in result.runs]
    lines += [
        f"check {c.check}: {'ok' if c.passed else 'FAILED: ' + c.message}" for c in result.checks
    ]
    if not result.changes:
        lines.append("no test changes its outcome")
    for change in result.changes:
        lines.append(f"{change.test}: {change.baseline} -> {change.fixed}")
        lines.append(f"    {change.message or '(no message)'}")
        lines.append(f"    {change.reason or 'NOT EXPLAINED'}")
    return "\n".join(lines) + "\n"


def command(args: argparse.Namespace) -> int:
    """``upstream-suite``: exit 1 if a change is unexplained or a check of our test fails."""
    started = time.monotonic()
    version = args.release or PINNED
    report: Report = (lambda line: print(line, file=sys.stderr)) if args.format == "json" else print
    result = upstream_suite(
        version,
        fix=args.fix,
        pattern=args.select,
        root=Path(args.root) if args.root else None,
        workers=args.workers,
        report=report,
    )
    sys.stdout.write(render(result, args.format))
    if args.write:
        for path in write(result, version, Path(args.folder)):
            report(f"wrote {path.relative_to(Path(args.folder).parent)}")
        if Path(args.folder).resolve() == paths.DATA.resolve() and update_readme():
            report("README upstream-suite block updated")
    report(f"{version}: {time.monotonic() - started:.0f} s")
    failed_checks = [c for c in result.checks if not c.passed]
    return 1 if result.unexplained or failed_checks else 0


def suite_runs(versions: Sequence[str], folder: Path = paths.DATA) -> pd.DataFrame:
    """The committed runs of each release: tests, outcomes, sessions the plugin upgraded."""
    from ..analysis.table import to_frame

    rows = [run for version in versions for run in load(version, folder).runs]
    return to_frame(rows, SuiteRun).set_index(["sdk_version", "variant"])


def suite_changes(versions: Sequence[str], folder: Path = paths.DATA) -> pd.DataFrame:
    """Every test whose outcome the workaround changed, with its assertion and its reason."""
    from ..analysis.table import to_frame

    rows = [c for version in versions for c in load(version, folder).changes]
    frame = to_frame(rows, SuiteChange)
    frame["reason"] = frame["reason"].where(frame["reason"] != "", "NOT EXPLAINED")
    return frame.set_index(["sdk_version", "test"])


def suite_checks(versions: Sequence[str], folder: Path = paths.DATA) -> pd.DataFrame:
    """The upstream-form regression test under each release's ruff and pyright."""
    from ..analysis.table import to_frame

    rows = [c for version in versions for c in load(version, folder).checks]
    frame = to_frame(rows, SuiteCheck)
    frame["passed"] = frame["passed"].map({True: "passed", False: "FAILED"})
    return frame.pivot(index="sdk_version", columns="check", values="passed")


def _outcomes(count: int) -> str:
    return "1 outcome changes" if count == 1 else f"{count:,} outcomes change"


def suite_answer(versions: Sequence[str], folder: Path = paths.DATA) -> str:
    """One sentence per release, from its committed results."""
    sentences = []
    for version in versions:
        result = load(version, folder)
        fixed = next((r for r in result.runs if r.variant == "fix"), None)
        if fixed is None:
            sentences.append(f"openai-agents {version}: run without the workaround only.")
            continue
        explained = len(result.changes) - len(result.unexplained)
        sentences.append(
            f"openai-agents {version}: {fixed.tests:,} tests in {fixed.files} files, "
            f"{fixed.sessions_upgraded:,} compaction sessions made deferring; "
            f"{_outcomes(len(result.changes))} with the workaround "
            f"({explained} explained, {len(result.unexplained)} not)."
        )
    return " ".join(sentences)


README_START, README_END = "<!-- upstream-suite:start -->", "<!-- upstream-suite:end -->"


def written_versions(folder: Path = paths.DATA) -> list[str]:
    """Releases with committed results, oldest first."""
    from .versions import sort_versions

    runs = folder.glob("upstream-suite-*-runs.json")
    return sort_versions(
        p.name.removeprefix("upstream-suite-").removesuffix("-runs.json") for p in runs
    )


def readme_block(versions: Sequence[str], folder: Path = paths.DATA) -> str:
    """The README's lines on the SDK's suite: per release its answer and each change's reason."""
    lines = []
    for version in versions:
        result = load(version, folder)
        lines.append(f"- {suite_answer([version], folder)}")
        groups: dict[tuple[str, str, str, str], list[str]] = {}
        for change in result.changes:
            name, _, param = change.test.partition("[")
            key = (name, change.baseline, change.fixed, change.reason or "NOT EXPLAINED")
            groups.setdefault(key, []).append(param.rstrip("]"))
        for (name, baseline, fixed, why), params in groups.items():
            cases = f" ({', '.join(params)})" if any(params) else ""
            lines.append(f"  - `{name}`{cases}: {baseline} → {fixed}; {why}")
    return "\n".join(lines)


def update_readme(readme: Path = paths.README, folder: Path = paths.DATA) -> bool:
    """Rewrite the README's block from the committed results; whether it changed."""
    text = readme.read_text()
    if README_START not in text or README_END not in text:
        raise UpstreamError(f"{readme.name} has no {README_START} ... {README_END} block")
    head, rest = text.split(README_START, 1)
    _, tail = rest.split(README_END, 1)
    block = readme_block(written_versions(folder), folder)
    new = f"{head}{README_START}\n{block}\n{README_END}{tail}"
    if new != text:
        write_atomic(readme, new)
    return new != text
