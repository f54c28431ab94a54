"""Driver: one live conversation, taken step by step by the study's driver.

An explored step becomes the study's steps: an ``ask`` is an ``Ask`` whose reply holds one call
per kind in ``calls`` (call ids name their kind and step); a ``decide`` crosses its boundary,
decides and resumes (``Cross``, ``Decide``, ``Resume``; across ``process`` the study's worker
takes the decision and the resume); a ``keep`` is the study's ``Keep``, then the live run let go
(``LoseOutput``: nothing stored changes, the saved JSON is the only copy), and a ``decide`` of
the kept state starts with its ``Recall``, which makes it the paused run again. The session is
the study's, in the conversation's mode, with a hook that answers what the current step says;
``--fix`` wraps it with the workaround. The agent carries one tool per available kind and an
input guardrail that trips on the steps that ask it to; the model is the study's scripted
model: the step's calls first, then plain answers.

After every step the record keeps the stored history, each model input and each compaction
input the step sent, and judges the invariants' rules on them (``analysis.invariants``, applied
to the step as the stage it plays: an ``ask`` is a next turn, a ``decide`` a resume, a late one
too; a ``lose`` and a ``keep``, which send nothing, and a ``continue`` are next turns too,
judged on the history they leave). A ``continue`` is ``CONTINUE_TURNS`` plain turns
(``Continue(1)`` each, the hook saying yes), its record their payloads together and the history
after the last; the liveness invariants (``analysis.liveness``) are judged on its turns, their
offender the item that pins the history.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

from ...analysis.invariants import evaluate
from ...analysis.liveness import judge_liveness, liveness_run
from ...fix.workaround import defer_compaction_while_pending
from ...sdks import sdk_module
from ...study.capture import CaseRun, Sdk, Stage, StageName, sdk_version
from ...study.items import Item, to_items
from ...study.scenario import Case
from ...study.words import Ending, Kind, Mode, Model
from .. import paths
from .conversation import CONTINUE_TURNS, TURNLESS, Judgement, Step, StepRecord
from .kinds import call_id

# The Python SDK's folder, reached by name as every SDK's folder is (``sdks``); mypy reads the
# same modules by import.
if TYPE_CHECKING:
    from ...openai_agents import driver as _driver
    from ...openai_agents import kinds as _kinds
    from ...study.worker import Worker  # a worker of any SDK's driver (the Python SDK's is one)
else:
    _driver, _kinds = (sdk_module("python", m) for m in ("driver", "kinds"))

NEXT_TURN_SKIPS = ("resumed_input_paired", "pause_accepted")
RESUME_SKIPS = ("next_turn_input_paired", "next_turn_accepted", "pause_accepted")
ROLE_SKIPS = {  # invariants that do not apply to the stage a step plays (no step is a case's pause)
    "decide": RESUME_SKIPS,
    "finish": RESUME_SKIPS,  # a driver's: the application sends a long-running call's result
} | dict.fromkeys(("ask", "continue", *TURNLESS), NEXT_TURN_SKIPS)
NEXT_TURN: StageName = "next_turn"
ROLES: dict[str, StageName] = dict.fromkeys(ROLE_SKIPS, NEXT_TURN) | dict.fromkeys(
    ("decide", "finish"), "resume"
)


def key_of(item: Item) -> str:
    """The id a pending item is decided by: its ``call_id``, or a hosted request's ``id``."""
    return str(item.get("call_id") or item.get("id") or "?")


def scratch_folder() -> str | None:
    """Where conversations keep their SQLite files: the project's scratch folder, memory-backed
    when there is one (the store's many small writes dominate a step on disk)."""
    return paths.scratch()


class Live:
    """The study's driver for one conversation on a store in ``folder``."""

    def __init__(self, mode: Mode, fix: bool, kinds: tuple[Kind, ...], folder: Path) -> None:
        wrap = None
        if fix:
            wrap = defer_compaction_while_pending
        setup = _driver.Setup(mode, "never", kinds, guardrail=True, wrap=wrap)
        self.driver = _driver.Driver(setup, folder / "history.db")

    @property
    def pending(self) -> bool:
        """Whether an approval is open: only then can a ``decide`` step be taken."""
        return self.driver.state is not None

    @property
    def interruptions(self) -> list[Item]:
        """The items the paused run waits on (none when no approval is open)."""
        state = self.driver.state
        return [] if state is None else to_items(i.raw_item for i in state.get_interruptions())

    @property
    def kept(self) -> bool:
        """Whether the application keeps a paused state aside: only then can it decide it."""
        return bool(self.driver.kept)

    def close(self) -> None:
        self.driver.close()


def judge_step(
    stage: Stage,
    action: str,
    approvals: int,
    version: str | None = None,
    model: Model = "scripted",
    sdk: Sdk = "python",
) -> tuple[Judgement, ...]:
    """The invariants' own rules on one step, placed as the stage it plays in a case (on a
    driver: its release, its model wiring and its SDK, which the judge reads)."""
    role = ROLES[action]
    empty = [Stage(name="pause", stored=[]), Stage(name="round_trip", stored=[])]
    if role == "resume":
        stages = [*empty, replace(stage, name="resume"), Stage(name="next_turn", stored=[])]
    else:
        stages = [*empty, Stage(name="resume", stored=stage.stored), replace(stage, name=role)]
    found = version or sdk_version()
    run = CaseRun(Case(), found, stages, approvals, stage.dispatches, model=model, sdk=sdk)
    skip = ROLE_SKIPS[action]
    return tuple(
        Judgement(v.invariant, v.holds, v.detail, tuple(sorted({o.key for o in v.offenders})))
        for v in evaluate(run)
        if v.invariant not in skip
    )


def joined(stages: list[Stage]) -> Stage:
    """Several turns' stages as one: every payload they sent, the history after the last."""
    last = stages[-1]
    return replace(
        last,
        model_inputs=[items for s in stages for items in s.model_inputs],
        compaction_inputs=[items for s in stages for items in s.compaction_inputs],
        dispatches=sum(s.dispatches for s in stages),
        warnings=[w for s in stages for w in s.warnings],
        http_requests=[r for s in stages for r in s.http_requests],
    )


def judge_later(turns: list[_driver.Turn]) -> tuple[Judgement, ...]:
    """The liveness invariants on a ``continue`` step's turns (the pin is the offender)."""
    return judge_turns([(t.stage, t.outcome) for t in turns])


def judge_turns(
    later: Sequence[tuple[Stage | None, str]], version: str | None = None
) -> tuple[Judgement, ...]:
    """The liveness invariants on later turns, each its stage and what the user met."""
    run = liveness_run("explore", version or sdk_version(), "", False, later)
    judged = []
    for v in judge_liveness(run):
        pin = v.detail.pin
        judged.append(Judgement(v.invariant, v.holds, v.detail.text, (pin.key,) if pin else ()))
    return tuple(judged)


def study_steps(index: int, step: Step) -> list[_driver.Step]:
    """The study's steps an explored step is taken as."""
    if step.action == "ask":
        reply = tuple(
            _kinds.call_item(kind, call_id(kind, index, n)) for n, kind in enumerate(step.calls)
        )
        ending = cast(Ending, step.ending)  # the study's endings: ``die`` is a driver's
        return [
            _driver.Ask(f"question {index}", reply, step.runner, step.compact, ending, "resume")
        ]
    record = _driver.Continue(
        0, stage="resume"
    )  # a turn of nothing: the history as the step left it
    if step.action == "lose":
        return [_driver.LoseOutput(), record]
    if step.action == "keep":  # the JSON saved, the run in memory let go
        return [_driver.Keep(), _driver.LoseOutput(), record]
    if step.action == "continue":
        return [
            _driver.Continue(1, step.runner, "resume", compact=True) for _ in range(CONTINUE_TURNS)
        ]
    resume = _driver.Resume(runner=step.runner, compact=step.compact)
    recall: list[_driver.Step] = [_driver.Recall()] if step.kept else []
    return [
        *recall,
        _driver.Cross(step.boundary, stage=None),
        _driver.Decide(step.decision),
        resume,
    ]


async def take(live: Live, index: int, step: Step, worker: Worker | None = None) -> StepRecord:
    """Run one step on the live conversation and judge it."""
    live.driver.worker = worker
    turns = await live.driver.take(study_steps(index, step))
    staged = [t for t in turns if t.stage is not None]
    outcome = turns[0 if step.action in TURNLESS else -1].outcome  # lost, kept, ...
    assert staged  # every explored step ends a stage: the last study step records it
    stage = joined([t.stage for t in staged if t.stage]) if len(staged) > 1 else staged[-1].stage
    assert stage is not None
    approvals = sum(turn.approvals for turn in turns)
    pending = tuple(key_of(i) for i in live.interruptions)
    judged = judge_step(stage, step.action, approvals)
    if step.action == "continue":
        judged += judge_later(staged)
    return StepRecord(index, step, outcome, pending, approvals, stage, judged)
