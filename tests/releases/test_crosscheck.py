"""Crosscheck: reading pytest's report and setting each outcome against the sweep's verdict."""

from __future__ import annotations

from pathlib import Path

import pytest
from factories import release_record

from approval_compaction.analysis.table import to_frame as records_frame
from approval_compaction.errors import InvestigationError
from approval_compaction.lab.releases.crosscheck import (
    TEST_FILE,
    CrossRecord,
    Outcome,
    by_release,
    compare,
    load,
    outcome_of,
    parse_id,
    regression_ranges,
    regression_table,
    sweep_verdicts,
    write,
)
from approval_compaction.lab.releases.environments import junit_cases
from approval_compaction.lab.releases.sweep import ReleaseRecord

JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest">
<testcase classname="t" name="test_x[approve-run-workaround]" time="0.1" />
<testcase classname="t" name="test_x[approve-run-unfixed]" time="0.1">
  <failure message="AssertionError: assert {'calls compacted'...}">trace</failure>
</testcase>
<testcase classname="t" name="test_x[reject-run_streamed-unfixed]" time="0.1">
  <error message="fixture failed">trace</error>
</testcase>
<testcase classname="t" name="test_x[reject-run_streamed-workaround]" time="0.1">
  <skipped message="no workaround" />
</testcase>
</testsuite></testsuites>
"""


def row(version: str, invariant: str, holds: bool | None, **case: str) -> ReleaseRecord:
    return release_record(sdk_version=version, invariant=invariant, holds=holds, **case)


def outcome(version: str, variant: str, result: str) -> Outcome:
    return Outcome(version, "approve", "run", variant, result, "")


def test_parse_id_reads_decision_runner_and_variant() -> None:
    assert parse_id("test_x[reject-run_streamed-unfixed]") == ("reject", "run_streamed", "unfixed")


def test_outcome_of_maps_each_testcase_to_an_outcome() -> None:
    found = [outcome_of(case, "0.9.0") for case in junit_cases(JUNIT)]
    assert [(o.sdk_version, o.decision, o.runner, o.variant, o.outcome) for o in found] == [
        ("0.9.0", "approve", "run", "workaround", "passed"),
        ("0.9.0", "approve", "run", "unfixed", "failed"),
        ("0.9.0", "reject", "run_streamed", "unfixed", "error"),
        ("0.9.0", "reject", "run_streamed", "workaround", "skipped"),
    ]
    assert found[1].message == "AssertionError: assert {'calls compacted'...}"
    assert [o.message for o in found[2:]] == ["fixture failed", "no workaround"]


def test_sweep_verdicts_judge_only_the_two_invariants_on_json_compaction_cases() -> None:
    rows = [
        row("1.0.0", "next_turn_input_paired", True),
        row("1.0.0", "compaction_input_complete", False),
        row("1.0.0", "decision_enforced", False),
        row("2.0.0", "next_turn_input_paired", True),
        row("2.0.0", "compaction_input_complete", True),
        row("2.0.0", "next_turn_input_paired", False, state_boundary="memory"),
        row("2.0.0", "next_turn_input_paired", False, compaction="off"),
        row("3.0.0", "next_turn_input_paired", None),
        row("3.0.0", "compaction_input_complete", True),
    ]
    assert sweep_verdicts(rows) == {
        ("1.0.0", "run", "approve"): "VIOLATED",
        ("2.0.0", "run", "approve"): "holds",
        ("3.0.0", "run", "approve"): "n/a",
    }


@pytest.mark.parametrize(
    ("holds", "result", "agrees"),
    [
        (False, "failed", True),
        (True, "passed", True),
        (False, "passed", False),
        (True, "failed", False),
        (True, "error", False),
        (None, "error", None),
    ],
    ids=["broken-fails", "holds-passes", "broken-passes", "holds-fails", "holds-errors", "n/a"],
)
def test_compare_agrees_only_when_the_test_matches_the_sweep(
    holds: bool | None, result: str, agrees: bool | None
) -> None:
    rows = [row("1.0.0", "next_turn_input_paired", holds)]
    found = compare([outcome("1.0.0", "unfixed", result)], rows)
    assert [(r.unfixed, r.workaround, r.agrees) for r in found] == [(result, "missing", agrees)]


def test_compare_marks_a_release_the_sweep_has_not_run() -> None:
    found = compare([outcome("9.9.9", "unfixed", "failed")], [])
    assert [(r.sweep, r.agrees) for r in found] == [("not swept", None)]


def test_write_summarises_one_row_per_release(tmp_path: Path) -> None:
    rows = [
        row("0.10.0", "next_turn_input_paired", False),
        row("0.9.0", "next_turn_input_paired", True),
    ]
    outcomes = [outcome("0.10.0", "unfixed", "failed"), outcome("0.9.0", "unfixed", "failed")]
    records = compare(outcomes, rows)
    assert [r.sdk_version for r in records] == ["0.9.0", "0.10.0"]
    table = by_release(records_frame(records, CrossRecord))
    assert table["agrees"].tolist() == ["NO", "yes"]
    paths = write(records, tmp_path)
    assert sorted(p.name for p in paths) == [
        "fix-releases.csv",
        "fix-releases.json",
        "fix-releases.md",
    ]
    assert (
        "| 0.9.0 | ✅ holds | failed | missing | NO |" in (tmp_path / "fix-releases.md").read_text()
    )
    assert load(tmp_path / "fix-releases.json") == records
    assert regression_table(tmp_path / "fix-releases.json").equals(table)


def test_test_file_is_the_sdk_style_regression_test() -> None:
    assert TEST_FILE.exists()
    assert "def test_compaction_keeps_pending_approval_call_paired" in TEST_FILE.read_text()


def test_crosscheck_patched_records_carry_the_patch_and_a_released_reader_refuses_them(
    tmp_path: Path,
) -> None:
    from approval_compaction.formats.records import RecordsError
    from approval_compaction.lab.releases.crosscheck import CrossRecord, PatchedCross, load, write

    row = CrossRecord("0.23.1", "run", "approve", "holds", "passed", "passed", True)
    labelled = PatchedCross(**{**row.__dict__, "patch": "fix.diff sha256:ab"})
    write([labelled], tmp_path, PatchedCross)
    with pytest.raises(RecordsError, match="unexpected patch"):
        load(tmp_path / "fix-releases.json")


def test_crosscheck_patched_reader_refuses_a_mix_in_one_line(tmp_path: Path) -> None:
    import json

    from approval_compaction.lab.releases.crosscheck import (
        CrossRecord,
        PatchedCross,
        write,
    )
    from approval_compaction.lab.releases.patched import PatchError, read_labelled

    def load_patched(path: Path, label: str | None = None) -> list[PatchedCross]:
        return read_labelled(path, PatchedCross, label)

    row = CrossRecord("0.23.1", "run", "approve", "holds", "passed", "passed", True)
    one = PatchedCross(**{**row.__dict__, "patch": "fix.diff sha256:ab"})
    other = PatchedCross(**{**row.__dict__, "runner": "run_streamed", "patch": "b.diff sha256:cd"})
    write([one], tmp_path, PatchedCross)
    assert load_patched(tmp_path / "fix-releases.json", one.patch) == [one]
    write([one, other], tmp_path, PatchedCross)
    with pytest.raises(PatchError) as raised:
        load_patched(tmp_path / "fix-releases.json")
    assert "mix results of different SDKs" in str(raised.value)
    assert "\n" not in str(raised.value)
    released = tmp_path / "released.json"  # a release's records where a patch's are expected
    released.write_text(json.dumps([row.__dict__]))
    with pytest.raises(InvestigationError, match="missing patch"):
        load_patched(released)


def test_regression_ranges_join_consecutive_matching_releases() -> None:
    """Issue 61 (r13): 06 grouped the committed crosscheck into ranges in a notebook cell; the
    package does it. Every release falls in exactly one range, neighbouring ranges differ, and
    the sweep reads `broken`, not the raw `VIOLATED`."""
    table = regression_table()
    ranges = regression_ranges()
    assert ranges["releases"].sum() == len(table)
    assert ranges.index[0].startswith(f"{table.index[0]}..") or ranges.index[0] == table.index[0]
    rest = ranges.drop(columns="releases")
    assert not (rest.iloc[1:].to_numpy() == rest.iloc[:-1].to_numpy()).all(axis=1).any()
    assert "VIOLATED" not in set(ranges["sweep"]) and "broken" in set(ranges["sweep"])
