"""Results: everything one ``upstream-suite`` run found on a release, written and read back.

A release's results are four record files under ``data/`` (``paths.Data.upstream_suite``):
the changes (with a markdown table beside them), the runs, the checks and the failing tests
(each run's failed and errored tests by name), each with its CSV.
The notebook's tables are read from them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ....analysis.table import to_frame
from ....formats.markdown import markdown_table
from ....formats.records import read_records, write_records
from ... import paths
from ..patched import labelled, one_label, read_labelled, unlabelled
from .changes import XPASS_STRICT, SuiteChange, shown_outcomes, xpassed_strict
from .checks import SuiteCheck
from .suite import SuiteFailure, SuiteRun, tally

if TYPE_CHECKING:  # pandas only for the notebook's tables
    import pandas as pd

NOT_EXPLAINED = "NOT EXPLAINED"


@dataclass(frozen=True)
class SuiteResult:
    """Everything one ``upstream-suite`` run found on one release (``patch``: the label of the
    patched SDK it ran, empty for the release as published)."""

    runs: list[SuiteRun]
    changes: list[SuiteChange]
    checks: list[SuiteCheck]
    patch: str = ""
    failures: list[SuiteFailure] = field(default_factory=list)

    @property
    def unexplained(self) -> list[SuiteChange]:
        return [c for c in self.changes if not c.reason]


@dataclass(frozen=True)
class PatchedSuiteRun(SuiteRun):
    patch: str


@dataclass(frozen=True)
class PatchedSuiteChange(SuiteChange):
    patch: str


@dataclass(frozen=True)
class PatchedSuiteCheck(SuiteCheck):
    patch: str


@dataclass(frozen=True)
class PatchedSuiteFailure(SuiteFailure):
    patch: str


def write(result: SuiteResult, version: str, folder: Path = paths.DATA) -> list[Path]:
    """The three record files of a release (JSON and CSV each, the changes as markdown too);
    a patched SDK's records each carry its label, so a released reader refuses them."""

    if result.patch:
        result = SuiteResult(
            labelled(result.runs, PatchedSuiteRun, result.patch),
            labelled(result.changes, PatchedSuiteChange, result.patch),
            labelled(result.checks, PatchedSuiteCheck, result.patch),
            result.patch,
            labelled(result.failures, PatchedSuiteFailure, result.patch),
        )
    schemas = (
        (PatchedSuiteRun, PatchedSuiteChange, PatchedSuiteCheck, PatchedSuiteFailure)
        if result.patch
        else (SuiteRun, SuiteChange, SuiteCheck, SuiteFailure)
    )
    where = paths.data(folder)
    changes = where.upstream_suite(version)
    written = write_records(
        changes, result.changes, schemas[1], markdown=changes_markdown(result.changes)
    )
    written += write_records(where.upstream_suite(version, "runs"), result.runs, schemas[0])
    written += write_records(where.upstream_suite(version, "checks"), result.checks, schemas[2])
    failed = where.upstream_suite(version, "failures")
    written += write_records(failed, result.failures, schemas[3])
    return written


def changes_markdown(changes: Sequence[SuiteChange]) -> str:
    """The changes as a table beside their records, outcomes in pytest's words."""
    import pandas as pd

    if not changes:
        return "No test changes its outcome.\n"
    rows = [
        (c.test, *shown_outcomes(c.baseline, c.fixed, c.message), c.reason or NOT_EXPLAINED)
        for c in changes
    ]
    frame = pd.DataFrame(rows, columns=["test", "baseline", "fix", "reason"]).set_index("test")
    return markdown_table(frame) + "\n"


def load(version: str, folder: Path = paths.DATA) -> SuiteResult:
    """A release's committed results."""
    where = paths.data(folder)
    return SuiteResult(
        read_records(where.upstream_suite(version, "runs"), SuiteRun),
        read_records(where.upstream_suite(version), SuiteChange),
        read_records(where.upstream_suite(version, "checks"), SuiteCheck),
        failures=read_records(where.upstream_suite(version, "failures"), SuiteFailure),
    )


def load_patched(version: str, folder: Path, label: str | None = None) -> SuiteResult:
    """A patched SDK's results (``upstream-suite --patch --write``); a one-line error when a
    file holds a release's records, or the three files do not name one patch (or, given
    ``label``, name another)."""

    where = paths.data(folder)
    runs = read_labelled(where.upstream_suite(version, "runs"), PatchedSuiteRun, label)
    found = read_labelled(where.upstream_suite(version), PatchedSuiteChange, label)
    checks = read_labelled(where.upstream_suite(version, "checks"), PatchedSuiteCheck, label)
    named = where.upstream_suite(version, "failures")  # written since the runs kept counts only
    failed = read_labelled(named, PatchedSuiteFailure, label) if named.exists() else []
    rows: list[Any] = [*runs, *found, *checks, *failed]
    patch = one_label((row.patch for row in rows), f"the upstream-suite results in {folder}")
    return SuiteResult(
        unlabelled(runs, SuiteRun),
        unlabelled(found, SuiteChange),
        unlabelled(checks, SuiteCheck),
        patch,
        unlabelled(failed, SuiteFailure),
    )


def render(result: SuiteResult, form: str) -> str:
    """The result as a plain table or as JSON."""
    if form == "json":
        return json.dumps(asdict(result), indent=2) + "\n"
    lines = [f"patched: {result.patch}"] if result.patch else []
    lines += [tally(run) for run in result.runs]
    lines += [
        f"check {c.check}: {'ok' if c.passed else 'FAILED: ' + c.message}" for c in result.checks
    ]
    if not result.changes:
        lines.append("no test changes its outcome")
    for change in result.changes:
        lines.append(f"{change.test}: {change.baseline} -> {change.fixed}")
        lines.append(f"    {change.message or '(no message)'}")
        lines.append(f"    {change.reason or NOT_EXPLAINED}")
    return "\n".join(lines) + "\n"


XPASSED = f"failed {XPASS_STRICT}"  # a strict expected failure that passed: a pass in effect
SKIPPED = "skipped or xfailed"  # JUnit records an expected failure as skipped


def suite_runs(versions: Sequence[str], folder: Path = paths.DATA) -> pd.DataFrame:
    """The committed runs of each release: tests, outcomes, sessions the plugin upgraded.
    ``failed`` leaves out the strict expected failures that passed (pytest counts them as
    failed): they are counted apart, under ``XPASSED``, from the changes that hold each one's
    message; ``skipped`` is named for what JUnit counts in it, expected failures included."""

    rows: list[SuiteRun] = []
    passing: dict[tuple[str, str], int] = {}
    for version in versions:
        result = load(version, folder)
        rows += result.runs
        for change in result.changes:
            for variant, outcome in (("baseline", change.baseline), ("fix", change.fixed)):
                if xpassed_strict(outcome, change.message):
                    passing[(version, variant)] = passing.get((version, variant), 0) + 1
    frame = to_frame(rows, SuiteRun).set_index(["sdk_version", "variant"])
    strict = [passing.get(key, 0) for key in frame.index]
    frame.insert(list(frame.columns).index("failed") + 1, XPASSED, strict)
    frame["failed"] -= frame[XPASSED]
    return frame.rename(columns={"skipped": SKIPPED})


def suite_changes(versions: Sequence[str], folder: Path = paths.DATA) -> pd.DataFrame:
    """Every test whose outcome the workaround changed, with its assertion and its reason; the
    outcomes in pytest's own words, as every published file names them (``shown_outcomes``:
    ``xfailed``, and ``failed [XPASS(strict)]`` for a strict expected failure that passed)."""

    rows = [c for version in versions for c in load(version, folder).changes]
    frame = to_frame(rows, SuiteChange)
    shown = [shown_outcomes(c.baseline, c.fixed, c.message) for c in rows]
    frame["baseline"] = [baseline for baseline, _ in shown]
    frame["fixed"] = [fixed for _, fixed in shown]
    frame["reason"] = frame["reason"].where(frame["reason"] != "", NOT_EXPLAINED)
    return frame.set_index(["sdk_version", "test"])


# the kind of call a liveness test's case leaves unanswered, by its first parameter
_KINDS = {"function": "function", "abandoned": "function", "lost": "function"}
_KINDS |= {"mcp": "mcp", "mcp_abandoned": "mcp"}
FLAKY = "AdvancedSQLiteSession tests (flaky; not the workaround's)"  # no compaction session
UNCHANGED = "·"


def suite_change_table(versions: Sequence[str], folder: Path = paths.DATA) -> pd.DataFrame:
    """Every change ``suite_changes`` holds, one row per test and one column per release, each
    cell ``as released → with it (cases)`` (``UNCHANGED`` where nothing changed): a test's
    cases grouped by the kind of call left unanswered (``[function]``, ``[mcp]``), the
    ``AdvancedSQLiteSession`` tests, which use no compaction session, one row (``FLAKY``); a
    strict expected failure that passed reads ``passed (expected to fail)``."""
    import re

    import pandas as pd

    def shown(outcome: str) -> str:
        return "passed (expected to fail)" if outcome == XPASSED else outcome

    def name(test: str) -> str:
        if "test_advanced_sqlite_session.py" in test:
            return FLAKY
        kind = re.search(r"\[(\w+)-", test)
        bare = re.sub(r"\[.*\]$", "", test).split("::")[-1]
        return f"{bare} [{_KINDS[kind[1]]}]" if kind and kind[1] in _KINDS else bare

    # per test and release, the count of each change (as released, with it), in first-seen order
    tally: dict[str, dict[str, dict[tuple[str, str], int]]] = {}
    changed = suite_changes(versions, folder).reset_index()
    for version, test, baseline, fixed in zip(
        changed["sdk_version"], changed["test"], changed["baseline"], changed["fixed"], strict=True
    ):
        per = tally.setdefault(name(str(test)), {}).setdefault(str(version), {})
        key = (shown(str(baseline)), shown(str(fixed)))
        per[key] = per.get(key, 0) + 1
    rows = {
        test: {
            v: ", ".join(f"{a} → {b} ({n})" for (a, b), n in sorted(by[v].items()))
            if v in by
            else UNCHANGED
            for v in versions
        }
        for test, by in sorted(tally.items())
    }
    return pd.DataFrame.from_dict(rows, orient="index", columns=list(versions)).rename_axis("test")


def suite_checks(versions: Sequence[str], folder: Path = paths.DATA) -> pd.DataFrame:
    """The upstream-form regression test under each release's ruff and pyright."""

    rows = [c for version in versions for c in load(version, folder).checks]
    frame = to_frame(rows, SuiteCheck)
    frame["passed"] = frame["passed"].map({True: "passed", False: "FAILED"})
    return frame.pivot(index="sdk_version", columns="check", values="passed")


def suite_failures(versions: Sequence[str], folder: Path = paths.DATA) -> pd.DataFrame:
    """The tests that fail (or error) both without and with the workaround, by name, with the
    message of the run without it: the failures the workaround leaves as they are. A strict
    expected failure that passed is a pass in effect, never listed."""

    rows = []
    for version in versions:
        failed = [
            f for f in load(version, folder).failures if not xpassed_strict(f.outcome, f.message)
        ]
        fixed = {f.test for f in failed if f.variant == "fix"}
        rows += [
            {"sdk_version": version, "test": f.test, "outcome": f.outcome, "message": f.message}
            for f in failed
            if f.variant == "baseline" and f.test in fixed
        ]
    import pandas as pd

    columns = ["sdk_version", "test", "outcome", "message"]
    return pd.DataFrame(rows, columns=columns).set_index(["sdk_version", "test"])
