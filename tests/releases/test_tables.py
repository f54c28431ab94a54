"""Release tables on synthetic sweep results: the grid, counts, coverage, changes, boundaries."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any

import pandas as pd
from factories import release_record

from approval_compaction.analysis.invariants import INVARIANTS
from approval_compaction.analysis.table import pivot, to_frame
from approval_compaction.analysis.vocabulary import UNAVAILABLE, word
from approval_compaction.releases.bisect import Judgement
from approval_compaction.releases.sweep import ReleaseRecord, unavailable_records, write_results
from approval_compaction.releases.tables import (
    release_answer,
    release_bisections,
    release_boundaries,
    release_changes,
    release_coverage,
    release_grid,
    release_order,
    release_table,
    release_violations,
    sweep_frame,
)
from approval_compaction.study.scenario import all_cases

STATUS = {True: "holds", False: "violated", None: "not applicable"}


def records_for(
    pattern: dict[str, Judgement], broken_cases: int | None = None
) -> list[ReleaseRecord]:
    """Sweep records where only next_turn_input_paired follows the pattern; the rest hold.

    With ``broken_cases``, a broken release violates it in that many cases only (the first ones).
    """
    rows = []
    for n, (version, holds) in enumerate(pattern.items()):
        for index, case in enumerate(all_cases()):
            for name in INVARIANTS:
                value = holds if name == "next_turn_input_paired" else True
                if value is False and broken_cases is not None and index >= broken_cases:
                    value = True
                rows.append(
                    release_record(
                        sdk_version=version,
                        **case.as_dict(),
                        invariant=name,
                        holds=value,
                        status=STATUS[value],
                        openai=f"3.{n}.0",
                        pydantic="2.13.0",
                    )
                )
    return rows


def _frame(pattern: dict[str, Judgement], **kwargs: Any) -> pd.DataFrame:
    """The records of ``records_for`` as a frame, as ``sweep_frame`` reads them."""
    return to_frame(records_for(pattern, **kwargs), ReleaseRecord)


def test_release_boundaries_name_each_edge_with_its_dependencies() -> None:
    frame = _frame({"0.1.0": True, "0.2.0": None, "0.3.0": False, "0.10.0": False, "0.11.0": True})
    row = release_boundaries(frame).loc["next_turn_input_paired"]
    assert (row["last_holding"], row["first_broken"]) == ("0.1.0", "0.3.0")
    assert (row["last_broken"], row["holds_again"]) == ("0.10.0", "0.11.0")
    assert row["holds_again_deps"] == "openai 3.4.0, pydantic 2.13.0"
    assert release_boundaries(frame).loc["decision_enforced", "broken_ranges"] == 0
    assert release_answer(frame) == (
        "Of 5 releases, 0.1.0..0.11.0: next_turn_input_paired is broken 0.3.0..0.10.0 "
        "(holds again in 0.11.0)."
    )
    assert release_bisections(frame, start="0.3.0")["agrees_with_sweep"].all()


def test_release_boundaries_show_spans_when_broken_twice() -> None:
    frame = _frame({"0.1.0": False, "0.2.0": True, "0.3.0": False, "0.4.0": True})
    row = release_boundaries(frame).loc["next_turn_input_paired"]
    assert row["broken_ranges"] == 2 and row["first_broken"] == ""
    assert row["spans"].startswith("broken 0.1.0 (1 release); holds  0.2.0 (1 release)")
    assert "breaks in 2 separate ranges" in release_answer(frame)
    found = release_bisections(frame, start="0.3.0").loc["next_turn_input_paired"]
    assert found["first_broken"] == "not contiguous"


def test_release_boundaries_still_broken_in_the_newest_release() -> None:
    frame = _frame({"0.1.0": True, "0.2.0": False})
    row = release_boundaries(frame).loc["next_turn_input_paired"]
    assert (row["first_broken"], row["holds_again"], row["holds_again_deps"]) == ("0.2.0", "", "")
    assert row["first_broken_deps"] == "openai 3.1.0, pydantic 2.13.0"
    assert "is broken 0.2.0..0.2.0 (still broken)" in release_answer(frame)


def test_release_answer_when_every_invariant_holds() -> None:
    frame = _frame({"0.1.0": True, "0.2.0": True})
    assert release_answer(frame) == "Of 2 releases, 0.1.0..0.2.0: every invariant holds."
    assert set(release_boundaries(frame)["broken_ranges"]) == {0}


def test_release_order_is_by_version_not_by_text() -> None:
    frame = _frame({"0.10.0": True, "0.9.0": True, "0.9.1": True})
    assert release_order(frame) == ["0.9.0", "0.9.1", "0.10.0"]


def test_sweep_frame_reads_the_results_file_with_the_schema_columns(tmp_path: Path) -> None:
    rows = records_for({"0.1.0": False})
    write_results(tmp_path / "sweep.json", rows)
    frame = sweep_frame(tmp_path / "sweep.json")
    assert frame.columns.tolist() == [f.name for f in fields(ReleaseRecord)]
    assert frame.equals(to_frame(rows, ReleaseRecord))


def test_release_grid_is_invariants_by_releases_in_words() -> None:
    records = records_for({"0.10.0": False, "0.9.0": None})
    records += unavailable_records("0.11.0", "install failed: no such release", all_cases())
    grid = release_grid(to_frame(records, ReleaseRecord))
    assert grid.index.tolist() == list(INVARIANTS)
    assert grid.columns.tolist() == ["0.9.0", "0.10.0", "0.11.0"]
    assert grid.loc["next_turn_input_paired"].tolist() == [
        word(None),
        word(False),
        UNAVAILABLE.word,
    ]
    assert set(grid.loc["decision_enforced", ["0.9.0", "0.10.0"]]) == {word(True)}
    assert set(grid["0.11.0"]) == {UNAVAILABLE.word}


def test_release_grid_any_violating_case_breaks_the_release() -> None:
    grid = release_grid(_frame({"0.1.0": False}, broken_cases=1))
    assert grid.at["next_turn_input_paired", "0.1.0"] == word(False)


def test_release_violations_count_the_violating_cases() -> None:
    frame = _frame({"0.2.0": False, "0.1.0": True}, broken_cases=3)
    counts = release_violations(frame)
    assert counts.index.tolist() == list(INVARIANTS)
    assert counts.columns.tolist() == ["0.1.0", "0.2.0"]
    assert counts.loc["next_turn_input_paired"].tolist() == [0, 3]
    assert int(counts.drop(index="next_turn_input_paired").to_numpy().sum()) == 0


def test_release_coverage_counts_statuses_per_release_with_dependencies() -> None:
    records = records_for({"0.2.0": False})
    records += unavailable_records("0.1.0", "import agents failed", all_cases())
    coverage = release_coverage(to_frame(records, ReleaseRecord))
    assert coverage.index.name == "release"
    assert coverage.index.tolist() == ["0.1.0", "0.2.0"]
    cases = len(all_cases())
    assert coverage.at["0.2.0", "violated"] == cases
    assert coverage.at["0.2.0", "holds"] == cases * (len(INVARIANTS) - 1)
    assert coverage.at["0.1.0", UNAVAILABLE.word] == cases * len(INVARIANTS)
    assert coverage.at["0.1.0", "holds"] == 0
    assert coverage.at["0.2.0", "openai"] == "3.0.0"


def test_release_table_is_the_matrix_pivot_of_one_release() -> None:
    frame = _frame({"0.1.0": True, "0.2.0": False})
    table = release_table(frame, "0.2.0")
    only = frame[frame["sdk_version"] == "0.2.0"].reset_index(drop=True)
    assert table.equals(pivot(only))
    assert set(table["next_turn_input_paired"]) == {word(False)}


def test_release_changes_lists_each_case_and_invariant_that_differs() -> None:
    frame = _frame({"0.1.0": True, "0.2.0": False}, broken_cases=2)
    changes = release_changes(frame, "0.1.0", "0.2.0")
    assert changes.columns.tolist() == ["case", "invariant", "0.1.0", "0.2.0"]
    assert changes["case"].tolist() == [c.label for c in all_cases()[:2]]
    assert set(changes["invariant"]) == {"next_turn_input_paired"}
    assert set(zip(changes["0.1.0"], changes["0.2.0"], strict=True)) == {(word(True), word(False))}
    assert release_changes(frame, "0.1.0", "0.1.0").empty


def test_release_changes_marks_a_case_only_one_release_ran_as_not_run() -> None:
    on = {"compaction": "on", "invariant": "next_turn_input_paired"}
    rows = [
        release_record(sdk_version="0.1.0", **on),
        release_record(sdk_version="0.1.0", compaction="off", invariant="next_turn_input_paired"),
        release_record(sdk_version="0.2.0", **on),
    ]
    changes = release_changes(to_frame(rows, ReleaseRecord), "0.1.0", "0.2.0")
    assert changes.to_dict("records") == [
        {
            "case": "run/approve/off/json",
            "invariant": "next_turn_input_paired",
            "0.1.0": word(True),
            "0.2.0": "not run",
        }
    ]
