"""Driver: one live conversation, taken step by step by the study's driver.

An explored step becomes the study's steps: an ``ask`` is an ``Ask`` whose reply holds one call
per kind in ``calls`` (call ids name their kind and step); a ``decide`` crosses its boundary,
decides and resumes (``Cross``, ``Decide``, ``Resume``; across ``process`` the study's worker
takes the decision and the resume). The session is the study's, in the conversation's mode, with
a hook that answers what the current step says; ``--fix`` wraps it with the workaround. The
agent carries one tool per available kind and an input guardrail that trips on the steps that
ask it to; the model is the study's scripted model: the step's calls first, then plain answers.

After every step the record keeps the stored history, each model input and each compaction
input the step sent, and judges the invariants' rules on them (``analysis.invariants``, applied
to the step as the stage it plays: an ``ask`` is a next turn, a ``decide`` a resume).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from ..analysis.invariants import evaluate
from ..study.capture import CaseRun, Stage, StageName, sdk_version
from ..study.driver import Ask, Cross, Decide, Driver, Resume, Setup
from ..study.driver import Step as StudyStep
from ..study.items import Item
from ..study.scenario import Case
from ..study.words import Kind, Mode
from ..study.worker import Worker as Worker  # the explorer's worker is the study's
from .conversation import Judgement, Step, StepRecord
from .kinds import call_id, call_item

ROLE_SKIPS = {  # invariants that do not apply to the stage a step plays (no step is a case's pause)
    "ask": ("resumed_input_paired", "pause_accepted"),
    "decide": ("next_turn_input_paired", "next_turn_accepted", "pause_accepted"),
}


def key_of(item: Item) -> str:
    """The id a pending item is decided by: its ``call_id``, or a hosted request's ``id``."""
    return str(item.get("call_id") or item.get("id") or "?")


def scratch_folder() -> str | None:
    """Where conversations keep their SQLite files: memory-backed ``/dev/shm`` when there is
    one (the store's many small writes dominate a step on disk), else the default."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None


class Live:
    """The study's driver for one conversation on a store in ``folder``."""

    def __init__(self, mode: Mode, fix: bool, kinds: tuple[Kind, ...], folder: Path) -> None:
        wrap = None
        if fix:
            from ..fix.workaround import defer_compaction_while_pending

            wrap = defer_compaction_while_pending
        setup = Setup(mode, "never", kinds, guardrail=True, wrap=wrap)
        self.driver = Driver(setup, folder / "history.db")

    @property
    def pending(self) -> bool:
        """Whether an approval is open: only then can a ``decide`` step be taken."""
        return self.driver.state is not None

    def close(self) -> None:
        self.driver.close()


def judge_step(stage: Stage, action: str, approvals: int) -> tuple[Judgement, ...]:
    """The invariants' own rules on one step, placed as the stage it plays in a case."""
    role: StageName = "next_turn" if action == "ask" else "resume"
    empty = [Stage(name="pause", stored=[]), Stage(name="round_trip", stored=[])]
    if role == "resume":
        stages = [*empty, replace(stage, name="resume"), Stage(name="next_turn", stored=[])]
    else:
        stages = [*empty, Stage(name="resume", stored=stage.stored), replace(stage, name=role)]
    run = CaseRun(Case(), sdk_version(), stages, approvals, stage.dispatches)
    skip = ROLE_SKIPS[action]
    return tuple(
        Judgement(v.invariant, v.holds, v.detail, tuple(sorted({o.key for o in v.offenders})))
        for v in evaluate(run)
        if v.invariant not in skip
    )


async def take(live: Live, index: int, step: Step, worker: Worker | None = None) -> StepRecord:
    """Run one step on the live conversation and judge it."""
    steps: list[StudyStep]
    if step.action == "ask":
        reply = tuple(call_item(kind, call_id(kind, index, n)) for n, kind in enumerate(step.calls))
        steps = [Ask(f"question {index}", reply, step.runner, step.compact, step.ending, "resume")]
    else:
        resume = Resume(runner=step.runner, compact=step.compact)
        steps = [Cross(step.boundary, stage=None), Decide(step.decision), resume]
    live.driver.worker = worker
    turns = await live.driver.take(steps)
    stage, last = turns[-1].stage, turns[-1]
    assert stage is not None  # every explored step ends a stage: the last study step records it
    approvals = sum(turn.approvals for turn in turns)
    pending = tuple(key_of(i) for i in last.interruptions)
    judged = judge_step(stage, step.action, approvals)
    return StepRecord(index, step, last.outcome, pending, approvals, stage, judged)
