"""Release tables on synthetic sweep results: the frame, the grid, the counts, one release."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any

import pandas as pd
from factories import release_record

from approval_compaction.analysis.invariants import INVARIANTS
from approval_compaction.analysis.table import pivot, to_frame
from approval_compaction.analysis.vocabulary import UNAVAILABLE, word
from approval_compaction.lab.releases.bisect import Judgement
from approval_compaction.lab.releases.sweep import ReleaseRecord, unavailable_records, write_results
from approval_compaction.lab.releases.tables import (
    release_grid,
    release_order,
    release_table,
    release_violations,
    sweep_frame,
    sweep_scope,
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


def test_release_table_is_the_matrix_pivot_of_one_release() -> None:
    frame = _frame({"0.1.0": True, "0.2.0": False})
    table = release_table(frame, "0.2.0")
    only = frame[frame["sdk_version"] == "0.2.0"].reset_index(drop=True)
    assert table.equals(pivot(only))
    assert set(table["next_turn_input_paired"]) == {word(False)}


def test_sweep_scope_names_the_releases_the_mode_and_each_model_with_what_it_judged() -> None:
    rows = [
        release_record(sdk_version=v, model="scripted", invariant=i)
        for v in ("0.10.0", "0.9.0")
        for i in ("stored_history_paired", "decision_enforced")
    ]
    rows.append(release_record(sdk_version="0.10.0", model="responses", invariant="pause_accepted"))
    scope = sweep_scope(to_frame(rows))
    assert (scope.sdk, scope.mode) == ("openai-agents 0.9.0..0.10.0", "input")
    assert scope.model == "scripted model; pause_accepted on the OpenAIResponsesModel over HTTP"
    assert scope.title.startswith("openai-agents 0.9.0..0.10.0, compaction_mode=input; ")
