"""Outcomes: what the user sees at the end of each case, as the ``openai`` client raised it.

A run over HTTP records, per stage, ``ok`` or the exception the user's code received (its class,
and its text with the HTTP status and the API's message). This module lays those out one row per
case, with the verdicts on ``pause_accepted`` and ``next_turn_accepted`` (on the scripted model,
observed from its compaction client, else the stand-in's rules' prediction);
``findings.matrix.seen`` compares the two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ...analysis import vocabulary
from ...analysis.invariants import JudgedRun, judge
from ...analysis.table import to_frame
from ...study.capture import OK, CaseRun

INVARIANT = "next_turn_accepted"
PAUSE = "pause_accepted"


@dataclass(frozen=True)
class Outcome:
    """One case's end as the user met it: the stage, the exception class, and its text."""

    case: str
    model: str
    stage: str
    http_status: int | None
    exception: str
    message: str
    pause_accepted: str
    next_turn_accepted: str


def outcome_of(run: CaseRun | JudgedRun) -> Outcome:
    """Where the case ended and what the user saw there (``ok`` when every turn was answered)."""
    judged = judge(run)
    verdict = next(v for v in judged.verdicts if v.invariant == INVARIANT)
    pause = next(v for v in judged.verdicts if v.invariant == PAUSE)
    stages = judged.run.stages
    failed = next((s for s in stages if not s.outcome.ok), None)
    last = failed or (stages[-1] if stages else None)
    seen = failed.outcome if failed else None
    return Outcome(
        case=judged.run.case.label,
        model=judged.run.model,
        stage=last.name if last else "",
        http_status=seen.http_status if seen else None,
        exception=seen.exception if seen else OK,
        message=seen.message if seen else "",
        pause_accepted=vocabulary.word(pause.holds),
        next_turn_accepted=vocabulary.word(verdict.holds),
    )


def outcome_frame(runs: Sequence[CaseRun | JudgedRun]) -> pd.DataFrame:
    """One row per case: where it ended, the exception (or ``ok``) and the verdict."""
    frame = to_frame([outcome_of(run) for run in runs], Outcome, "case")
    status = frame["http_status"].map(lambda s: "" if pd.isna(s) else str(int(s)))
    return frame.assign(http_status=status)
