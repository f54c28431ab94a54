"""Sweep: the JS study on each ``@openai/agents`` release with the compaction session.

Every release runs the same plans (``PLANS``: each compaction mode, ``auto`` with the agent's
``store`` unset and ``false``), judged by the shared invariants; a release's result is one
``SweepRecord`` per plan: how many of the 16 cases break an invariant, which invariants, and where
the user meets the API's refusal. The pinned release also runs ``PINNED_PLANS`` (the SDK's
default trigger, and a session in a file read back by a second Node process), into
``data/js-modes.json``; its input-mode matrix is ``data/js-matrix.*``, beside the Python one.
``WORKAROUND_PLANS`` are ``PLANS`` with the session wrapped by ``js/workaround.mjs``: the
workaround's sweep (``data/js-workaround-sweep.json``) says on which releases it holds.
``liveness_plans`` run the liveness situations instead of the cases, each followed by N later
turns, in every plan (``run_js_liveness``), for ``analysis.liveness`` to judge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..analysis.invariants import judge_all
from ..analysis.liveness import DEFAULT_TURNS, LivenessRun
from ..formats.progress import Progress
from ..formats.records import write_records
from ..lab import paths
from ..lab.releases.driven import SweepRecord, record, unavailable
from ..study.capture import CaseRun
from ..study.scenario import Case
from ..study.words import SITUATIONS as PYTHON_SITUATIONS
from .files import data_file
from .harness import Plan, run_plans, run_situations
from .packages import NpmError, package_folder, release_dates, releases

PLANS: tuple[Plan, ...] = (
    Plan("input"),
    Plan("previous_response_id"),
    Plan("auto"),
    Plan("auto", response_store=False),
)
PINNED_PLANS: tuple[Plan, ...] = (*PLANS, Plan("input", session="file", process=True))
# The SDK's default trigger (compact at 10 candidate items) at each pause position: 0 to 20
# plain turns stored before the turn that pauses, one case (run, approve, JSON round trip).
POSITIONS: tuple[int, ...] = tuple(range(21))
EXPOSED_CASE = Case("run", "approve", "on", "json")
EXPOSURE_PLANS: tuple[Plan, ...] = tuple(
    replace(plan, trigger="default", positions=POSITIONS, cases=(EXPOSED_CASE,)) for plan in PLANS
)
WORKAROUND_PLANS: tuple[Plan, ...] = tuple(replace(plan, workaround=True) for plan in PLANS)


@dataclass(frozen=True)
class JsExposure:
    """One pause position under the SDK's default trigger: whether compaction ran at the pause,
    and whether the conversation broke an invariant (and where the user met the refusal)."""

    sdk_version: str
    plan: str
    mode: str
    response_store: bool | None
    position: int  # plain turns stored before the turn that pauses
    compacted_at_pause: bool
    violating: bool
    raised_at: str


def exposure_records(plan: Plan, runs: Sequence[CaseRun]) -> list[JsExposure]:
    """A default-trigger plan's runs, one per position, as records."""
    rows = []
    for position, judged in zip(plan.positions, judge_all(runs), strict=True):
        pause = judged.run.stage("pause")
        refused = next((s for s in judged.run.stages if not s.outcome.ok), None)
        rows.append(
            JsExposure(
                sdk_version=judged.run.sdk_version,
                plan=plan.label,
                mode=plan.mode,
                response_store=plan.response_store,
                position=position,
                compacted_at_pause=bool(pause and pause.compaction_inputs)
                or bool(refused and refused.name == "pause"),
                violating=bool(judged.violations),
                raised_at=refused.name if refused else "",
            )
        )
    return rows


def run_release(
    version: str, plans: Sequence[Plan] = PLANS, dates: dict[str, str] | None = None
) -> list[tuple[Plan, list[CaseRun]]]:
    """Every plan's runs on one release (installed first when it is not yet)."""
    folder = package_folder(version, dates)
    return list(zip(plans, run_plans(plans, folder), strict=True))


def release_records(ran: Sequence[tuple[Plan, list[CaseRun]]]) -> list[SweepRecord]:
    return [record(plan, judge_all(runs)) for plan, runs in ran]


def sweep(
    versions: Sequence[str] | None = None, folder: Path = paths.DATA, workaround: bool = False
) -> list[Path]:
    """Every release (or those given), each plan judged, into ``js-sweep.json`` (with the
    workaround: ``WORKAROUND_PLANS`` into ``js-workaround-sweep.json``)."""
    dates = release_dates()
    chosen = list(versions) if versions else releases(dates)
    plans = WORKAROUND_PLANS if workaround else PLANS
    rows: list[SweepRecord] = []
    with Progress("js-sweep", len(chosen), "releases") as progress:
        for version in chosen:
            try:
                rows += release_records(run_release(version, plans, dates))
            except NpmError as error:  # recorded for the release: the others still run
                rows += [unavailable(version, plan, str(error)) for plan in plans]
            progress.step()
    return write_records(
        data_file("workaround_sweep", folder) if workaround else data_file("sweep", folder),
        rows,
        SweepRecord,
    )


# The liveness situations (JS): those the JS SDK can express; ``poisoned`` needs a store an
# affected Python release wrote.
SITUATIONS: tuple[str, ...] = tuple(s for s in PYTHON_SITUATIONS if s != "poisoned")


def liveness_plans(workaround: bool = False, turns: int = DEFAULT_TURNS) -> tuple[Plan, ...]:
    """The sweep's plans (every mode), each running every situation instead of the cases."""
    return tuple(
        replace(plan, cases=(), situations=SITUATIONS, later=turns, workaround=workaround)
        for plan in PLANS
    )


def run_js_liveness(
    package: Path, workaround: bool = False, release: str | None = None,
    turns: int = DEFAULT_TURNS,
) -> list[LivenessRun]:  # fmt: skip
    """Every situation in every plan on the package installed in ``package``."""
    ran = run_situations(liveness_plans(workaround, turns), package, release)
    return [run for runs in ran for run in runs]
