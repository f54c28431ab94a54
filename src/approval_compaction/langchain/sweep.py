"""Sweep: the LangChain study on every ``langchain`` 1.x release, and its liveness situations.

Every release runs the same plans (``PLANS``: each compaction kind, with Chat Completions and
with the Responses API), judged by the shared invariants; a release's result is one sweep
record per plan (``lab.releases.driven``'s record, the same for every driver): how many of the 16
cases break an invariant, which, and where the user's code raised. ``liveness_plans`` run the
liveness situations instead of the cases, each followed by N later turns, in every plan, for
``analysis.liveness`` to judge. A release's plans, cases and situations run in one process of
its interpreter. Every release is swept, so a boundary is where two consecutive releases read
differently (``boundaries``), the bisection's answer without its guesses; ``changes`` names
what moved each one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import cast

from ..analysis.invariants import judge_all
from ..analysis.liveness import DEFAULT_TURNS, LivenessRecord, LivenessRun, liveness_records
from ..formats.progress import Progress
from ..formats.records import read_records, write_records
from ..lab import paths
from ..lab.releases.driven import SweepRecord, record, unavailable
from ..lab.releases.versions import version_key
from ..study.capture import CaseRun
from ..study.scenario import Case, all_cases
from .files import data_file
from .harness import APIS, STEPS, Api, Kind, Plan, run_driver
from .items import read_liveness, read_run
from .packages import LangchainEnvironmentError, release_dates, release_environment, releases

PLANS: tuple[Plan, ...] = tuple(Plan(kind, api) for api in APIS for kind in STEPS)
SETTINGS: tuple[str, ...] = tuple(plan.label for plan in PLANS)
# The situations on the pinned and the patched package also run without compaction (``none``),
# the control that says what compaction changes.
CONTROLS: tuple[Plan, ...] = tuple(Plan("none", api) for api in APIS)
# The liveness situations: the decision never given (the user asks something else), a worker
# that stops once the model's call is stored, the approval given late (after ``BETWEEN``
# questions), the call's arguments edited by the human, and the control.
SITUATIONS: tuple[str, ...] = ("abandoned", "lost", "resumed", "edited", "clean")
SWEEP_TURNS = 4  # the later turns after each situation on every release (the pinned: 10)


def liveness_plans(turns: int = DEFAULT_TURNS, plans: Sequence[Plan] = PLANS) -> tuple[Plan, ...]:
    """Every setting, each running every situation instead of the cases."""
    return tuple(replace(plan, cases=(), situations=SITUATIONS, later=turns) for plan in plans)


@dataclass(frozen=True)
class Ran:
    """One release's runs: each plan's cases, and every situation's liveness run."""

    cases: list[tuple[Plan, list[CaseRun]]]
    liveness: list[LivenessRun]

    def records(self) -> list[SweepRecord]:
        return [record(plan, judge_all(runs)) for plan, runs in self.cases]


def run_all(
    python: Path,
    plans: Sequence[Plan] = PLANS,
    turns: int = DEFAULT_TURNS,
    release: str | None = None,
    live: Sequence[Plan] = PLANS,
) -> Ran:
    """The plans' cases and every situation in the settings ``live`` names, in one process of
    ``python`` (``release`` names a patched package in the liveness runs)."""
    live = liveness_plans(turns, live) if turns else ()
    lines = run_driver([*plans, *live], python)
    mine = lines[: len(plans)]
    cases = [
        (plan, [read_run(line) for line in found]) for plan, found in zip(plans, mine, strict=True)
    ]
    runs = [read_liveness(line, release) for found in lines[len(plans) :] for line in found]
    return Ran(cases, runs)


def sweep(versions: Sequence[str] | None = None, folder: Path = paths.DATA) -> list[Path]:
    """Every release not swept yet (or those given, again): each setting's cases judged, into
    ``langchain-sweep.json``, and the situations in every setting, into
    ``langchain-sweep-liveness.json`` (both written after each release, so a sweep cut short
    keeps what it ran, and the next one goes on from there)."""
    dates = release_dates()
    sweep_file, live_file = data_file("sweep", folder), data_file("sweep_liveness", folder)
    done = {r.sdk_version for r in _read(sweep_file, SweepRecord)}
    chosen = list(versions) if versions else [v for v in releases(dates) if v not in done]
    rows = [r for r in _read(sweep_file, SweepRecord) if r.sdk_version not in chosen]
    live = [r for r in _read(live_file, LivenessRecord) if r.sdk_version not in chosen]
    written: list[Path] = []
    with Progress("langchain-sweep", len(chosen), "releases") as progress:
        for version in chosen:
            try:
                ran = run_all(release_environment(version, dates).python, turns=SWEEP_TURNS)
                rows += ran.records()
                live += liveness_records(ran.liveness)
            except LangchainEnvironmentError as error:  # recorded: the others still run
                rows += [unavailable(version, plan, str(error)) for plan in PLANS]
            rows.sort(key=lambda r: version_key(r.sdk_version))
            live.sort(key=lambda r: version_key(r.sdk_version))
            written = write_records(sweep_file, rows, SweepRecord)
            written += write_records(live_file, live, LivenessRecord)
            progress.step()
    return written


def _read(path: Path, kind: type) -> list:  # type: ignore[type-arg]
    return list(read_records(path, kind)) if path.is_file() else []


def run_langchain(
    kind: str = "keep-1", api: str = "chat", cases: Sequence[Case] = (), release: str | None = None
) -> list[CaseRun]:
    """The cases (every one when none are given) in one setting, on a release (the pinned one
    by default), its environment made with uv on first use."""
    from .harness import run_plans
    from .packages import pinned

    plan = Plan(cast(Kind, kind), cast(Api, api), cases=tuple(cases) or tuple(all_cases()))
    (runs,) = run_plans([plan], release_environment(release or pinned()).python)
    return runs


def run_situation(
    name: str, kind: str = "keep-1", api: str = "chat", release: str | None = None, turns: int = 3
) -> LivenessRun:
    """One liveness situation in one setting on a release (the pinned one by default)."""
    from .harness import run_situations
    from .packages import pinned

    plan = Plan(cast(Kind, kind), cast(Api, api), cases=(), situations=(name,), later=turns)
    ((run,),) = run_situations([plan], release_environment(release or pinned()).python)
    return run


def merge(folders: Sequence[Path], folder: Path = paths.DATA) -> list[Path]:
    """The sweeps written to several folders (releases swept in parallel), in release order and
    each release once (from the first folder holding it), into ``folder``'s sweep files."""
    rows: list[SweepRecord] = []
    live: list[LivenessRecord] = []
    for part in folders:
        seen = {r.sdk_version for r in rows}
        rows += [
            r for r in _read(data_file("sweep", part), SweepRecord) if r.sdk_version not in seen
        ]
        found = _read(data_file("sweep_liveness", part), LivenessRecord)
        live += [r for r in found if r.sdk_version not in seen]
    rows.sort(key=lambda r: version_key(r.sdk_version))
    live.sort(key=lambda r: version_key(r.sdk_version))
    written = write_records(data_file("sweep", folder), rows, SweepRecord)
    return written + write_records(data_file("sweep_liveness", folder), live, LivenessRecord)
