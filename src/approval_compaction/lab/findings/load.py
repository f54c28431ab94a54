"""Load: every finding the committed data holds, computed once from ``data/``.

``load_findings`` reads each result file once (the sweep once, the eras computed once from it) and
returns the ``Findings``; the README's block, the report and the snippet render them. A finding
whose file is missing is ``None``, so a scratch folder that holds only some files still loads.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from ...analysis.liveness import LivenessRecord
from ...analysis.matrix import MatrixRecord
from ...doctor.check import from_json, load_check
from ...formats.records import read_json, read_json_list, read_records
from ...study.capture import CaseRun
from ...wire.rules import ApiError, check_pairing
from .. import paths
from ..affected.heal import HealSummary
from ..affected.upgrade import load_upgrade
from ..affected.worker import WorkerComparison
from ..mechanism.record import MechanismError, load_record
from ..releases.crosscheck import CrossRecord
from ..releases.meeting import Meeting
from ..releases.sweep import ReleaseRecord
from .doctor import Check, Upgrade, Worker, check, upgrade
from .fix import Crosscheck, crosscheck_finding, fix_release
from .liveness import LivenessEras, liveness_eras
from .matrix import MatrixFinding, StoreStory, matrix_finding, store_stories
from .mechanism import Mechanism, mechanism_finding
from .releases import (
    ErrorMet,
    ModeStory,
    Releases,
    errors_met,
    merge_errors,
    mode_stories,
    releases_finding,
)
from .verdict import ReleaseVerdict, release_verdicts


@dataclass(frozen=True)
class Findings:
    """What the committed data says: the matrices of the pinned release, the workaround and
    the newest release, the API's error at the next turn, the sweep, the fixing release, the
    regression test across releases, where in the SDK, the doctor's four answers, what the user
    meets on the pinned release in each compaction mode (``meets``), and every refusal a user
    meets, on the pinned release or in the sweep, with every text it is raised as; the eras of
    liveness, which releases keep a session compacting in each situation and mode; and ``auto``
    with the agent's ``ModelSettings(store=...)`` unset and ``False`` (``stores``)."""

    pinned: MatrixFinding | None = None
    fixed: MatrixFinding | None = None
    newest: MatrixFinding | None = None
    errors: tuple[ApiError, ...] = ()
    releases: Releases | None = None
    fixed_in: str | None = None
    crosscheck: Crosscheck | None = None
    mechanism: Mechanism | None = None
    affected: tuple[Check, Check] | None = None
    upgrade: Upgrade | None = None
    worker: Worker | None = None
    heal: HealSummary | None = None
    meets: tuple[ModeStory, ...] = ()
    errors_met: tuple[ErrorMet, ...] = ()
    liveness: LivenessEras | None = None
    stores: tuple[StoreStory, ...] = ()
    exposure: tuple[Check, ...] = ()  # the default trigger's check in each mode, per release
    verdicts: tuple[ReleaseVerdict, ...] = ()  # one record per swept release


def api_errors(runs: Iterable[CaseRun]) -> tuple[ApiError, ...]:
    """The API's answers to the runs' next-turn inputs, as its rules word them, each once."""
    found: list[ApiError] = []
    for run in runs:
        stage = run.stage("next_turn")
        error = check_pairing(stage.model_inputs[-1]) if stage and stage.model_inputs else None
        if error is not None and error not in found:
            found.append(error)
    return tuple(found)


def _matrix(path: Path) -> MatrixFinding | None:
    return matrix_finding(read_records(path, MatrixRecord)) if path.exists() else None


def _mechanism(path: Path, old: str | None, new: str | None) -> Mechanism | None:
    if old is None or new is None or not path.exists():
        return None
    try:
        return mechanism_finding(load_record(path), old, new)
    except MechanismError:  # a release the record does not hold: no paragraph
        return None


def _liveness(path: Path) -> LivenessEras | None:
    return liveness_eras(read_records(path, LivenessRecord)) if path.exists() else None


def _stores(met: list[Meeting], unstored: Path) -> tuple[StoreStory, ...]:
    """``auto`` with the store unset and with ``store=False``, when both files are there."""
    if not (met and unstored.exists()):
        return ()
    return store_stories(met, read_json_list(unstored, CaseRun.from_json))


def load_findings(folder: Path = paths.DATA) -> Findings:
    """Every finding under ``folder``, each file read once."""
    files = paths.data(folder)
    pinned = _matrix(files.matrix)
    runs = files.runs()
    errors = api_errors(read_json_list(runs, CaseRun.from_json)) if runs.exists() else ()
    sweep = read_records(files.sweep, ReleaseRecord) if files.sweep.exists() else None
    met = files.sweep_meetings
    meetings = read_records(met, Meeting) if met.exists() else []
    tests = read_records(files.fix_releases, CrossRecord) if files.fix_releases.exists() else None
    fixed_in = fix_release(tests, sweep) if tests is not None and sweep is not None else None
    old = pinned.releases[0] if pinned and pinned.releases else None
    met_here = read_records(files.meetings, Meeting) if files.meetings.exists() else []
    here = sorted({m.sdk_version for m in met_here})
    releases = releases_finding(sweep, old, meetings) if sweep is not None else None
    pinned_check, newest_check = files.doctor_check_pinned, files.doctor_check_newest
    doctor = (pinned_check, newest_check, files.doctor_upgrade, files.doctor_worker)
    found = Findings(
        pinned=pinned,
        fixed=_matrix(files.fix_matrix),
        newest=_matrix(files.newest_matrix),
        errors=errors,
        releases=releases,
        fixed_in=fixed_in,
        crosscheck=crosscheck_finding(tests) if tests else None,
        mechanism=_mechanism(files.mechanism, old, fixed_in),
        meets=mode_stories(met_here, ", ".join(here)),
        errors_met=merge_errors(releases.errors if releases else (), errors_met(met_here, here)),
        liveness=_liveness(files.sweep_liveness),
        stores=_stores(met_here, files.runs(paths.STORE_FALSE_MATRIX)),
    )
    if files.doctor_check_modes.exists():
        checks = read_json(files.doctor_check_modes, list)
        found = replace(found, exposure=tuple(check(from_json(c)) for c in checks))
    if releases is not None and found.liveness is not None:
        verdicts = release_verdicts(releases, found.liveness, found.exposure, folder)
        found = replace(found, verdicts=verdicts)
    if not all(path.exists() for path in (*doctor, files.doctor_heal)):
        return found
    heal = json.loads(files.doctor_heal.read_text())  # formats: a read_json for one object
    return replace(
        found,
        affected=(check(load_check(pinned_check)), check(load_check(newest_check))),
        upgrade=upgrade(load_upgrade(files.doctor_upgrade)),
        worker=Worker(tuple(read_json_list(files.doctor_worker, _worker))),
        heal=HealSummary(**heal),
    )


def _worker(row: dict[str, object]) -> WorkerComparison:
    lists = {k: tuple(v) for k, v in row.items() if isinstance(v, list)}
    return WorkerComparison(**{**row, **lists})  # type: ignore[arg-type]  # JSON of its fields
