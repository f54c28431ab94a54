"""Outcomes: what the user sees at the end of each case, as the ``openai`` client raised it.

A run over HTTP records, per stage, ``ok`` or the exception the user's code received (its class,
and its text with the HTTP status and the API's message). This module lays those out one row per
case, and says in one sentence which cases end with an error and whether the scripted model's
prediction (``next_turn_accepted`` judged by the stand-in's rules) agrees with what was seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import pandas as pd

from ..study.capture import OK, CaseRun
from . import vocabulary
from .invariants import JudgedRun, judge

INVARIANT = "next_turn_accepted"


@dataclass(frozen=True)
class Outcome:
    """One case's end as the user met it: the stage, the exception class, and its text."""

    case: str
    model: str
    stage: str
    http_status: int | None
    exception: str
    message: str
    next_turn_accepted: str


def outcome_of(run: CaseRun | JudgedRun) -> Outcome:
    """Where the case ended and what the user saw there (``ok`` when every turn was answered)."""
    judged = judge(run)
    verdict = next(v for v in judged.verdicts if v.invariant == INVARIANT)
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
        next_turn_accepted=vocabulary.word(verdict.holds),
    )


def outcome_frame(runs: Sequence[CaseRun | JudgedRun]) -> pd.DataFrame:
    """One row per case: where it ended, the exception (or ``ok``) and the verdict."""
    frame = pd.DataFrame([asdict(outcome_of(run)) for run in runs]).set_index("case")
    status = frame["http_status"].map(lambda s: "" if pd.isna(s) else str(int(s)))
    return frame.assign(http_status=status)


def outcome_answer(
    observed: Sequence[CaseRun | JudgedRun], predicted: Sequence[CaseRun | JudgedRun] = ()
) -> str:
    """One sentence: which cases end with which error, and whether the prediction agrees."""
    seen = [outcome_of(run) for run in observed]
    failing = [o for o in seen if o.exception != OK]
    if not failing:
        text = f"All {len(seen)} cases are answered at every turn."
    else:
        kinds = sorted({(o.stage, o.exception, o.http_status, o.message) for o in failing})
        said = "; ".join(f"{e} (HTTP {s}) at the {t} stage: {m}" for t, e, s, m in kinds)
        compaction = {judge(run).run.case.label for run in observed if _compacts(run)}
        exact = {o.case for o in failing} == compaction
        where = " (exactly the cases with compaction=on)" if exact else ""
        text = f"{len(failing)} of {len(seen)} cases end with {said}{where}."
    if predicted:
        guess = {o.case: o.next_turn_accepted for o in map(outcome_of, predicted)}
        same = sum(guess.get(o.case) == o.next_turn_accepted for o in seen)
        text += f" The scripted model's prediction agrees in {same} of {len(seen)} cases."
    return text


def _compacts(run: CaseRun | JudgedRun) -> bool:
    return judge(run).run.case.compaction == "on"
