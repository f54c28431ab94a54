"""Sweep: the sixteen-case matrix on every ``openai-agents`` release, each in its own environment.

Each release runs in its cached environment (``environments``); the probe (``probe``) runs the
cases inside it and the records are judged here, with the same invariants as the matrix on the
pinned release. The probe runs each case on two models where it can: on the scripted model,
whose verdicts fill every invariant, and over HTTP on the SDK's own Responses model, whose
``pause_accepted`` and ``next_turn_accepted`` (what the user sees: ok, or the 400) replace the
scripted ones. The matrix records are of the study's compaction mode (``input``); the probe also
runs every case in the SDK's other modes, and what the user meets at each stage of every run
over HTTP, in each mode (``meeting``), goes to ``data/sweep-meetings.json``. One
interpreter per release runs all of it, leaving out the runs no file keeps (``probe.plan``), and
the releases share the cores (``--jobs``); the progress goes to stderr (``formats.progress``).

The study-mode runs on the scripted model are continued for 10 later turns, so the two liveness
invariants are matrix records there too; and each release runs the liveness situations
(poisoned, abandoned, lost and the clean control, in the ``input`` and ``auto`` modes, given the
poisoned history the pinned release writes, computed once here), judged by
``analysis.liveness`` into ``data/sweep-liveness.json``.

Results are merged into ``data/sweep.json`` (the ``matrix`` schema plus the resolved ``openai``
and ``pydantic``), ``data/sweep-meetings.json``, ``data/sweep-liveness.json`` and their CSV
files as releases finish (at most
every few seconds, and when the sweep ends or is interrupted), so an interrupted sweep keeps
what it finished; the next one reuses those releases unless asked to refresh.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ...analysis import vocabulary
from ...analysis.invariants import ACCEPTED, INVARIANTS
from ...analysis.liveness import LIVENESS_NAMES, LivenessRecord, LivenessRun, liveness_records
from ...analysis.matrix import MatrixRecord, records
from ...formats.files import write_atomic
from ...formats.progress import Progress
from ...formats.records import read_records, write_records
from ...sdks import sdk_module
from ...study.capture import LATER_TURNS, CaseRun
from ...study.items import Item
from ...study.scenario import Case, all_cases, select_cases
from ...study.words import SITUATIONS, STUDY_MODE, Model
from .. import paths
from .environments import (
    Environment,
    ProbeError,
    SweepError,
    default_envs,
    install,
    run_module,
    uv_binary,
)
from .later_turns import unjudged
from .meeting import MEETING_STAGES, Meeting, all_meetings
from .probe import MODULE as PROBE_MODULE
from .probe import OBSERVED, PROBE_MODES, ProbeResult, probe
from .versions import (
    fetch_releases,
    load_releases,
    needs_index,
    parse_versions,
    save_releases,
    version_key,
)

PROBE_TIMEOUT_SECONDS = 600
OBSERVED_MODEL: Model = OBSERVED  # its verdicts on ``ACCEPTED`` replace the scripted model's
UNAVAILABLE = vocabulary.STATUS_UNAVAILABLE
NOT_APPLICABLE = vocabulary.STATUS_NOT_APPLICABLE
SAVE_EVERY_SECONDS = 10.0  # rewriting the merged files after every release would cost more
Report = Callable[[str], None]


Judgement = bool | None  # True: holds, False: broken, None: cannot be judged


def judge_rows(
    rows: Iterable[MatrixRecord], invariant: str, cases: str | None = None
) -> dict[str, Judgement]:
    """Per release: False if a selected case violates the invariant, True if all judged hold."""
    wanted = {tuple(c.as_dict().values()) for c in select_cases(cases)}
    seen: dict[str, list[bool]] = {}
    for row in rows:
        if row.invariant != invariant or row.case_key not in wanted:
            continue
        verdicts = seen.setdefault(row.sdk_version, [])
        if row.holds is not None:
            verdicts.append(bool(row.holds))
    return {version: (all(v) if v else None) for version, v in seen.items()}


class _OfRelease(Protocol):
    """A record of one release (a matrix record, a meeting, a liveness record)."""

    @property
    def sdk_version(self) -> str: ...


Row = TypeVar("Row", bound=_OfRelease)


@dataclass(frozen=True)
class ReleaseRecord(MatrixRecord):
    """A matrix record from one release, with the dependency versions it resolved to."""

    openai: str
    pydantic: str


COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(ReleaseRecord))


# ---------------------------------------------------------------------------- one release


def run_probe(
    env: Environment,
    case: str | None = None,
    modes: Sequence[str] = PROBE_MODES,
    timeout: float = PROBE_TIMEOUT_SECONDS,
    later: int = LATER_TURNS,
    situations: Path | None = None,
    lean: bool = False,
) -> ProbeResult:
    """Run the probe in the release's environment, in the compaction modes given, the study's
    continued ``later`` turns, and the liveness situations from the poisoned history in the
    file ``situations`` when given (``lean``: only the runs the sweep keeps, ``probe.plan``);
    return its JSON result."""
    try:
        result: ProbeResult = run_module(
            env.python,
            PROBE_MODULE,
            *(["--case", case] if case else []),
            "--modes",
            ",".join(modes),
            "--later",
            str(later),
            *(["--situations", str(situations)] if situations else []),
            *(["--lean"] if lean else []),
            timeout=timeout,
        )
    except ProbeError as error:
        return {"unavailable": str(error)}
    return result


def unavailable_records(version: str, error: str, cases: Iterable[Case]) -> list[ReleaseRecord]:
    """One record per case and invariant, so an unavailable release still fills its column."""
    return [
        ReleaseRecord(
            sdk_version=version,
            **case.as_dict(),
            model="",
            invariant=invariant,
            holds=None,
            detail=error,
            dispatches=0,
            compaction_requests=0,
            status=UNAVAILABLE,
            openai="",
            pydantic="",
        )
        for case in cases
        for invariant in INVARIANTS
    ]


def combine(rows: Sequence[MatrixRecord]) -> list[MatrixRecord]:
    """One record per case and invariant: what the runner handed the scripted model for every
    invariant but the two the user sees (``ACCEPTED``), which are taken from the run over HTTP
    (``responses``) where the release has one; the ``model`` column says which run each verdict
    comes from."""
    observed = {
        (row.case_key, row.invariant): row
        for row in rows
        if row.model == OBSERVED_MODEL and row.invariant in ACCEPTED
    }
    return [
        observed.get((row.case_key, row.invariant), row) if row.invariant in ACCEPTED else row
        for row in rows
        if row.model != OBSERVED_MODEL
    ]


def _runs(result: ProbeResult) -> list[CaseRun]:
    return [CaseRun.from_json(data) for data in result.get("runs", [])]


def release_records(version: str, result: ProbeResult) -> list[ReleaseRecord]:
    """Judge a probe's runs in the study's mode with the matrix's invariants, adding the
    resolved dependencies."""
    if "unavailable" in result:
        return unavailable_records(version, result["unavailable"], all_cases())
    runs = [run for run in _runs(result) if run.mode == STUDY_MODE]
    return [
        ReleaseRecord(**asdict(record), openai=result["openai"], pydantic=result["pydantic"])
        for record in combine(records(runs))
    ]


def judged(
    env: Environment, case: str | None = None, timeout: float = PROBE_TIMEOUT_SECONDS
) -> list[ReleaseRecord]:
    """The cases (those ``case`` selects) run by the probe in an environment (a release's, or a
    patched one), judged as the sweep judges a release."""
    return release_records(env.version, run_probe(env, case, timeout=timeout))


def release_meetings(result: ProbeResult) -> list[Meeting]:
    """What the user met at each stage of each of the probe's runs over HTTP (the scripted
    model's, on a release that cannot run the responses model; none when unavailable)."""
    runs = _runs(result)
    observed = [run for run in runs if run.model == OBSERVED_MODEL]
    return all_meetings(observed or runs)


def write_pinned_meetings(folder: Path = paths.DATA) -> list[Path]:
    """What the user meets on the installed release, every case over HTTP in every mode, as
    ``meetings.json`` (and its CSV) under ``folder``."""

    result = probe(all_cases(), models=(OBSERVED_MODEL,))
    return write_records(paths.data(folder).meetings, release_meetings(result), Meeting)


def release_liveness(version: str, result: ProbeResult) -> list[LivenessRecord]:
    """The liveness situations' records of one release: each situation, mode and liveness
    invariant judged; on a release that is unavailable (or ran none), each one not judged, with
    the reason."""
    runs = [LivenessRun.from_json(data) for data in result.get("liveness", [])]
    if not runs:
        why = result.get("unavailable", "") or "the probe ran no liveness situation"
        runs = unjudged(version, why)
    return liveness_records(runs)


@dataclass(frozen=True)
class Swept:
    """One release's results: its matrix records, what the user met in each run, and its
    liveness situations' records."""

    records: list[ReleaseRecord]
    meetings: list[Meeting]
    liveness: list[LivenessRecord] = field(default_factory=list)


def sweep_release(
    version: str,
    exclude_newer: str,
    envs: Path,
    uv: str,
    case: str | None = None,
    situations: Path | None = None,
) -> Swept:
    """Install (or reuse) the release's environment, run the cases there and judge them (and
    the liveness situations, from the poisoned history in ``situations``, when given)."""
    env = Environment(envs / version, version, exclude_newer)
    error = install(env, uv)
    if error is not None:
        down: ProbeResult = {"unavailable": error}
        live = release_liveness(version, down) if situations else []
        return Swept(unavailable_records(version, error, all_cases()), [], live)
    result = run_probe(env, case, situations=situations, lean=True)
    live = release_liveness(version, result) if situations else []
    return Swept(release_records(version, result), release_meetings(result), live)


def run_release(
    version: str, exclude_newer: str, envs: Path, uv: str, case: str | None = None
) -> list[ReleaseRecord]:
    """The release's matrix records (``sweep_release`` without the meetings)."""
    return sweep_release(version, exclude_newer, envs, uv, case).records


# ---------------------------------------------------------------------------- results file

_CASE_ORDER = {tuple(case.as_dict().values()): index for index, case in enumerate(all_cases())}


def _order(row: ReleaseRecord) -> tuple[Any, ...]:
    position = _CASE_ORDER[row.case_key], INVARIANTS.index(row.invariant)
    return (version_key(row.sdk_version), *position)


_MODE_ORDER: dict[str, int] = {mode: index for index, mode in enumerate(PROBE_MODES)}


def _meeting_order(row: Meeting) -> tuple[Any, ...]:
    models = (row.model != "scripted", row.model)
    where = _MODE_ORDER.get(row.mode, len(_MODE_ORDER)), _CASE_ORDER[row.case_key]
    return (version_key(row.sdk_version), *models, *where, MEETING_STAGES.index(row.stage))


_SITUATION_ORDER: dict[str, int] = {name: index for index, name in enumerate(SITUATIONS)}


def _liveness_order(row: LivenessRecord) -> tuple[Any, ...]:
    where = _MODE_ORDER.get(row.mode, len(_MODE_ORDER)), _SITUATION_ORDER[row.scenario]
    return (version_key(row.sdk_version), *where, LIVENESS_NAMES.index(row.invariant))


def meetings_path(path: Path) -> Path:
    """The meetings file beside a sweep's results file (``sweep-meetings.json``)."""
    return path.with_name(f"{path.stem}-meetings.json")


def liveness_path(path: Path) -> Path:
    """The liveness file beside a sweep's results file (``sweep-liveness.json``)."""
    return path.with_name(f"{path.stem}-liveness.json")


def load_liveness(path: Path = paths.DATA_FILES.sweep_liveness) -> list[LivenessRecord]:
    """The liveness situations of an earlier sweep, or none when there is no file yet."""
    return read_records(path, LivenessRecord) if path.exists() else []


def merge_liveness(
    rows: Sequence[LivenessRecord], version: str, new: Sequence[LivenessRecord]
) -> list[LivenessRecord]:
    """Replace one release's liveness records, keeping the others, in a stable order."""
    return _replaced(rows, version, new, _liveness_order)


def load_results(path: Path) -> list[ReleaseRecord]:
    """The records of an earlier sweep, or none when there is no results file yet."""
    return read_records(path, ReleaseRecord) if path.exists() else []


def load_meetings(path: Path = paths.DATA_FILES.sweep_meetings) -> list[Meeting]:
    """What the user met in an earlier sweep's runs, or none when there is no file yet."""
    return read_records(path, Meeting) if path.exists() else []


def merge(
    rows: Sequence[ReleaseRecord], version: str, new: Sequence[ReleaseRecord]
) -> list[ReleaseRecord]:
    """Replace one release's records, keeping the others, in a stable order."""
    return _replaced(rows, version, new, _order)


def merge_meetings(rows: Sequence[Meeting], version: str, new: Sequence[Meeting]) -> list[Meeting]:
    """Replace one release's meetings, keeping the others, in a stable order."""
    return _replaced(rows, version, new, _meeting_order)


def _replaced(
    rows: Sequence[Row], version: str, new: Sequence[Row], order: Callable[[Row], Any]
) -> list[Row]:
    kept = [row for row in rows if row.sdk_version != version]
    return sorted([*kept, *new], key=order)


def write_results(
    path: Path,
    rows: Sequence[ReleaseRecord],
    met: Sequence[Meeting] | None = None,
    live: Sequence[LivenessRecord] | None = None,
) -> None:
    """Write the records as JSON, and as CSV beside it, each atomically; and the meetings and
    the liveness records beside them, when given."""
    write_records(path, rows, ReleaseRecord)
    if met is not None:
        write_records(meetings_path(path), met, Meeting)
    if live is not None:
        write_records(liveness_path(path), live, LivenessRecord)


def completed(
    rows: Iterable[ReleaseRecord],
    met: Iterable[Meeting] | None = None,
    live: Iterable[LivenessRecord] | None = None,
) -> set[str]:
    """Releases with results to reuse: every one that ran (an unavailable one is retried) and,
    when meetings are given, has them (or could run no case at all); when liveness records are
    given, has them too, and ran the cases continued (the matrix's liveness records)."""
    rows = list(rows)
    ran = {row.sdk_version for row in rows if row.status != UNAVAILABLE}
    if met is not None:
        runnable = {
            row.sdk_version for row in rows if row.status not in (UNAVAILABLE, NOT_APPLICABLE)
        }
        ran &= {row.sdk_version for row in met} | (ran - runnable)
    if live is not None:
        continued = {row.sdk_version for row in rows if row.invariant in LIVENESS_NAMES}
        ran &= {row.sdk_version for row in live} & continued
    return ran


def poisoned_file(folder: Path) -> Path:
    """The poisoned history the pinned release writes (``liveness.poisoned_history``, run
    here, once), as the JSON file each release's probe reads its situations from."""

    later_turns = sdk_module("python", "later_turns")  # the Python SDK's folder, by name (sdks)
    history: list[Item] = later_turns.poisoned_history()
    path = folder / "poisoned.json"
    write_atomic(path, json.dumps(history))
    return path


def summary(rows: Sequence[ReleaseRecord]) -> str:
    """One release's records in a few words: what is violated, and with which dependencies."""
    statuses = {row.status for row in rows}
    if statuses == {UNAVAILABLE}:
        return f"unavailable: {rows[0].detail}"
    broken = [name for name in INVARIANTS if False in judge_rows(rows, name).values()]
    words = "violated: " + ", ".join(broken) if broken else "all invariants hold"
    if vocabulary.STATUS_NOT_APPLICABLE in statuses:
        words += " (some cases not applicable)"
    return f"{words}  [openai {rows[0].openai}, pydantic {rows[0].pydantic}]"


# ---------------------------------------------------------------------------- the sweep


def resolve_releases(
    spec: str | None,
    dates: Path = paths.DATA_FILES.release_dates,
    fetch: Callable[[], dict[str, str]] | None = None,
    report: Report = print,
) -> tuple[list[str], dict[str, str]]:
    """The releases a spec names and every release's cutoff, asking the index only if needed."""
    known = load_releases(dates)
    if needs_index(spec, list(known)):
        try:
            fresh = (fetch or fetch_releases)()
        except Exception as error:  # offline, blocked or down: the cached list has to do
            report(f"package index unreachable ({type(error).__name__}); using {dates.name}")
        else:
            if fresh != known:
                save_releases(dates, fresh)
            known = fresh
    if not known:
        raise SweepError(f"no release list: the index is unreachable and {dates} is missing")
    return parse_versions(spec, list(known)), known


def _timed(
    version: str, cutoff: str, envs: Path, uv: str, situations: Path | None
) -> tuple[Swept, float]:
    start = time.monotonic()
    done = sweep_release(version, cutoff, envs, uv, situations=situations)
    return done, time.monotonic() - start


def sweep(
    versions: Sequence[str],
    cutoffs: dict[str, str],
    output: Path,
    *,
    envs: Path | None = None,
    jobs: int = 1,
    refresh: bool = False,
) -> list[ReleaseRecord]:
    """Run each release not yet in ``output`` (all with ``refresh``), merging as it goes."""
    if jobs < 1:
        raise SweepError(f"--jobs must be at least 1, not {jobs}")
    uv, folder = uv_binary(), envs or default_envs()
    rows, met = load_results(output), load_meetings(meetings_path(output))
    live = load_liveness(liveness_path(output))
    reuse = set() if refresh else completed(rows, met, live) & set(versions)
    todo = [v for v in versions if v not in reuse]
    with (
        Progress("sweep", total=len(versions), unit="releases") as bar,
        tempfile.TemporaryDirectory(prefix="approval-compaction-sweep-") as scratch,
    ):
        poisoned = poisoned_file(Path(scratch)) if todo else None
        for version in sorted(reuse, key=version_key):
            mine = [row for row in rows if row.sdk_version == version]
            print(f"{version:<8} reused  {summary(mine)}", flush=True)
            bar.step()
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
        written, unsaved = time.monotonic(), False
        try:
            futures = {pool.submit(_timed, v, cutoffs[v], folder, uv, poisoned): v for v in todo}
            for future in concurrent.futures.as_completed(futures):
                version = futures[future]
                new, took = future.result()
                rows, unsaved = merge(rows, version, new.records), True
                met = merge_meetings(met, version, new.meetings)
                live = merge_liveness(live, version, new.liveness)
                if time.monotonic() - written >= SAVE_EVERY_SECONDS:
                    write_results(output, rows, met, live)
                    written, unsaved = time.monotonic(), False
                print(f"{version:<8} ran {took:5.1f}s  {summary(new.records)}", flush=True)
                bar.step()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            if unsaved:  # also when interrupted: what finished is kept
                write_results(output, rows, met, live)
    return rows


def command(args: argparse.Namespace) -> int:
    """``sweep``: resolve the releases, run them, and say where the results are."""
    versions, cutoffs = resolve_releases(args.versions)
    envs = Path(args.envs) if args.envs else None
    output = Path(args.output)
    rows = sweep(versions, cutoffs, output, envs=envs, jobs=args.jobs, refresh=args.refresh)
    swept = {row.sdk_version for row in rows}
    beside = ", ".join(
        (output.with_suffix(".csv").name, meetings_path(output).name, liveness_path(output).name)
    )
    print(f"wrote {output} and {beside}: {len(swept)} releases")
    return 0
