"""Matrix records as a frame, the cases-by-invariants pivot, and the violations, on hand-built
records."""

from __future__ import annotations

import io
from dataclasses import asdict, fields

import pandas as pd
import pytest
from factories import matrix_record, release_record

from approval_compaction.analysis.invariants import INVARIANTS
from approval_compaction.analysis.matrix import MatrixRecord
from approval_compaction.analysis.table import case_label, pivot, to_frame, violations
from approval_compaction.analysis.vocabulary import word
from approval_compaction.lab.releases.sweep import ReleaseRecord

COLUMNS = [f.name for f in fields(MatrixRecord)]
OFF = {"compaction": "off"}
STREAMED_REJECT = {"runner": "run_streamed", "decision": "reject", "state_boundary": "memory"}


def test_table_to_frame_has_the_schema_columns_in_order() -> None:
    rows = [matrix_record(), matrix_record(invariant="decision_enforced", holds=False)]
    frame = to_frame(rows)
    assert frame.columns.tolist() == COLUMNS
    assert frame.to_dict("records") == [asdict(r) for r in rows]


def test_table_to_frame_of_no_records_keeps_the_columns() -> None:
    frame = to_frame([])
    assert frame.empty and frame.columns.tolist() == COLUMNS


def test_table_to_frame_takes_another_schema() -> None:
    frame = to_frame([release_record(openai="1.2.3")], ReleaseRecord)
    assert frame.columns.tolist() == [f.name for f in fields(ReleaseRecord)]
    assert frame.loc[0, "openai"] == "1.2.3"


def test_table_to_frame_keeps_a_missing_verdict_as_missing() -> None:
    frame = to_frame([matrix_record(holds=None), matrix_record(holds=True)])
    assert frame["holds"].isna().tolist() == [True, False]


def test_table_case_label_joins_the_four_choices_in_scenario_order() -> None:
    frame = to_frame([matrix_record(), matrix_record(**STREAMED_REJECT)])
    assert case_label(frame).tolist() == ["run/approve/on/json", "run_streamed/reject/on/memory"]


def test_table_pivot_is_cases_by_invariants_with_verdict_words() -> None:
    rows = [
        matrix_record(invariant=name, holds=holds, **case)
        for case, holds in [({}, False), (OFF, True)]
        for name in INVARIANTS
    ]
    table = pivot(to_frame(rows))
    assert table.index.tolist() == ["run/approve/on/json", "run/approve/off/json"]
    assert table.columns.tolist() == list(INVARIANTS)
    assert set(table.loc["run/approve/on/json"]) == {word(False)}
    assert set(table.loc["run/approve/off/json"]) == {word(True)}


def test_table_pivot_keeps_case_order_and_puts_invariants_in_their_order() -> None:
    """Cases stay in the order the records give them (not sorted); invariants follow INVARIANTS,
    whatever order the records come in."""
    names = list(reversed(INVARIANTS[:3]))
    cases = [OFF, {}, STREAMED_REJECT]
    frame = to_frame([matrix_record(invariant=n, **c) for c in cases for n in names])
    table = pivot(frame)
    assert table.index.tolist() == case_label(frame).drop_duplicates().tolist()
    assert table.index.tolist()[:2] == ["run/approve/off/json", "run/approve/on/json"]
    assert table.columns.tolist() == list(INVARIANTS[:3])


@pytest.mark.parametrize(
    ("holds", "verdict"),
    [(True, True), (False, False), (None, None), (float("nan"), None)],
    ids=["holds", "violated", "none", "nan"],
)
def test_table_pivot_cell_is_the_vocabulary_word(holds: object, verdict: bool | None) -> None:
    """A verdict read back from CSV is NaN when missing: it reads ``n/a`` like ``None``."""
    frame = to_frame([matrix_record(holds=holds)])
    assert pivot(frame).iloc[0, 0] == word(verdict)


def test_table_pivot_cell_for_mixed_verdicts_in_one_column() -> None:
    rows = [matrix_record(holds=None), matrix_record(holds=False, **OFF)]
    assert pivot(to_frame(rows))[INVARIANTS[0]].tolist() == [word(None), word(False)]


def test_table_violations_keeps_only_violated_records() -> None:
    rows = [
        matrix_record(holds=True),
        matrix_record(holds=False, detail="next_turn: c1"),
        matrix_record(holds=None, status="error"),
        matrix_record(holds=False, invariant="decision_enforced", **OFF),
    ]
    found = violations(to_frame(rows))
    assert found.columns.tolist() == COLUMNS
    assert found.index.tolist() == [1, 3]
    assert found["detail"].tolist() == ["next_turn: c1", ""]


def test_table_violations_of_a_clean_matrix_is_empty() -> None:
    found = violations(to_frame([matrix_record(holds=True), matrix_record(holds=None)]))
    assert found.empty and found.columns.tolist() == COLUMNS


def test_table_violations_reads_a_frame_loaded_from_csv() -> None:
    """A CSV round trip turns the verdict column into floats or strings; violations still finds
    the violated record."""
    frame = to_frame([matrix_record(holds=False), matrix_record(holds=None, **OFF)])
    reread = pd.read_csv(io.StringIO(frame.to_csv(index=False)))
    assert violations(reread)["compaction"].tolist() == ["on"]
