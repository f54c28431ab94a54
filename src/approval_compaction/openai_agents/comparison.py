"""Comparison: the pinned release unfixed, with the workaround, and the newest release.

The first two run in this process; the newest release runs in its own environment (the
sweep's), once, by ``python -m approval_compaction fix-data``, which writes its runs under
``data/`` (``FIXED_STEM``, ``NEWEST_STEM``) beside the pinned release's runs. Notebooks read
those files and never create environments. Each variant is a list of ``CaseRun``; the functions
here lay the variants side by side: compactions made, and one case's stages (``findings``
summarises each variant's verdicts).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..display.views import stage_summary
from ..fix.workaround import defer_compaction_while_pending
from ..formats.records import read_json_list
from ..lab import paths
from ..lab.releases import environments
from ..lab.releases.sweep import run_probe
from ..study.capture import CaseRun, StageName
from ..study.scenario import CaseValueError, select_cases
from ..study.words import STUDY_FIRST, STUDY_MODE
from .harness import run_matrix
from .wiring import backend_for

FIXED_STEM, NEWEST_STEM = paths.FIX_MATRIX, paths.NEWEST_MATRIX
Variants = Mapping[str, Sequence[CaseRun]]


def fixed_runs() -> list[CaseRun]:
    """The sixteen cases on the installed release, with the workaround."""
    return run_matrix(wrap_session=defer_compaction_while_pending)


def load_runs(path: Path) -> list[CaseRun]:
    """Runs written by ``write_matrix`` (its ``*-runs.json``)."""
    return read_json_list(path, CaseRun.from_json)


def newest_runs(version: str, envs: Path, report: Callable[[str], None] = print) -> list[CaseRun]:
    """Run the sixteen cases in the release's environment, creating it if needed."""
    env = environments.release_environment(version, envs)
    result = run_probe(env, modes=(STUDY_MODE,))
    if "unavailable" in result:
        raise environments.SweepError(f"{version}: {result['unavailable']}")
    report(f"{version}: openai {result['openai']}, pydantic {result['pydantic']}")
    runs = [CaseRun.from_json(item) for item in result["runs"]]
    # The probe also runs each case over HTTP; the comparison is of the scripted model's runs.
    return [run for run in runs if run.model == "scripted"]


def compaction_counts(variants: Variants) -> pd.DataFrame:
    """Compaction requests each case made, per variant, and in which stages."""
    columns: dict[str, pd.Series] = {}
    for name, runs in variants.items():
        columns[name] = pd.Series(
            {run.case.label: _per_stage(run) for run in runs}, name=name, dtype=object
        )
    table = pd.DataFrame(columns)
    table.index.name = "case"
    return table


def compactions_by_boundary(variants: Variants) -> pd.DataFrame:
    """06's table: the compaction requests of a compaction-on case per boundary and variant
    (``compaction_counts``' cells), one row per boundary; raises if two `on` cases of one
    boundary compact differently in some variant (the row would not stand for them)."""
    counts = compaction_counts(variants)
    on = counts[[label.split("/")[2] == "on" for label in counts.index]]
    boundary = on.index.map(lambda label: label.rsplit("/", 1)[1]).rename("boundary")
    if not on.groupby(boundary).nunique().eq(1).all(axis=None):
        raise CaseValueError("the `on` cases of one boundary compact differently")
    return on.groupby(boundary).first()


def refused_by_mode(released: bool = True) -> pd.DataFrame:
    """06's table: the eight compaction-on cases over HTTP to the stand-in (the SDK's Responses
    client), in each compaction mode, as released (unless not ``released``: r24, 06 ran 05's
    scenario again to show one column) and with the workaround; per mode, the stages at which
    the stand-in refused a request (HTTP 400) and in how many cases, or ``none`` (r16: 06
    advised the workaround in every mode and showed it in `input` mode only)."""
    http, on = backend_for("responses"), select_cases("compaction=on")
    wraps: dict[str, Callable[[Any], Any] | None] = {"as released": None} if released else {}
    wraps["with the workaround"] = defer_compaction_while_pending
    said: dict[str, dict[str, str]] = {}
    for mode in STUDY_FIRST:
        for name, wrap in wraps.items():
            runs = run_matrix(on, wrap_session=wrap, backend=http, mode=mode)
            where = [s.name for r in runs for s in r.stages if s.outcome.http_status == 400]
            counts = (f"at {st}: {where.count(st)} of {len(runs)}" for st in dict.fromkeys(where))
            said.setdefault(name, {})[mode] = ", ".join(counts) or "none"
    return pd.DataFrame(said).rename_axis("compaction mode")


def _per_stage(run: CaseRun) -> str:
    parts = [f"{s.name} {len(s.compaction_inputs)}" for s in run.stages if s.compaction_inputs]
    return f"{run.compaction_requests}" + (f" ({', '.join(parts)})" if parts else "")


def pick(runs: Sequence[CaseRun], label: str) -> CaseRun:
    """The run of one case, by its label (``run/reject/on/json``)."""
    found = [run for run in runs if run.case.label == label]
    if not found:
        raise CaseValueError(f"no run for case {label!r}")
    return found[0]


def per_variant(
    variants: Variants,
    label: str,
    view: Callable[[CaseRun, StageName], pd.DataFrame],
    stage: StageName,
) -> pd.DataFrame:
    """One view (``stage_table``, ``stage_diff``, ...) of one case and stage, for each variant."""
    frames = {name: view(pick(runs, label), stage) for name, runs in variants.items()}
    table = pd.concat(frames, names=["variant"])
    numbers: list[Hashable] = [n for n, name in enumerate(table.index.names) if name is None]
    return table.droplevel(numbers) if numbers else table  # a view's row numbers left out


def stage_summaries(variants: Variants, label: str) -> pd.DataFrame:
    """``stage_summary`` of one case, for each variant."""
    return pd.concat({name: stage_summary(pick(runs, label)) for name, runs in variants.items()})
