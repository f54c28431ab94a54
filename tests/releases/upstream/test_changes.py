"""Changes: each different outcome with its reason, and a timing failure told apart."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from approval_compaction.lab.releases.upstream import changes
from approval_compaction.lab.releases.upstream.checkout import (
    LIVENESS_TEST_NAME,
    UPSTREAM_TEST_FOLDER,
    UPSTREAM_TEST_NAME,
    Checkout,
)
from approval_compaction.lab.releases.upstream.suite import CaseOutcome


def test_changes_lists_each_different_outcome_with_its_reason() -> None:
    before = [CaseOutcome("a::t", "passed", ""), CaseOutcome("b::t", "failed", "boom")]
    after = [CaseOutcome("a::t", "failed", "assert x"), CaseOutcome("b::t", "passed", "")]
    found = changes.changes("9.9.9", before, after, intended={"b::": "meant"})
    assert [(c.test, c.baseline, c.fixed, c.message, c.reason) for c in found] == [
        ("a::t", "passed", "failed", "assert x", ""),
        ("b::t", "failed", "passed", "boom", "meant"),
    ]
    missing = changes.changes("9.9.9", before, after[:1])
    assert [(c.test, c.fixed) for c in missing] == [("a::t", "failed"), ("b::t", "missing")]


def test_our_upstream_form_test_is_the_intended_change() -> None:
    ours = f"{UPSTREAM_TEST_FOLDER}/{UPSTREAM_TEST_NAME}::test_x[approve-run]"
    assert changes.reason_for(ours).startswith("the project's upstream-form regression test")
    assert changes.reason_for("tests/test_other.py::test_x") == ""


def test_the_liveness_tests_changes_are_explained_only_in_their_direction() -> None:
    """The workaround makes the bounded-history test pass (on an affected release a strict xfail
    that passes, an XPASS(strict) failure) and the resumed-later test pass for a function call
    and, its stated cost, fail for an MCP request; a change that ends the other way is not
    explained."""
    folder = f"{UPSTREAM_TEST_FOLDER}/{LIVENESS_TEST_NAME}::"
    bounded = f"{folder}test_compaction_keeps_history_bounded_after_unpaired_item[lost-x-run]"
    xfailed = f"{folder}test_compaction_keeps_history_bounded_after_unpaired_item[lost-y-run]"
    resumed = f"{folder}test_abandoned_approval_resumed_later_stays_paired[mcp-x-run]"
    late = f"{folder}test_abandoned_approval_resumed_later_stays_paired[function-x-run]"
    before = [
        CaseOutcome(bounded, "failed", "grew"),
        CaseOutcome(xfailed, "skipped", "this release orphans the pending call"),
        CaseOutcome(resumed, "passed", ""),
        CaseOutcome(late, "skipped", "this release orphans the pending call"),
    ]
    after = [
        CaseOutcome(bounded, "passed", ""),
        CaseOutcome(xfailed, "failed", "[XPASS(strict)] this release orphans the pending call"),
        CaseOutcome(resumed, "failed", "the response must pair"),
        CaseOutcome(late, "failed", "[XPASS(strict)] this release orphans the pending call"),
    ]
    found = {c.test: c.reason for c in changes.changes("0.24.0", before, after)}
    assert "compaction runs again" in found[bounded] and found[xfailed] == found[bounded]
    assert "stated cost" in found[resumed] and "stored as text" in found[resumed]
    assert "nothing unpaired" in found[late] and "stated cost" not in found[late]
    backwards = {c.test: c.reason for c in changes.changes("0.24.0", after, before)}
    assert backwards == {bounded: "", xfailed: "", resumed: "", late: ""}
    broken = [CaseOutcome(xfailed, "failed", "AssertionError: grew")]  # a real failure
    assert [c.reason for c in changes.changes("0.23.1", before[1:2], broken)] == [""]


def test_a_change_that_does_not_recur_alone_is_marked_not_reproduced(
    root: Path, fake: Callable[..., Any]
) -> None:
    flaky, real = "tests/test_approvals.py::test_timing", "tests/test_approvals.py::test_real"
    runner = fake({flaky: None, real: None}, {flaky: None, real: "assert deferred"})
    checkout = Checkout("9.9.9", root / "9.9.9" / "openai_agents-9.9.9")
    found = [
        changes.SuiteChange("9.9.9", flaky, "failed", "passed", "wait(timeout=30)", ""),
        changes.SuiteChange("9.9.9", real, "passed", "failed", "assert deferred", ""),
    ]
    kept = changes.confirm(checkout, found, run=runner)
    assert kept[0].reason == (
        "not reproduced: re-run alone, passed without and passed with the workaround "
        "(a failure under load)"
    )
    assert kept[1] == found[1]  # it recurs: still unexplained
    assert all(c[3:5] == [flaky, real] for c in runner.commands if "pytest" in c)  # by id


def test_unreproduced_marked_names_the_side_and_keeps_what_recurs_or_is_explained() -> None:
    """One rule for the suite's re-run (with the workaround) and the patch lab's (with the
    patch): an unexplained change that re-runs the same both ways is a failure under load."""
    found = [
        changes.SuiteChange("0.24.0", "a::t", "passed", "failed", "boom", ""),
        changes.SuiteChange("0.24.0", "b::t", "passed", "failed", "boom", ""),
        changes.SuiteChange("0.24.0", "c::t", "failed", "passed", "", "meant"),
    ]
    before = {"a::t": "passed", "b::t": "passed", "c::t": "passed"}
    after = {"a::t": "passed", "b::t": "failed", "c::t": "passed"}
    marked = changes.unreproduced_marked(found, before, after, "the patch")
    assert [c.reason for c in marked] == [
        f"{changes.NOT_REPRODUCED}: re-run alone, passed without and passed with the patch "
        "(a failure under load)",
        "",
        "meant",
    ]
    gone = changes.unreproduced_marked(found[:1], {}, {}, "the workaround")
    assert gone[0].reason.startswith("not reproduced: re-run alone, missing without and missing")


def test_committed_changes_carry_the_reason_the_code_gives_them() -> None:
    """Issue 61 (r4): three tests the workaround makes fail on both releases were recorded as
    NOT EXPLAINED while notebook 06 recommended the workaround without a caveat; their causes,
    found by a run, are now in ``INTENDED``. Each committed change's reason is what the code
    gives it (a change a re-run alone did not repeat keeps the re-run's note)."""
    from approval_compaction.lab.releases.upstream.results import load

    for release in ("0.23.1", "0.24.0"):
        for change in load(release, Path("data")).changes:
            if change.reason.startswith(changes.NOT_REPRODUCED):
                continue
            ended = changes.passed_in_effect(CaseOutcome(change.test, change.fixed, change.message))
            assert change.reason == changes.reason_for(change.test, ends_in=ended), change.test
        worse = [
            c
            for c in load(release, Path("data")).changes
            if c.baseline == "passed" and not c.reason
        ]
        assert worse == [], f"{release}: a test the workaround makes fail, unexplained"
