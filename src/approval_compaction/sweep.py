"""Sweep: the sixteen-case matrix on every ``openai-agents`` release, each in its own environment.

Each release gets a virtual environment with only ``openai-agents==X``, its dependencies
resolved against the package index as it was when X was uploaded (uv's ``--exclude-newer``),
so that it runs with the ``openai`` and ``pydantic`` its users had. Environments are cached
and reused; the probe (``probe.py``) runs the cases inside one and the records are judged
here, with the same invariants as the matrix on the pinned release.

Results are merged into ``data/sweep.json`` (the ``matrix`` JSON schema plus the resolved
``openai`` and ``pydantic``) and ``data/sweep.csv`` as releases finish (at most every few
seconds, and when the sweep ends or is interrupted), so an interrupted sweep keeps what it
finished; the next one reuses those releases unless asked to refresh.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import pandas as pd
from tqdm import tqdm  # type: ignore[import-untyped]  # tqdm ships no type information

from . import paths
from .errors import InvestigationError
from .files import write_atomic
from .invariants import INVARIANTS
from .matrix import MatrixRecord, records
from .probe import BOOTSTRAP, case_run_from_json
from .scenario import Case, all_cases
from .versions import (
    PACKAGE,
    fetch_releases,
    load_releases,
    needs_index,
    parse_versions,
    save_releases,
    version_key,
)

PACKAGE_DIR = Path(__file__).resolve().parent
PROBE_TIMEOUT_SECONDS = 600
INSTALL_TIMEOUT_SECONDS = 900
UNAVAILABLE = "unavailable"
SAVE_EVERY_SECONDS = 10.0  # rewriting the merged files after every release would cost more
Report = Callable[[str], None]


class SweepError(InvestigationError):
    """A sweep that cannot start: no uv, no release list, or a bad option."""


@dataclass(frozen=True)
class ReleaseRecord(MatrixRecord):
    """A matrix record from one release, with the dependency versions it resolved to."""

    openai: str
    pydantic: str


COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(ReleaseRecord))


# ---------------------------------------------------------------------------- environments


def default_envs() -> Path:
    """Where release environments live: the user's cache, one folder per Python version."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "approval-compaction" / f"py{sys.version_info.major}.{sys.version_info.minor}"


def uv_binary() -> str:
    beside = Path(sys.executable).parent / "uv"
    found = str(beside) if beside.exists() else shutil.which("uv")
    if found is None:
        raise SweepError("uv not found: run `make setup` (it installs uv into .venv)")
    return found


@dataclass(frozen=True)
class Environment:
    """One release's virtual environment, ready once its marker file records the install."""

    folder: Path
    version: str
    exclude_newer: str

    @property
    def python(self) -> Path:
        return self.folder / "bin" / "python"

    @property
    def marker(self) -> Path:
        return self.folder / "approval-compaction.json"

    def spec(self) -> dict[str, str]:
        return {PACKAGE: self.version, "exclude_newer": self.exclude_newer}

    def ready(self) -> bool:
        try:
            return bool(json.loads(self.marker.read_text()) == self.spec())
        except (OSError, ValueError):
            return False


def _run(command: Sequence[str], timeout: float, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(command), capture_output=True, text=True, timeout=timeout, check=False, **kwargs
    )


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else "no output"


def _failure(proc: subprocess.CompletedProcess[str]) -> str:
    """A failed uv command in one line: its error and the cause it gives, else its last line."""
    lines = [" ".join(line.split()) for line in proc.stderr.splitlines()]
    told = [line for line in lines if line.startswith(("error:", "cause:", "×", "╰─▶"))]
    return "; ".join(told)[:300] if told else _last_line(proc.stderr or proc.stdout)


def install(env: Environment, uv: str) -> str | None:
    """Create the environment unless it is ready; return the error if it cannot be installed.

    The index is asked first, as of the release's upload date; if that fails (offline, say),
    uv tries again from its cache alone.
    """
    if env.ready():
        return None
    shutil.rmtree(env.folder, ignore_errors=True)
    venv = _run([uv, "venv", "--quiet", "--python", sys.executable, str(env.folder)], 120)
    if venv.returncode != 0:
        return f"uv venv failed: {_failure(venv)}"
    command = [uv, "pip", "install", "--quiet", "--python", str(env.python)]
    command += ["--exclude-newer", env.exclude_newer, f"{PACKAGE}=={env.version}"]
    errors = []
    for extra in ([], ["--offline"]):
        proc = _run(command + extra, INSTALL_TIMEOUT_SECONDS)
        if proc.returncode == 0:
            write_atomic(env.marker, json.dumps(env.spec(), sort_keys=True) + "\n")
            return None
        errors.append(_failure(proc))
    return f"install failed: {errors[0]}"


# ---------------------------------------------------------------------------- one release


def probe_environment() -> dict[str, str]:
    """The probe's environment: no inherited Python paths, and no way to reach a provider."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.pop("OPENAI_API_KEY", None)
    env.update(PYTHONNOUSERSITE="1", OPENAI_BASE_URL="http://127.0.0.1:9/blocked")
    return env


def run_probe(env: Environment, case: str | None = None) -> dict[str, Any]:
    """Run the probe in the release's environment and return its JSON result."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-probe-") as folder:
        output = Path(folder) / "probe.json"
        command = [str(env.python), "-c", BOOTSTRAP, str(PACKAGE_DIR), "--output", str(output)]
        command += ["--case", case] if case else []
        try:
            proc = _run(command, PROBE_TIMEOUT_SECONDS, cwd=folder, env=probe_environment())
        except subprocess.TimeoutExpired:
            return {UNAVAILABLE: f"probe timed out after {PROBE_TIMEOUT_SECONDS} s"}
        if proc.returncode != 0 or not output.exists():
            return {UNAVAILABLE: f"probe failed: {_last_line(proc.stderr)}"}
        result: dict[str, Any] = json.loads(output.read_text())
        return result


def unavailable_records(version: str, error: str, cases: Iterable[Case]) -> list[ReleaseRecord]:
    """One record per case and invariant, so an unavailable release still fills its column."""
    return [
        ReleaseRecord(
            sdk_version=version,
            **case.as_dict(),
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


def release_records(version: str, result: dict[str, Any]) -> list[ReleaseRecord]:
    """Judge a probe's runs with the matrix's invariants, adding the resolved dependencies."""
    if UNAVAILABLE in result:
        return unavailable_records(version, str(result[UNAVAILABLE]), all_cases())
    runs = [case_run_from_json(run) for run in result["runs"]]
    deps = {"openai": result["openai"], "pydantic": result["pydantic"]}
    return [ReleaseRecord(**asdict(record), **deps) for record in records(runs)]


def run_release(
    version: str, exclude_newer: str, envs: Path, uv: str, case: str | None = None
) -> list[ReleaseRecord]:
    """Install (or reuse) the release's environment, run the cases there and judge them."""
    env = Environment(envs / version, version, exclude_newer)
    error = install(env, uv)
    if error is not None:
        return unavailable_records(version, error, all_cases())
    return release_records(version, run_probe(env, case))


# ---------------------------------------------------------------------------- results file

_CASE_ORDER = {tuple(case.as_dict().values()): index for index, case in enumerate(all_cases())}


def _order(row: dict[str, Any]) -> tuple[Any, ...]:
    case = tuple(row[name] for name in ("runner", "decision", "compaction", "state_boundary"))
    return (version_key(row["sdk_version"]), _CASE_ORDER[case], INVARIANTS.index(row["invariant"]))


def load_results(path: Path) -> list[dict[str, Any]]:
    """The records of an earlier sweep, or none."""
    if not path.exists():
        return []
    try:
        rows: list[dict[str, Any]] = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise SweepError(f"{path} is not valid JSON ({error.msg}, line {error.lineno})") from None
    return rows


def merge(rows: Sequence[dict[str, Any]], version: str, new: Sequence[ReleaseRecord]) -> list[Any]:
    """Replace one release's records, keeping the others, in a stable order."""
    kept = [row for row in rows if row["sdk_version"] != version]
    return sorted(kept + [asdict(record) for record in new], key=_order)


def write_results(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """Write the records as JSON, and as CSV beside it, each atomically."""
    write_atomic(path, json.dumps(list(rows), indent=2) + "\n")
    frame = pd.DataFrame(list(rows), columns=list(COLUMNS))
    write_atomic(path.with_suffix(".csv"), str(frame.to_csv(index=False, lineterminator="\n")))


def completed(rows: Iterable[dict[str, Any]]) -> set[str]:
    """Releases with results to reuse: every one that ran (an unavailable one is retried)."""
    return {row["sdk_version"] for row in rows if row["status"] != UNAVAILABLE}


def summary(rows: Iterable[dict[str, Any] | ReleaseRecord]) -> str:
    """One release's records in a few words: what is violated, and with which dependencies."""
    plain = [asdict(r) if isinstance(r, ReleaseRecord) else r for r in rows]
    statuses = {row["status"] for row in plain}
    if statuses == {UNAVAILABLE}:
        return f"unavailable: {plain[0]['detail']}"
    broken = [
        name
        for name in INVARIANTS
        if any(row["invariant"] == name and row["holds"] is False for row in plain)
    ]
    words = "violated: " + ", ".join(broken) if broken else "all invariants hold"
    if "not applicable" in statuses:
        words += " (some cases not applicable)"
    return f"{words}  [openai {plain[0]['openai']}, pydantic {plain[0]['pydantic']}]"


# ---------------------------------------------------------------------------- the sweep


def resolve_releases(
    spec: str | None,
    dates: Path = paths.RELEASE_DATES,
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


def _timed(*args: Any) -> tuple[list[ReleaseRecord], float]:
    start = time.monotonic()
    return run_release(*args), time.monotonic() - start


def sweep(
    versions: Sequence[str],
    cutoffs: dict[str, str],
    output: Path,
    *,
    envs: Path | None = None,
    jobs: int = 1,
    refresh: bool = False,
) -> list[dict[str, Any]]:
    """Run each release not yet in ``output`` (all with ``refresh``), merging as it goes."""
    if jobs < 1:
        raise SweepError(f"--jobs must be at least 1, not {jobs}")
    uv, folder = uv_binary(), envs or default_envs()
    rows = load_results(output)
    reuse = set() if refresh else completed(rows) & set(versions)
    todo = [v for v in versions if v not in reuse]
    with tqdm(total=len(versions), unit="release", disable=None, file=sys.stderr) as bar:
        for version in sorted(reuse, key=version_key):
            mine = [row for row in rows if row["sdk_version"] == version]
            bar.write(f"{version:<8} reused  {summary(mine)}")
            bar.update()
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
        written, unsaved = time.monotonic(), False
        try:
            futures = {pool.submit(_timed, v, cutoffs[v], folder, uv): v for v in todo}
            for future in concurrent.futures.as_completed(futures):
                version = futures[future]
                new, took = future.result()
                rows, unsaved = merge(rows, version, new), True
                if time.monotonic() - written >= SAVE_EVERY_SECONDS:
                    write_results(output, rows)
                    written, unsaved = time.monotonic(), False
                bar.write(f"{version:<8} ran {took:5.1f}s  {summary(new)}")
                bar.update()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            if unsaved:  # also when interrupted: what finished is kept
                write_results(output, rows)
    return rows


def command(args: argparse.Namespace) -> int:
    """``sweep``: resolve the releases, run them, and say where the results are."""
    versions, cutoffs = resolve_releases(args.versions)
    envs = Path(args.envs) if args.envs else None
    output = Path(args.output)
    rows = sweep(versions, cutoffs, output, envs=envs, jobs=args.jobs, refresh=args.refresh)
    swept = {row["sdk_version"] for row in rows}
    print(f"wrote {output} and {output.with_suffix('.csv').name}: {len(swept)} releases")
    return 0


def register(commands: Any) -> None:
    """Add the ``sweep`` subcommand to the CLI."""
    sweep_cmd = commands.add_parser("sweep", help="run the matrix on every openai-agents release")
    sweep_cmd.add_argument(
        "--versions",
        help="releases: 0.23.1, 0.8.0,0.23.1, 0.20.0..0.24.0 or 0.20.0.. (default: all)",
    )
    sweep_cmd.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    sweep_cmd.add_argument("--refresh", action="store_true", help="re-run releases already swept")
    sweep_cmd.add_argument("--output", default=str(paths.SWEEP), help="results JSON (CSV beside)")
    sweep_cmd.add_argument("--envs", help="folder for the release environments (default: cache)")
    sweep_cmd.set_defaults(handler=command)
