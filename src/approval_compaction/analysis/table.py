"""Table: matrix records as a DataFrame, and the cases-by-invariants pivot of verdict words."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, fields
from typing import Any

import pandas as pd

from ..study.scenario import FIELD_NAMES
from . import vocabulary
from .invariants import INVARIANTS
from .matrix import MatrixRecord


def to_frame(rows: Iterable[Any], schema: type[Any] = MatrixRecord) -> pd.DataFrame:
    """Records (dataclass instances of ``schema``) as a DataFrame with its columns in order."""
    columns = [f.name for f in fields(schema)]
    return pd.DataFrame([asdict(r) for r in rows], columns=columns)


def case_label(frame: pd.DataFrame) -> pd.Series:
    """Each row's case as ``runner/decision/compaction/state_boundary``."""
    return frame[list(FIELD_NAMES)].agg("/".join, axis=1)


def pivot(frame: pd.DataFrame) -> pd.DataFrame:
    """Cases by invariants, each cell a word: ``holds``, ``VIOLATED`` or ``n/a``."""
    table = frame.assign(case=case_label(frame), cell=frame["holds"].map(_word))
    wide = table.pivot(index="case", columns="invariant", values="cell")
    order = table["case"].drop_duplicates().tolist()
    return wide.reindex(index=order, columns=[i for i in INVARIANTS if i in wide.columns])


def _word(value: Any) -> str:
    return vocabulary.word(None if pd.isna(value) else bool(value))


def violations(frame: pd.DataFrame) -> pd.DataFrame:
    """Only the records whose invariant is violated."""
    return frame[frame["holds"].eq(False)]
