"""The pandas-free pivot that ``matrix`` prints: the same cells, table and markdown as the
DataFrame pivot, on hand-built records."""

from __future__ import annotations

import pytest
from factories import matrix_record

from approval_compaction.analysis.grid import grid, grid_markdown, grid_text
from approval_compaction.analysis.invariants import INVARIANTS
from approval_compaction.analysis.matrix import MatrixRecord
from approval_compaction.analysis.table import pivot, to_frame
from approval_compaction.analysis.vocabulary import marked
from approval_compaction.formats.markdown import markdown_table

OFF = {"compaction": "off"}
STREAMED = {"runner": "run_streamed", "decision": "reject", "state_boundary": "memory"}


def full(case: dict[str, str], holds: bool | None) -> list[MatrixRecord]:
    return [matrix_record(invariant=name, holds=holds, **case) for name in INVARIANTS]


SHAPES = {
    "two cases, every invariant": full({}, False) + full(OFF, True),
    "a verdict not judged": full(STREAMED, None) + full({}, True),
    "a case without one invariant": full({}, False) + full(OFF, True)[1:],
    "only two invariants, out of order": [
        matrix_record(invariant=INVARIANTS[3], holds=True),
        matrix_record(invariant=INVARIANTS[0], holds=False),
    ],
    "one cell": [matrix_record(invariant=INVARIANTS[-1], holds=False, **STREAMED)],
}


@pytest.mark.parametrize("rows", SHAPES.values(), ids=SHAPES.keys())
def test_grid_text_is_what_the_dataframe_pivot_prints(rows: list[MatrixRecord]) -> None:
    assert grid_text(grid(rows)) == pivot(to_frame(rows)).to_string()


@pytest.mark.parametrize("rows", SHAPES.values(), ids=SHAPES.keys())
def test_grid_markdown_is_what_markdown_table_prints(rows: list[MatrixRecord]) -> None:
    assert grid_markdown(grid(rows)) == markdown_table(pivot(to_frame(rows)), cell=marked)


def test_grid_rows_keep_the_records_case_order_and_columns_the_invariants_order() -> None:
    table = grid(full(OFF, True) + full({}, False))
    assert [label for label, _ in table.rows] == ["run/approve/off/json", "run/approve/on/json"]
    assert table.columns == tuple(INVARIANTS)
    assert table.rows[1][1] == ("VIOLATED",) * len(INVARIANTS)


def test_grid_leaves_a_missing_record_empty() -> None:
    table = grid(full({}, True) + full(OFF, True)[1:])
    assert table.rows[1][1][0] is None and "NaN" in grid_text(table)


def test_grid_refuses_two_records_for_one_cell() -> None:
    with pytest.raises(ValueError, match="two records"):
        grid([matrix_record(), matrix_record()])
