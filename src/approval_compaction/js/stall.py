"""Stall: a plain conversation on ``@openai/agents``, continued turn after turn, as its own study.

No tool and no approval: a plain agent answers N questions on the compaction session
(``STALL_PLANS``): in each compaction mode (``input``, ``previous_response_id``), on each runner,
with the hook always saying yes (``ALWAYS_TURNS`` turns) or the SDK's default trigger
(``DEFAULT_TURNS`` turns, which it asks for at 10 candidate items), and with the compaction
endpoint answering in each shape (``keeps_users``, as the API documents it; ``summary_only``,
the labelled variant). Each conversation is a liveness run, judged by ``analysis.liveness``
with its trigger's threshold, and kept as one ``StallRecord``: what each turn stored, sent the
model and compacted, and the verdicts. ``sweep`` runs every release with the session into
``data/js-stall-sweep.json`` (each release installed once, as the JS sweep does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..analysis.liveness import LivenessRun, judge_liveness, session_usable
from ..formats.progress import Progress
from ..formats.records import read_records, write_records
from ..lab import paths
from ..study.words import Mode
from ..wire.rules import COMPACT_SHAPES, CompactShape
from .files import data_file
from .harness import Plan, run_situations
from .packages import PACKAGE, NpmError, package_folder, release_dates, releases

ALWAYS_TURNS = 8  # plain questions with the hook always saying yes
DEFAULT_TURNS = 32  # with the SDK's default trigger: three times its threshold, and two more
STALL_MODES: tuple[Mode, ...] = ("input", "previous_response_id")
RUNNERS = ("run", "run_streamed")
TRIGGERS = ("always", "default")  # the hook always says yes; the SDK's own trigger
SITUATION = "clean"  # the liveness situation with nothing left behind: a plain conversation
# How a team sees the stall in its own logs: the SDK's debug logger (``DEBUG`` naming its
# namespace) writes this line at each turn whose compaction it skips (``tests/js/test_stall.py``).
STALL_LOG_NAMESPACE = "openai-agents:openai:compaction"
STALL_LOG = "skip: stored history is not covered by the successful model exchange"


def stall_plan(mode: Mode, runner: str, trigger: str, shape: CompactShape) -> Plan:
    """One plain conversation's plan: no tool, the trigger's number of turns."""
    turns = ALWAYS_TURNS if trigger == "always" else DEFAULT_TURNS
    return Plan(
        mode,
        trigger="case" if trigger == "always" else "default",
        cases=(),
        situations=(SITUATION,),
        later=turns,
        runner=runner,  # type: ignore[arg-type]
        tools=False,
        shape=shape,
    )


STALL_PLANS: tuple[Plan, ...] = tuple(
    stall_plan(mode, runner, trigger, shape)
    for shape in COMPACT_SHAPES
    for trigger in TRIGGERS
    for mode in STALL_MODES
    for runner in RUNNERS
)


def trigger_word(plan: Plan) -> str:
    return "always" if plan.trigger == "case" else "default"


@dataclass(frozen=True)
class StallRecord:
    """One plain conversation on one package: the SDK, its release and what was added to it
    (``variant``: "", ``workaround``, or the patch's file), the plan, each turn's stored items,
    model-input items and whether it compacted, and the liveness verdicts (None: not judged,
    with the ``error`` saying why)."""

    sdk: str
    release: str
    variant: str
    mode: str
    runner: str
    trigger: str
    shape: str
    turns: int
    compactions: int
    compacted_at: str  # the turns that ran a compaction, space-separated
    stored: str  # the stored items after each turn, space-separated
    inputs: str  # the items of each turn's last model request, space-separated
    compaction_runs: bool | None
    history_bounded: bool | None
    session_usable: bool | None
    broken: str  # the first broken verdict's evidence ("" when none)
    error: str

    @property
    def stalls(self) -> bool:
        """The session stopped compacting, or its history grew past what its trigger allows."""
        return self.compaction_runs is False or self.history_bounded is False

    def stored_counts(self) -> list[int]:
        return [int(n) for n in self.stored.split()]

    def input_counts(self) -> list[int]:
        return [int(n) for n in self.inputs.split()]

    def compacted_turns(self) -> list[int]:
        return [int(n) for n in self.compacted_at.split()]


def stall_record(
    run: LivenessRun,
    *,
    sdk: str,
    release: str,
    variant: str,
    runner: str,
    trigger: str,
    shape: str,
) -> StallRecord:
    """One conversation's run as its record, judged by ``analysis.liveness``."""
    verdicts = {v.invariant: v for v in judge_liveness(run)}
    broken = next((v for v in verdicts.values() if v.holds is False), None)
    compacted = [n for n, t in enumerate(run.turns, 1) if t.compacted]
    return StallRecord(
        sdk=sdk,
        release=release,
        variant=variant,
        mode=run.mode,
        runner=runner,
        trigger=trigger,
        shape=shape,
        turns=len(run.turns),
        compactions=len(compacted),
        compacted_at=" ".join(map(str, compacted)),
        stored=" ".join(str(t.length) for t in run.turns),
        inputs=" ".join(str(t.inputs) for t in run.turns),
        compaction_runs=verdicts["compaction_runs"].holds,
        history_bounded=verdicts["history_bounded"].holds,
        session_usable=session_usable(run).holds,
        broken=f"{broken.invariant}: {broken.detail.text}" if broken else "",
        error=run.error,
    )


# A release without the ``compactionMode`` option (before 0.4.1) always compacts by
# ``previous_response_id``, which is what its ``auto`` is; it has no ``input`` mode (with the
# agent's ``store: false`` every compaction is refused: the response cannot be named), so an
# ``input`` plan stays not run there, saying why.
AUTO_EQUIVALENT: dict[str, tuple[Mode, bool | None]] = {"previous_response_id": ("auto", None)}
NO_MODES = "no compactionMode option"  # the harness's words for such a release


def run_stall(
    package: Path, release: str, variant: str = "", plans: Sequence[Plan] = STALL_PLANS
) -> list[StallRecord]:
    """Every plan's conversation on the ``@openai/agents`` installed in ``package``; on a
    release without ``compactionMode``, a mode's ``auto`` equivalent where it has one
    (``AUTO_EQUIVALENT``, the record's mode saying which)."""
    chosen = [replace(plan, workaround=variant == "workaround") for plan in plans]
    ran = list(run_situations(chosen, package, release))
    unable = [
        n
        for n, runs in enumerate(ran)
        if chosen[n].mode in AUTO_EQUIVALENT and any(NO_MODES in r.error for r in runs)
    ]
    if unable:
        auto = [
            replace(chosen[n], mode=mode, response_store=store)
            for n in unable
            for mode, store in (AUTO_EQUIVALENT[chosen[n].mode],)
        ]
        for n, runs in zip(unable, run_situations(auto, package, release), strict=True):
            ran[n] = runs
    return [
        stall_record(
            run,
            sdk=PACKAGE,
            release=release,
            variant=variant,
            runner=plan.runner,
            trigger=trigger_word(plan),
            shape=plan.shape,
        )
        for plan, runs in zip(chosen, ran, strict=True)
        for run in runs
    ]


def unavailable(version: str, why: str, plans: Sequence[Plan] = STALL_PLANS) -> list[StallRecord]:
    """Each plan of a release that could not be installed, not judged, with the reason."""
    return [
        StallRecord(
            PACKAGE,
            version,
            "",
            plan.mode,
            plan.runner,
            trigger_word(plan),
            plan.shape,
            0,
            0,
            "",
            "",
            "",
            None,
            None,
            None,
            "",
            why,
        )  # fmt: skip
        for plan in plans
    ]


def sweep(versions: Sequence[str] | None = None, folder: Path = paths.DATA) -> list[Path]:
    """Every release with the session (or those given: the others' records already in
    ``js-stall-sweep.json`` are kept), each plan judged, into ``js-stall-sweep.json``."""
    dates = release_dates()
    chosen = list(versions) if versions else releases(dates)
    target = data_file("stall_sweep", folder)
    kept = read_records(target, StallRecord) if versions and target.is_file() else []
    rows = [r for r in kept if r.release not in chosen]
    with Progress("js-stall", len(chosen), "releases") as progress:
        for version in chosen:
            try:
                rows += run_stall(package_folder(version, dates), version)
            except NpmError as error:  # recorded for the release: the others still run
                rows += unavailable(version, str(error))
            progress.step()
    order = {version: n for n, version in enumerate(releases(dates))}
    rows.sort(key=lambda r: order.get(r.release, len(order)))  # stable: plans keep their order
    return write_records(target, rows, StallRecord)


@dataclass(frozen=True)
class StallTestRecord:
    """One regression test file on one package (a release, or the pinned one patched)."""

    package: str
    test: str  # the file's name
    tests: int
    passed: int
    failed: int
