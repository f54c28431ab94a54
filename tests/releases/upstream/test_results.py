"""Results: a release's four record files written, read back, rendered and tabled."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from approval_compaction.lab.releases.upstream import results
from approval_compaction.lab.releases.upstream.changes import reason_for
from approval_compaction.lab.releases.upstream.checkout import (
    UPSTREAM_TEST_FOLDER,
    UPSTREAM_TEST_NAME,
)
from approval_compaction.lab.releases.upstream.command import upstream_suite

OURS = f"{UPSTREAM_TEST_FOLDER}/{UPSTREAM_TEST_NAME}"


def test_results_round_trip_and_render(
    tmp_path: Path, root: Path, fake: Callable[..., Any]
) -> None:
    runner = fake({"tests/test_approvals.py::t": None}, {"tests/test_approvals.py::t": "no"})
    result = upstream_suite("9.9.9", root=root, run=runner, report=lambda _: None)
    written = results.write(result, "9.9.9", tmp_path / "data")
    assert sorted(p.name for p in written) == [
        "upstream-suite-9.9.9-checks.csv",
        "upstream-suite-9.9.9-checks.json",
        "upstream-suite-9.9.9-failures.csv",
        "upstream-suite-9.9.9-failures.json",
        "upstream-suite-9.9.9-runs.csv",
        "upstream-suite-9.9.9-runs.json",
        "upstream-suite-9.9.9.csv",
        "upstream-suite-9.9.9.json",
        "upstream-suite-9.9.9.md",
    ]
    loaded = results.load("9.9.9", tmp_path / "data")
    assert loaded == result
    assert [(f.variant, f.test, f.message) for f in loaded.failures] == [
        ("fix", "tests/test_approvals.py::t", "no")
    ]
    markdown = (tmp_path / "data" / "upstream-suite-9.9.9.md").read_text()
    assert "| tests/test_approvals.py::t | passed | failed | NOT EXPLAINED |" in markdown
    table = results.render(loaded, "table")
    assert "tests/test_approvals.py::t: passed -> failed" in table
    assert json.loads(results.render(loaded, "json"))["changes"][0]["fixed"] == "failed"


def test_no_change_is_said_in_the_markdown(
    tmp_path: Path, root: Path, fake: Callable[..., Any]
) -> None:
    result = upstream_suite("9.9.9", root=root, run=fake({}, {}), report=lambda _: None)
    results.write(result, "9.9.9", tmp_path)
    assert (tmp_path / "upstream-suite-9.9.9.md").read_text() == "No test changes its outcome.\n"


def test_notebook_tables_read_the_written_results(
    tmp_path: Path, root: Path, fake: Callable[..., Any]
) -> None:
    runner = fake(
        {"tests/test_approvals.py::t": None, f"{OURS}::test_x": "assert orphan"},
        {"tests/test_approvals.py::t": "assert deferred", f"{OURS}::test_x": None},
    )
    results.write(upstream_suite("9.9.9", root=root, run=runner, report=print), "9.9.9", tmp_path)
    changes = results.suite_changes(["9.9.9"], tmp_path)
    assert list(changes["reason"]) == [reason_for(f"{OURS}::test_x"), "NOT EXPLAINED"]
    assert results.suite_runs(["9.9.9"], tmp_path).loc[("9.9.9", "fix"), "failed"] == 1
    assert set(results.suite_checks(["9.9.9"], tmp_path).loc["9.9.9"]) == {"passed"}


def test_patched_results_carry_the_patch_and_a_reader_refuses_a_mix(
    tmp_path: Path, root: Path, fake: Callable[..., Any]
) -> None:
    import dataclasses

    import pytest

    from approval_compaction.errors import InvestigationError
    from approval_compaction.lab.releases.patched import PatchError

    runner = fake({"tests/test_approvals.py::t": None}, {"tests/test_approvals.py::t": "no"})
    plain = upstream_suite("9.9.9", root=root, run=runner, report=lambda _: None)
    result = dataclasses.replace(plain, patch="fix.diff sha256:ab")
    results.write(result, "9.9.9", tmp_path)
    rows = json.loads((tmp_path / "upstream-suite-9.9.9-runs.json").read_text())
    assert {row["patch"] for row in rows} == {"fix.diff sha256:ab"}
    assert results.load_patched("9.9.9", tmp_path, result.patch) == result
    with pytest.raises(InvestigationError, match="unexpected patch"):  # a release's reader
        results.load("9.9.9", tmp_path)
    other = tmp_path / "other"
    results.write(dataclasses.replace(plain, patch="b.diff sha256:cd"), "9.9.9", other)
    mixed = "upstream-suite-9.9.9-checks.json"
    (tmp_path / mixed).write_text((other / mixed).read_text())  # one file of another patch
    with pytest.raises(PatchError) as raised:
        results.load_patched("9.9.9", tmp_path)
    assert "mix results of different SDKs" in str(raised.value)
    assert "\n" not in str(raised.value)
    results.write(plain, "9.9.9", other)  # a release's files where a patch's are expected
    with pytest.raises(InvestigationError, match="missing patch"):
        results.load_patched("9.9.9", other)


def test_suite_runs_count_a_strict_xpass_as_a_pass_not_a_failure(tmp_path: Path) -> None:
    """pytest counts a strict expected failure that passed as ``failed``; the notebook's table
    moves it to its own column, so a reader does not read the workaround's passes as failures."""
    from approval_compaction.lab.releases.upstream.changes import SuiteChange
    from approval_compaction.lab.releases.upstream.suite import SuiteRun

    runs = [
        SuiteRun("9.9.9", "baseline", 1, 4, 2, 1, 0, 1, 0),
        SuiteRun("9.9.9", "fix", 1, 4, 1, 3, 0, 0, 1),
    ]
    changes = [
        SuiteChange("9.9.9", "t::xf", "skipped", "failed", "[XPASS(strict)] liveness", "why"),
        SuiteChange("9.9.9", "t::real", "passed", "failed", "assert deferred", ""),
    ]
    results.write(results.SuiteResult(runs, changes, []), "9.9.9", tmp_path)
    frame = results.suite_runs(["9.9.9"], tmp_path)
    assert frame.loc[("9.9.9", "fix"), ["failed", results.XPASSED]].tolist() == [2, 1]
    assert frame.loc[("9.9.9", "baseline"), ["failed", results.XPASSED]].tolist() == [1, 0]
    assert frame.loc[("9.9.9", "baseline"), results.SKIPPED] == 1


def test_suite_failures_names_the_tests_failing_with_and_without_the_workaround(
    tmp_path: Path, root: Path, fake: Callable[..., Any]
) -> None:
    """Issue 61: the runs kept how many tests failed, not which; a test failing both ways is
    listed by name with its message, one failing one way only is a change, not listed."""
    both, once = "tests/test_approvals.py::both", "tests/test_approvals.py::once"
    runner = fake({both: "env blocked", once: None}, {both: "env blocked", once: "assert deferred"})
    results.write(upstream_suite("9.9.9", root=root, run=runner, report=print), "9.9.9", tmp_path)
    same = results.suite_failures(["9.9.9"], tmp_path)
    assert list(same.index) == [("9.9.9", "tests/test_approvals.py::both")]
    assert same["message"].tolist() == ["env blocked"]


def test_committed_suite_counts_add_up_from_failures_in_both_and_changes() -> None:
    """Issue 61 (r6): 06's suite counts did not add up on screen (flips left out by rule went
    uncounted). In the committed records, each run's failures are those failing in both plus
    the changes whose outcome in that run is a failure; the strict passes are the changes to
    ``failed [XPASS(strict)]``. 06 shows all three, the changes none left out."""
    versions = ["0.23.1", "0.24.0"]
    runs = results.suite_runs(versions)
    both = results.suite_failures(versions).groupby("sdk_version").size()
    changed = results.suite_changes(versions).reset_index()
    for version in versions:
        mine = changed[changed["sdk_version"] == version]
        for variant, column in (("baseline", "baseline"), ("fix", "fixed")):
            row = runs.loc[(version, variant)]
            flipped = int(mine[column].isin(["failed", "error"]).sum())
            total = both.get(version, 0) + flipped
            assert row["failed"] + row["error"] == total, (version, variant)
            assert row["failed [XPASS(strict)]"] == int(
                mine[column].eq("failed [XPASS(strict)]").sum()
            )


def test_suite_change_table_counts_every_change_once_per_release() -> None:
    """Issue 61 (r13): 06's changes table, now computed in the package. Each release's cells
    count every change the committed records hold (none left out by rule, r6), a test's cases
    grouped by the kind of call left unanswered, the `AdvancedSQLiteSession` tests one row."""
    versions = ["0.23.1", "0.24.0"]
    table = results.suite_change_table(versions)
    changed = results.suite_changes(versions).reset_index()
    for version in versions:
        cases = table[version].str.findall(r"\((\d+)\)").map(lambda ns: sum(map(int, ns)))
        assert cases.sum() == (changed["sdk_version"] == version).sum(), version
    assert results.FLAKY in table.index and list(table.columns) == versions
    grouped = [t for t in table.index if "[" in t]
    assert grouped and all(t.endswith(("[function]", "[mcp]")) for t in grouped)
    assert (table == results.UNCHANGED).any(axis=None)
