"""Ranges: consecutive releases alike in every column shown, one row."""

from __future__ import annotations

import pandas as pd

from approval_compaction.lab.findings.ranges import join_alike


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "count": [67, 3, 1, 1],
            "input": ["carried", "fails", "fails", "neither"],
            "left out": ["a", "b", "c", "d"],
        },
        index=pd.Index(["0.8.0..0.22.0", "0.22.1..0.22.3", "0.23.1", "0.24.0"], name="releases"),
    )


def test_join_alike_joins_ranges_alike_in_every_column_shown() -> None:
    """r24: 05's rows 0.22.1..0.22.3 and 0.23.1 matched in every cell, split by a hidden one."""
    joined = join_alike(_frame(), ["input"])
    assert list(joined.index) == ["0.8.0..0.22.0", "0.22.1..0.23.1", "0.24.0"]
    assert joined.loc["0.22.1..0.23.1", "count"] == 4 and joined["count"].dtype == "int64"
    assert joined.index.name == "releases"


def test_join_alike_keeps_ranges_a_shown_column_tells_apart() -> None:
    assert list(join_alike(_frame(), ["input", "left out"]).index) == list(_frame().index)
