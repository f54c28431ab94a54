"""Matrix: every case judged on every invariant, as tidy records (one per case and invariant),
and the records as text in each of ``matrix --format``'s formats (``matrix_text``).

This module is the matrix's schema; it imports neither the SDK nor pandas, so ``matrix --format``
pays for neither: the table and markdown come from the pivot as ``analysis.grid`` builds it.
``analysis.table`` turns the records into frames and pivots.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..errors import InvestigationError
from ..formats.arguments import FORMATS
from ..formats.records import records_csv, records_json
from ..study.capture import CaseRun
from . import vocabulary
from .grid import grid, grid_markdown, grid_text
from .invariants import JudgedRun, judge


@dataclass(frozen=True)
class MatrixRecord:
    """One case and one invariant: whether it holds, and the offending call ids if not."""

    sdk_version: str
    runner: str
    decision: str
    compaction: str
    state_boundary: str
    model: str
    invariant: str
    holds: bool | None
    detail: str
    dispatches: int
    compaction_requests: int
    status: str

    @property
    def case_key(self) -> tuple[str, str, str, str]:
        """The case's four choices, in the scenario's field order."""
        return (self.runner, self.decision, self.compaction, self.state_boundary)


def status_of(run: CaseRun, holds: bool | None) -> str:
    """The record's status in words: holds, violated, not applicable or error."""
    if holds is not None:
        return vocabulary.STATUS_HOLDS if holds else vocabulary.STATUS_VIOLATED
    if run.not_applicable is not None:
        return vocabulary.STATUS_NOT_APPLICABLE
    return vocabulary.STATUS_ERROR


def records(runs: Iterable[CaseRun | JudgedRun]) -> list[MatrixRecord]:
    """Tidy records: one per case and invariant, from each run's verdicts (judged once)."""
    out = []
    for judged in map(judge, runs):
        run = judged.run
        for verdict in judged.verdicts:
            out.append(
                MatrixRecord(
                    sdk_version=run.sdk_version,
                    **run.case.as_dict(),
                    model=run.model,
                    invariant=verdict.invariant,
                    holds=verdict.holds,
                    detail=verdict.detail,
                    dispatches=run.dispatches,
                    compaction_requests=run.compaction_requests,
                    status=status_of(run, verdict.holds),
                )
            )
    return out


def matrix_text(rows: Sequence[MatrixRecord], fmt: str) -> str:
    """The records in one of ``FORMATS``, ending with a newline."""
    if fmt == "json":
        return records_json(rows)
    if fmt == "csv":
        return records_csv(rows, MatrixRecord)
    if fmt not in FORMATS:
        raise InvestigationError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    table = grid(rows)
    return (grid_markdown(table) if fmt == "markdown" else grid_text(table)) + "\n"
