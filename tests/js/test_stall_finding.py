"""The stall's finding, read from the committed data: the boundary, what each package does, the
two answer shapes, the tests, and the words the docs say of the range."""

from __future__ import annotations

import pytest

from approval_compaction.js.packages import pinned, releases
from approval_compaction.js.stall_finding import (
    StallFinding,
    load_stall,
    ranges_frame,
    shapes_frame,
    summary_frame,
    turns_frame,
    vitest_frame,
)
from approval_compaction.lab import paths


@pytest.fixture(scope="module")
def stall() -> StallFinding:
    found = load_stall()
    assert found is not None, "make js-stall writes data/js-stall*.json"
    return found


def test_the_sweep_judged_every_release_and_names_one_boundary(stall: StallFinding) -> None:
    assert sorted({r.release for r in stall.sweep}) == sorted(releases())
    edge = stall.boundary
    assert edge.contiguous and edge.newest == releases()[-1]
    assert edge.stalling == tuple(releases()[releases().index(edge.first_bad) :])
    assert releases().index(edge.last_good) == releases().index(edge.first_bad) - 1


def test_the_first_bad_release_stalls_in_every_mode_runner_and_trigger(stall: StallFinding) -> None:
    """With the documented answer every plan of the first bad release stops compacting, and
    every plan of the last good one keeps compacting; with the item alone both keep it."""
    for release, stalls in ((stall.boundary.first_bad, True), (stall.boundary.last_good, False)):
        mine = [r for r in stall.sweep if r.release == release]
        assert len(mine) == 16
        assert {r.stalls for r in mine if r.shape == "keeps_users"} == {stalls}
        assert {r.stalls for r in mine if r.shape == "summary_only"} == {False}


def test_the_default_trigger_compacts_once_on_a_bad_release_and_every_tenth_on_a_good_one(
    stall: StallFinding,
) -> None:
    bad = stall.conversation(stall.boundary.first_bad)
    good = stall.conversation(stall.boundary.last_good)
    assert bad.compacted_turns() == [10]
    assert good.compacted_turns() == [10, 20, 30]
    assert bad.stored_counts()[-1] > good.stored_counts()[-1]


def test_the_workaround_and_both_patches_compact_whenever_asked_and_the_pending_patch_does_not(
    stall: StallFinding,
) -> None:
    for variant in (
        "workaround",
        "agents-openai-0.20.0-stall.diff",
        "agents-openai-0.20.0-both.diff",
    ):
        mine = [r for r in stall.variants if r.variant == variant]
        assert len(mine) == 16 and not any(r.stalls or r.error for r in mine), variant
    pending = [
        r for r in stall.variants
        if r.variant == "agents-openai-0.20.0.diff" and r.shape == "keeps_users"
    ]  # fmt: skip
    assert pending and all(r.stalls for r in pending)


def test_the_python_sdks_newest_release_keeps_compacting(stall: StallFinding) -> None:
    assert len(stall.python) == 4
    assert not any(r.stalls or r.error for r in stall.python)


def test_the_frames_show_the_packages_the_report_names(stall: StallFinding) -> None:
    turns = turns_frame(stall)
    assert len(turns) == 32 and len(turns.columns) == 5
    assert turns.iloc[:, 0].max() < turns.iloc[:, 2].max()  # last good stays below the newest
    summary = summary_frame(stall)
    assert summary.index[-1].endswith("(Python)")
    assert summary.iloc[2, 0].startswith("stops compacting")
    assert summary.iloc[4, 0].startswith("keeps compacting")
    shapes = shapes_frame(stall)
    assert list(shapes.columns) == [
        "keeps_users: stored", "keeps_users: compacted",
        "summary_only: stored", "summary_only: compacted",
    ]  # fmt: skip
    assert shapes.loc[20, "summary_only: compacted"] == "yes"
    assert shapes.loc[20, "keeps_users: compacted"] == ""
    assert len(ranges_frame(stall.sweep)) >= 2


def test_the_tests_fail_from_the_boundary_and_pass_before_it_and_patched(
    stall: StallFinding,
) -> None:
    """The stall's test fails on the first bad release and the pinned one, passes on the last
    good one and patched; the guard #1953 added passes from the boundary on and patched, and
    fails before it (it is what #1953 fixed)."""
    frame = vitest_frame(stall).reset_index()
    failed = {(r.package, r.test): r.failed for r in frame.itertuples()}
    stall_test = "openaiResponsesCompactionSession.stall.test.ts"
    guard = "openaiResponsesCompactionSession.filteredHistory.test.ts"
    edge = stall.boundary
    patched = f"{pinned()}+agents-openai-0.20.0-stall.diff"
    assert failed[(edge.last_good, stall_test)] == 0
    assert failed[(edge.first_bad, stall_test)] > 0 and failed[(pinned(), stall_test)] > 0
    assert failed[(patched, stall_test)] == 0 and failed[(patched, guard)] == 0
    assert failed[(edge.first_bad, guard)] == 0 and failed[(edge.last_good, guard)] > 0


def test_the_docs_state_the_range_the_sweep_found(stall: StallFinding) -> None:
    """docs/javascript.md and docs/workaround.md name the releases as the sweep found them."""
    edge = stall.boundary
    javascript = (paths.DOCS / "javascript.md").read_text()
    assert f"`@openai/agents` {edge.first_bad} on ({' and '.join(edge.stalling)}" in javascript
    assert f"while {edge.last_good} and every" in javascript
    workaround = " ".join((paths.DOCS / "workaround.md").read_text().split())
    assert f"(from {edge.first_bad}: {' and '.join(edge.stalling)}," in workaround
