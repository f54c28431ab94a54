"""Matrix: every case judged on every invariant, as tidy records, a frame and a pivot."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

import pandas as pd

from .capture import CaseRun
from .harness import SessionWrapper, run_case
from .invariants import INVARIANTS, evaluate
from .scenario import FIELD_NAMES, Case, all_cases

MARKS = {True: "holds", False: "VIOLATED", None: "n/a"}


@dataclass(frozen=True)
class MatrixRecord:
    """One case and one invariant: whether it holds, and the offending call ids if not."""

    sdk_version: str
    runner: str
    decision: str
    compaction: str
    state_boundary: str
    invariant: str
    holds: bool | None
    detail: str
    dispatches: int
    compaction_requests: int
    status: str


def status_of(run: CaseRun, holds: bool | None) -> str:
    if holds is not None:
        return "holds" if holds else "violated"
    return "not applicable" if run.not_applicable is not None else "error"


def records(runs: Iterable[CaseRun]) -> list[MatrixRecord]:
    """Tidy records: one per case and invariant."""
    out = []
    for run in runs:
        for verdict in evaluate(run):
            out.append(
                MatrixRecord(
                    sdk_version=run.sdk_version,
                    **run.case.as_dict(),
                    invariant=verdict.invariant,
                    holds=verdict.holds,
                    detail=verdict.detail,
                    dispatches=run.dispatches,
                    compaction_requests=run.compaction_requests,
                    status=status_of(run, verdict.holds),
                )
            )
    return out


def run_matrix(
    cases: Sequence[Case] | None = None, *, wrap_session: SessionWrapper | None = None
) -> list[CaseRun]:
    """Run the given cases (all sixteen by default) on the installed SDK."""
    chosen = all_cases() if cases is None else cases
    return [run_case(case, wrap_session=wrap_session) for case in chosen]


def to_frame(rows: Iterable[MatrixRecord | dict[str, Any]]) -> pd.DataFrame:
    """Records as a DataFrame with the schema's columns in order."""
    columns = [f.name for f in fields(MatrixRecord)]
    data = [asdict(r) if isinstance(r, MatrixRecord) else r for r in rows]
    return pd.DataFrame(data, columns=columns)


def case_label(frame: pd.DataFrame) -> pd.Series:
    return frame[list(FIELD_NAMES)].agg("/".join, axis=1)


def pivot(frame: pd.DataFrame) -> pd.DataFrame:
    """Cases by invariants, each cell a word: ``holds``, ``VIOLATED`` or ``n/a``."""
    table = frame.assign(case=case_label(frame), cell=frame["holds"].map(_mark))
    wide = table.pivot(index="case", columns="invariant", values="cell")
    order = table["case"].drop_duplicates().tolist()
    return wide.reindex(index=order, columns=[i for i in INVARIANTS if i in wide.columns])


def _mark(value: Any) -> str:
    return MARKS[None if pd.isna(value) else bool(value)]


def violations(frame: pd.DataFrame) -> pd.DataFrame:
    """Only the records whose invariant is violated."""
    return frame[frame["holds"].eq(False)]
