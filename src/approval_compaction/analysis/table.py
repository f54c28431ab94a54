"""Table: matrix records as a DataFrame and back, the cases-by-invariants pivot of verdict
words, and the original report's eight-case table (``seed_table``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, fields
from typing import Any, TypeVar

import pandas as pd

from ..study.scenario import FIELD_NAMES
from . import vocabulary
from .invariants import INVARIANTS
from .matrix import MatrixRecord

R = TypeVar("R")
HOOK = {"on": "always true", "off": "always false"}


def to_frame(
    rows: Iterable[Any], schema: type[Any] | None = MatrixRecord, index: str | None = None
) -> pd.DataFrame:
    """Records as a DataFrame: dataclass instances of ``schema`` with its columns in order, or
    (``schema=None``) dataclasses or flat dicts with the columns they have; indexed by the
    column ``index`` when there are rows."""
    columns = [f.name for f in fields(schema)] if schema is not None else None
    frame = pd.DataFrame([r if isinstance(r, dict) else asdict(r) for r in rows], columns=columns)
    return frame.set_index(index) if index is not None and not frame.empty else frame


def from_frame(frame: pd.DataFrame, schema: type[R]) -> list[R]:
    """A frame of records back as records of ``schema`` (a missing verdict is ``None``)."""
    plain = frame.astype(object).where(frame.notna(), None)
    return [schema(**{str(k): v for k, v in row.items()}) for row in plain.to_dict("records")]


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


def _runner_phrase(present: pd.Series) -> str:
    """Fold a per-runner yes/no into words: present/absent in both, or which one."""
    if present.all():
        return "present in both runner modes"
    if not present.any():
        return "absent in both runner modes"
    return "present in " + ", ".join(present[present].index) + " only"


def seed_table(frame: pd.DataFrame, invariant: str = "next_turn_input_paired") -> pd.DataFrame:
    """The original report's eight-case table: json boundary, decision by compaction hook,
    runner modes folded into one cell."""
    rows = frame[(frame["state_boundary"] == "json") & (frame["invariant"] == invariant)]
    out = []
    for (decision, compaction), group in rows.groupby(["decision", "compaction"], sort=False):
        dispatches = sorted(set(group["dispatches"]))
        broken = group.set_index("runner")["holds"].eq(False)
        out.append(
            {
                "decision": decision,
                "compaction hook": HOOK[str(compaction)],
                "tool dispatches": ", ".join(map(str, dispatches)),
                "unpaired output in next-turn input": _runner_phrase(broken),
                "offending call ids": ", ".join(sorted(set(filter(None, group["detail"])))),
            }
        )
    return pd.DataFrame(out)
