"""Searched: a driver's search results read as records (no SDK, no hypothesis), the tables the
report and notebooks show, and a new stall in its release's verdict."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from approval_compaction.adk.finding import searched_verdicts
from approval_compaction.lab.explore import driven, replay
from approval_compaction.lab.explore.search import Options
from approval_compaction.lab.findings.liveness import STUCK
from approval_compaction.lab.findings.searched import (
    SearchedCase,
    fix_words,
    fixes_left,
    search_coverage,
    searched_cases,
    searched_frame,
)
from approval_compaction.lab.findings.verdict import BUG, ReleaseVerdict
from tests.explore.driver_fake import MOVES, FakeDriver


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A search on the fake driver, saved as ``explore --driver`` saves one."""
    found = tmp_path_factory.mktemp("data")
    result = driven.search(MOVES, FakeDriver(), Options(examples=60, rounds=3))
    replay.save_result(result, found)
    return found


def test_searched_cases_read_each_finding_in_words(folder: Path) -> None:
    (stall,) = [c for c in searched_cases("adk", folder) if c.stops_compacting]
    assert (stall.package, stall.label, stall.known_as) == ("1.0", "known", "abandoned")
    assert stall.mode == "a"
    assert stall.steps == "ask[open] → continue 3 turns"
    assert "compaction_runs (open)" in stall.breaks
    assert stall.replay.endswith(f"data/counterexamples/{stall.name}.json")
    assert searched_cases("js", folder) == []  # another driver's files are not read


def test_searched_frame_keeps_new_findings_alone_when_asked(folder: Path) -> None:
    cases = searched_cases("adk", folder)
    frame = searched_frame(cases)
    assert len(frame) == len(cases) and "minimal sequence" in frame.columns
    assert searched_frame(cases, new_only=True)["hand-picked"].eq("new").all()


def test_search_coverage_counts_each_search(folder: Path) -> None:
    row = search_coverage("adk", folder).loc["1.0"]
    assert bool(row["ran dry"]) and row["findings"] == len(searched_cases("adk", folder))


def test_a_new_stall_joins_its_release_s_verdict_as_a_bug(folder: Path) -> None:

    cases = [replace(c, label="new", known_as="") for c in searched_cases("adk", folder)]
    verdict = ReleaseVerdict("1.0", 16, 0, (), (), ())
    other = replace(verdict, release="0.9")
    mine, theirs = searched_verdicts([verdict, other], cases)
    (found,) = mine.liveness
    assert (found.situation, found.state, found.modes, found.kind) == (
        "1 found by the search",
        STUCK,
        ("a",),
        BUG,
    )
    assert theirs.liveness == ()


def _case(package: str, label: str, pairs: tuple[tuple[str, str], ...]) -> SearchedCase:
    known = "" if label == "new" else "abandoned"
    return SearchedCase("js", package, "f", label, known, "", "", "", False, "input", pairs)


def test_searched_fix_words_count_the_new_findings_the_patched_package_no_longer_breaks() -> None:
    patched = "1.0+fix.diff"
    cases = [
        _case("1.0", "new", (("stored_history_paired", "mcp"),)),
        _case("1.0", "new", (("model_input_complete", "mcp"),)),
        _case("1.0", "known", (("compaction_runs", "-"),)),
        _case(patched, "known", (("model_input_complete", "mcp"), ("compaction_runs", "-"))),
    ]
    assert fix_words(cases) == [
        "On 1.0+fix.diff, the search finds 1 (abandoned); 1 of the 2 new findings on 1.0 break "
        "none of the same invariants there."
    ]
    assert fix_words(cases[:3]) == []  # no patched package searched


def test_searched_fixes_left_is_one_record_per_patched_package_of_what_it_still_breaks() -> None:
    patched = "1.0+fix.diff"
    stall = replace(_case(patched, "new", (("compaction_runs", "-"),)), stops_compacting=True)
    cases = [
        _case("1.0", "new", (("stored_history_paired", "mcp"),)),
        _case(patched, "known", (("model_input_complete", "mcp"),)),
        stall,
        _case("2.0+other.diff", "known", ()),
    ]
    fix, other = fixes_left(cases)
    assert (fix.patched, fix.release, fix.new_on_release, fix.gone) == (patched, "1.0", 1, 1)
    assert fix.found == (cases[1], stall) and fix.new == (stall,)
    assert fix.shapes == ("abandoned", "new")
    assert fix.broken == ("compaction_runs", "model_input_complete")
    assert fix.stops_compacting and not other.stops_compacting
    assert (other.release, other.new_on_release, other.gone, other.broken) == ("2.0", 0, 0, ())
    assert fixes_left(cases[:1]) == []
