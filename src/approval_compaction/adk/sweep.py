"""Sweep: the ADK study on each ``google-adk`` release with tool confirmation and events
compaction, and its liveness situations.

Every release runs the same plans (``PLANS``: the four compaction kinds), judged by the shared
invariants; a release's result is one sweep record per plan (``lab.releases.driven``'s record, the
same for every driver): how many of the 16 cases break an invariant, which invariants, and
where the user's code raised. A kind the release cannot configure (the token threshold before
it existed) is recorded as not applicable, with the reason. ``liveness_plans`` run the
liveness situations instead of the cases, each followed by N later turns, in every kind
(``run_adk_liveness``), for ``analysis.liveness`` to judge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..analysis.invariants import judge_all
from ..analysis.liveness import DEFAULT_TURNS, LivenessRecord, LivenessRun, liveness_records
from ..formats.progress import Progress
from ..formats.records import write_records
from ..lab import paths
from ..lab.releases.driven import SweepRecord, record, unavailable
from ..lab.releases.environments import Environment
from ..study.capture import CaseRun
from ..study.scenario import Case, all_cases
from ..study.words import Model
from .files import Name, data_file
from .harness import OVER_HTTP, SITUATIONS, Plan, run_plan, run_plans, run_situations
from .packages import (
    AdkEnvironmentError,
    release_dates,
    release_environment,
    releases,
    responses_environment,
)
from .words import KINDS as ADK_KINDS
from .words import Kind as AdkKind

PLANS: tuple[Plan, ...] = tuple(Plan(kind) for kind in ADK_KINDS)
# The same kinds with ADK's OpenAIResponsesLlm, its requests sent to the stand-in over HTTP.
HTTP_PLANS: tuple[Plan, ...] = tuple(replace(plan, model="responses") for plan in PLANS)


def environment_for(
    version: str, plans: Sequence[Plan], dates: dict[str, str] | None = None
) -> Environment:
    """The release's environment for ``plans`` (made first when it is not yet): with the
    ``openai`` client when a plan sends its model requests over HTTP."""
    if any(plan.model == "responses" for plan in plans):
        return responses_environment(version, dates)
    return release_environment(version, dates)


def run_release(
    version: str, plans: Sequence[Plan] = PLANS, dates: dict[str, str] | None = None
) -> list[tuple[Plan, list[CaseRun]]]:
    """Every plan's runs on one release (its environment made first when it is not yet)."""
    env = environment_for(version, plans, dates)
    return list(zip(plans, run_plans(plans, env.python), strict=True))


def release_records(ran: Sequence[tuple[Plan, list[CaseRun]]]) -> list[SweepRecord]:
    return [record(plan, judge_all(runs)) for plan, runs in ran]


def sweep(versions: Sequence[str] | None = None, folder: Path = paths.DATA) -> list[Path]:
    """Every release (or those given): each kind's cases judged, into ``adk-sweep.json``, and
    the liveness situations in every kind, into ``adk-sweep-liveness.json`` (both written after
    each release, so a sweep cut short keeps what it ran)."""
    dates = release_dates()
    chosen = list(versions) if versions else releases(dates)
    rows: list[SweepRecord] = []
    live: list[LivenessRecord] = []
    written: list[Path] = []
    with Progress("adk-sweep", len(chosen), "releases") as progress:
        for version in chosen:
            try:
                rows += release_records(run_release(version, PLANS, dates))
                live += liveness_records(
                    run_adk_liveness(release_environment(version, dates).python)
                )
            except AdkEnvironmentError as error:  # recorded for the release: the others run
                rows += [unavailable(version, plan, str(error)) for plan in PLANS]
            written = write_records(data_file("sweep", folder), rows, SweepRecord)
            written += write_records(data_file("sweep_liveness", folder), live, LivenessRecord)
            progress.step()
    return written


def sweep_over_http(versions: Sequence[str] | None = None, folder: Path = paths.DATA) -> list[Path]:
    """Every release with ``OpenAIResponsesLlm`` (or those given): each kind's cases with it, every
    model request sent to the stand-in over HTTP, into ``adk-sweep-responses.json`` (written after
    each release), to set beside the scripted sweep's prediction."""
    from ..lab.releases.versions import version_key
    from .packages import FIRST_RESPONSES

    dates = release_dates()
    first = version_key(FIRST_RESPONSES)
    chosen = list(versions) if versions else [v for v in releases(dates) if version_key(v) >= first]
    rows: list[SweepRecord] = []
    written: list[Path] = []
    with Progress("adk-sweep --model responses", len(chosen), "releases") as progress:
        for version in chosen:
            try:
                rows += release_records(run_release(version, HTTP_PLANS, dates))
            except AdkEnvironmentError as error:
                rows += [unavailable(version, plan, str(error)) for plan in HTTP_PLANS]
            written = write_records(data_file("sweep_responses", folder), rows, SweepRecord)
            progress.step()
    return written


def liveness_plans(turns: int = DEFAULT_TURNS) -> tuple[Plan, ...]:
    """Every kind, each running every situation instead of the cases."""
    return tuple(replace(plan, cases=(), situations=SITUATIONS, later=turns) for plan in PLANS)


def run_adk_liveness(
    python: Path, release: str | None = None, turns: int = DEFAULT_TURNS, model: Model = "scripted"
) -> list[LivenessRun]:
    """Every situation in every kind with the ``google-adk`` beside ``python`` (``model``:
    ``responses`` for ADK's ``OpenAIResponsesLlm`` on the stand-in over HTTP)."""
    plans = tuple(replace(plan, model=model) for plan in liveness_plans(turns))
    ran = run_situations(plans, python, release)
    return [run for runs in ran for run in runs]


def run_adk_responses(
    version: str, turns: int = DEFAULT_TURNS
) -> tuple[list[tuple[Plan, list[CaseRun]]], list[LivenessRun]]:
    """The cases in every kind and the liveness situations on a release with ADK's own
    ``OpenAIResponsesLlm``, every model request sent to the stand-in over HTTP (the situations'
    release labelled ``<version> over HTTP``)."""
    ran = run_release(version, HTTP_PLANS)
    python = environment_for(version, HTTP_PLANS).python
    live = run_adk_liveness(python, f"{version} {OVER_HTTP}", turns, model="responses")
    return ran, live


def merge(folders: Sequence[Path], folder: Path = paths.DATA) -> list[Path]:
    """The sweeps written to several folders (releases swept in parallel), in release order,
    into ``folder``'s ``adk-sweep.json`` and ``adk-sweep-liveness.json``."""
    from ..formats.records import read_records
    from ..lab.releases.versions import version_key

    def read(name: Name, kind: type[Any]) -> list[Any]:
        found = [
            row
            for part in folders
            if (path := data_file(name, part)).is_file()
            for row in read_records(path, kind)
        ]
        return sorted(found, key=lambda r: version_key(r.sdk_version.split("+")[0]))

    written = write_records(data_file("sweep", folder), read("sweep", SweepRecord), SweepRecord)
    live = read("sweep_liveness", LivenessRecord)
    return written + write_records(data_file("sweep_liveness", folder), live, LivenessRecord)


def run_adk(
    kind: AdkKind = "window-0", cases: Sequence[Case] = (), release: str | None = None
) -> list[CaseRun]:
    """The cases (every one when none are given) in one compaction kind, on a release (the
    pinned one by default), its environment made with uv on first use."""
    from .packages import pinned

    env = release_environment(release or pinned())
    return run_plan(Plan(kind, cases=tuple(cases) or tuple(all_cases())), env.python)
