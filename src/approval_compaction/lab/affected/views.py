"""Views: the doctor's records as DataFrames for the notebook (the only module with pandas)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

import pandas as pd

from ...analysis.table import to_frame
from ...doctor.check import CheckRow
from ...doctor.repair import RepairResult
from ...doctor.verdict import SessionReport
from .upgrade import STORES, UpgradeRecord
from .worker import WorkerComparison


def reports_frame(reports: Sequence[SessionReport]) -> pd.DataFrame:
    """One row per session: counts, the unpaired keys and the verdict in words."""
    return to_frame([r.as_row() for r in reports], None, "session_id")


def check_frame(rows: Sequence[CheckRow]) -> pd.DataFrame:
    """One row per pause position."""
    return to_frame(rows, CheckRow, "prior_turns")


def changes_frame(result: RepairResult) -> pd.DataFrame:
    """Every item a repair rewrites (or would): where, what it was, what it becomes."""
    return to_frame([c.as_row() for o in result.outcomes for c in o.changes], None)


def upgrade_frame(records: Sequence[UpgradeRecord]) -> pd.DataFrame:
    """The next turn per store and release, without the items it sent, each store with the
    compaction mode that left it (``left by``); a column with one value for every row (who
    judged the turn) goes to the table's title instead."""
    rows = [
        {"store": r.store, "left by": f"{STORES[r.store]} mode"}
        | {k: v for k, v in asdict(r).items() if k not in ("model_input", "store")}
        for r in records
    ]
    frame = to_frame(rows, None).set_index(["store", "left by", "release"])
    one_judge = frame["judged_by"].nunique() == 1
    return frame.drop(columns="judged_by") if one_judge else frame


def worker_frame(rows: Sequence[WorkerComparison]) -> pd.DataFrame:
    """In-process against fresh-worker resume, per compaction setting; each list of call ids
    in words (``pending-c1``, or empty)."""
    frame = to_frame(rows, WorkerComparison, "compaction")
    listed = [c for c in frame.columns if frame[c].map(lambda v: isinstance(v, tuple)).all()]
    return frame.assign(**{c: frame[c].map(", ".join) for c in listed})


def check_compare(*checks: tuple[str, Any, Sequence[CheckRow]]) -> pd.DataFrame:
    """Releases side by side per pause position: compacted at the pause, what the pause met,
    and the next turn."""
    columns: dict[tuple[str, str], list[object]] = {}
    for release, _, rows in checks:
        columns[(release, "compaction asked at pause")] = [r.compacted_at_pause for r in rows]
        columns[(release, "at pause")] = [r.at_pause for r in rows]
        columns[(release, "next turn")] = [r.next_turn for r in rows]
    index = pd.Index([r.prior_turns for r in checks[0][2]], name="prior_turns")
    return pd.DataFrame(columns, index=index)
