"""Environments: one cached virtual environment per release, and the one way to run in one.

Each release gets a virtual environment with only ``openai-agents==X``, its dependencies
resolved against the package index as it was when X was uploaded (uv's ``--exclude-newer``),
so that it runs with the ``openai`` and ``pydantic`` its users had. Environments live in the
user's cache and are reused while their marker file records the same install.

A release's interpreter (or a fresh one of this environment) starts with ``isolated_environ``:
no inherited Python paths, a fixed hash seed, no way to a model provider, the project's source
folder on ``PYTHONPATH`` (its front door is lazy) and, where asked, a folder of test tools
before it.
``run`` runs any command to completion without raising on failure; ``run_module`` runs
``python -m MODULE ARGS --output FILE`` and returns the JSON the module wrote; ``run_pytest``
runs pytest with a JUnit report and returns its test cases (``junit_cases``, the one JUnit
reader); ``fetch_sdist`` downloads a release's sdist with pip, once; ``install_tools`` puts
this project's pins of pytest, hypothesis and the like into a tools folder once, with uv, so that
the release environments stay as the sweep made them.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import InvestigationError
from ...formats.records import read_json, write_json
from .. import paths
from .versions import PACKAGE, load_releases, sort_versions

INSTALL_TIMEOUT_SECONDS = 900
SDIST_TIMEOUT_SECONDS = 900
TOOLS_MARKER = "approval-compaction-tools.json"
Runner = Callable[..., "subprocess.CompletedProcess[str]"]


class SweepError(InvestigationError):
    """Release work that cannot start: no uv, no release list, or a bad option."""


class ProbeError(SweepError):
    """A command in another environment that failed, timed out or wrote no answer, in one line."""


class SdistError(SweepError):
    """A release's sdist that cannot be fetched or read."""


def default_envs() -> Path:
    """Where release environments live: the user's cache, one folder per Python version."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "approval-compaction" / f"py{sys.version_info.major}.{sys.version_info.minor}"


def uv_binary() -> str:
    """The uv beside this interpreter (``make setup`` installs it), else the one on ``PATH``."""
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
    # What to install, when it is not ``openai-agents==version`` (another SDK's driver).
    requirements: tuple[str, ...] = ()

    @property
    def wanted(self) -> list[str]:
        return list(self.requirements) or [f"{PACKAGE}=={self.version}"]

    @property
    def python(self) -> Path:
        return self.folder / "bin" / "python"

    @property
    def marker(self) -> Path:
        return self.folder / "approval-compaction.json"

    def spec(self) -> dict[str, str]:
        if self.requirements:
            wanted = " ".join(self.requirements)
            return {"requirements": wanted, "exclude_newer": self.exclude_newer}
        return {PACKAGE: self.version, "exclude_newer": self.exclude_newer}

    def ready(self) -> bool:
        return recorded(self.marker, self.spec())


def recorded(marker: Path, spec: object) -> bool:
    """Whether a folder's marker file (written by ``record``) says it holds what ``spec``
    describes: a folder made once (an environment, a checkout, a tools folder) is reused then."""
    try:
        return bool(read_json(marker, lambda found: found == spec))
    except InvestigationError:  # missing, unreadable or no JSON: made again
        return False


def record(marker: Path, spec: object) -> None:
    """Write a folder's marker once it is made (``recorded`` reads it)."""
    write_json(marker, spec, indent=None, sort_keys=True)


# ---------------------------------------------------------------------------- running in one


def last_line(text: str) -> str:
    """The last non-empty line of a command's output, cut to 300 characters."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else "no output"


def isolated_environ(*, with_package: bool = True, tools: Path | None = None) -> dict[str, str]:
    """Variables for another interpreter: no inherited Python paths, no way to a provider.

    With ``with_package`` the project's source folder is on ``PYTHONPATH``, so that interpreter
    imports this package (its light front door) without installing it; ``tools`` (a folder
    ``install_tools`` filled) comes before it.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.pop("OPENAI_API_KEY", None)
    # A fixed hash seed: what another interpreter prints from a set (pytest's "Differing items"
    # of a dict comparison, say) comes out in the same order on every run.
    env.update(PYTHONNOUSERSITE="1", PYTHONHASHSEED="0")
    env.update(OPENAI_BASE_URL="http://127.0.0.1:9/blocked")
    path = [str(tools)] if tools is not None else []
    path += [str(paths.SOURCE)] if with_package else []
    if path:
        env["PYTHONPATH"] = os.pathsep.join(path)
    return env


def run(
    command: Sequence[str],
    timeout: float,
    *,
    cwd: Path | str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run a command to completion, capturing its text output, without raising on failure."""
    return subprocess.run(
        list(command),
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def relayed(
    command: Sequence[str],
    timeout: float,
    relay: Callable[[str], None],
    *,
    cwd: Path | str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``run``, each line the command writes on stderr handed to ``relay`` as it comes (a
    release's search reporting its progress); the lines are also kept, as ``run`` keeps them."""
    with subprocess.Popen(
        list(command),
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        late = threading.Event()

        def kill() -> None:
            late.set()
            proc.kill()

        timer = threading.Timer(timeout, kill)
        timer.start()
        lines = []
        try:
            for line in proc.stderr or ():
                lines.append(line)
                relay(line.rstrip("\n"))
            code = proc.wait()
        finally:
            timer.cancel()
    if late.is_set():
        raise subprocess.TimeoutExpired(list(command), timeout)
    return subprocess.CompletedProcess(list(command), code, "", "".join(lines))


def run_module(
    python: Path | str,
    module: str,
    *args: str,
    timeout: float,
    tools: Path | None = None,
    label: str = "probe",
    relay: Callable[[str], None] | None = None,
) -> Any:
    """Run ``python -m MODULE ARGS --output FILE``, isolated, in a scratch folder, and return
    the JSON it wrote; a one-line ``ProbeError`` (``label`` failed, or timed out) otherwise.
    With ``relay``, each line the module writes on stderr goes to it as it comes."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-run-") as folder:
        output = Path(folder) / "output.json"
        command = [str(python), "-m", module, *args, "--output", str(output)]
        environ = isolated_environ(tools=tools)
        try:
            if relay is None:
                proc = run(command, timeout, cwd=folder, env=environ)
            else:
                proc = relayed(command, timeout, relay, cwd=folder, env=environ)
        except subprocess.TimeoutExpired:
            raise ProbeError(f"{label} timed out after {timeout:g} s") from None
        if proc.returncode != 0 or not output.exists():
            raise ProbeError(f"{label} failed: {last_line(proc.stderr)}")
        return json.loads(output.read_text())


@dataclass(frozen=True)
class JUnitCase:
    """One test case of a JUnit XML report: where pytest names it, and how it ended."""

    classname: str
    name: str
    outcome: str  # passed, failed, error, skipped
    message: str  # the failure's, error's or skip's message on one line ("" when passed)


def junit_cases(text: str) -> list[JUnitCase]:
    """Each test case of a JUnit XML report, in the report's order."""
    found = []
    for case in ET.fromstring(text).iter("testcase"):
        outcome, message = "passed", ""
        for tag in ("failure", "error", "skipped"):
            child = case.find(tag)
            if child is not None:
                outcome = {"failure": "failed"}.get(tag, tag)
                message = " ".join((child.attrib.get("message") or "").split())
                break
        name = case.attrib.get("name", "?")
        found.append(JUnitCase(case.attrib.get("classname", ""), name, outcome, message))
    return found


def run_pytest(
    python: Path | str,
    arguments: Sequence[str],
    *,
    cwd: Path,
    env: dict[str, str],
    timeout: float,
    report: Path,
    label: str = "pytest",
    runner: Runner = run,
) -> list[JUnitCase]:
    """Run pytest with ``python`` (quiet, no cache folder) and read its JUnit report; a
    one-line ``ProbeError`` when it wrote none (it could not collect, or did not start)."""
    command = [str(python), "-m", "pytest", *arguments, "-q", "-p", "no:cacheprovider"]
    proc = runner([*command, f"--junitxml={report}"], timeout, cwd=cwd, env=env)
    if not report.exists():
        raise ProbeError(f"{label} wrote no report: {last_line(proc.stdout + proc.stderr)}")
    return junit_cases(report.read_text())


def pins(names: Sequence[str]) -> list[str]:
    """``name==version`` of each package at the version this project installs."""
    return [f"{name}=={importlib.metadata.version(name)}" for name in names]


def install_tools(folder: Path, names: Sequence[str]) -> Path:
    """This project's pins of ``names`` (pytest, hypothesis, ...) in ``folder``, installed once
    with uv (a marker records what is there); a one-line ``ProbeError`` when uv fails."""
    wanted = pins(names)
    marker = folder / TOOLS_MARKER
    if recorded(marker, wanted):
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    command = [uv_binary(), "pip", "install", "--quiet", "--target", str(folder), *wanted]
    proc = run(command, INSTALL_TIMEOUT_SECONDS)
    if proc.returncode != 0:
        raise ProbeError(f"installing {', '.join(wanted)} failed: {last_line(proc.stderr)}")
    record(marker, wanted)
    return folder


def sdist_archive(version: str, folder: Path) -> Path:
    """Where a release's sdist is in ``folder`` (as pip names it), once fetched."""
    return folder / f"openai_agents-{version}.tar.gz"


def fetch_sdist(version: str, folder: Path, run: Runner = run) -> Path:
    """The sdist of ``openai-agents==version`` in ``folder``, downloaded by pip from the package
    index unless it is there already; a one-line ``SdistError`` when pip gets none."""
    archive = sdist_archive(version, folder)
    if archive.is_file():
        return archive
    folder.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
    command += ["--no-binary", ":all:", "-d", str(folder), f"{PACKAGE}=={version}"]
    proc = run(command, SDIST_TIMEOUT_SECONDS, cwd=folder)
    if proc.returncode != 0 or not archive.is_file():
        raise SdistError(f"{PACKAGE}=={version}: no sdist: {last_line(proc.stderr)}")
    return archive


# ---------------------------------------------------------------------------- making one


def _failure(proc: subprocess.CompletedProcess[str]) -> str:
    """A failed uv command in one line: its error and the cause it gives, else its last line."""
    lines = [" ".join(line.split()) for line in proc.stderr.splitlines()]
    told = [line for line in lines if line.startswith(("error:", "cause:", "×", "╰─▶"))]
    return "; ".join(told)[:300] if told else last_line(proc.stderr or proc.stdout)


def install(env: Environment, uv: str) -> str | None:
    """Create the environment unless it is ready; return the error if it cannot be installed.

    The index is asked first, as of the release's upload date; if that fails (offline, say),
    uv tries again from its cache alone.
    """
    if env.ready():
        return None
    shutil.rmtree(env.folder, ignore_errors=True)
    venv = run([uv, "venv", "--quiet", "--python", sys.executable, str(env.folder)], 120)
    if venv.returncode != 0:
        return f"uv venv failed: {_failure(venv)}"
    command = [uv, "pip", "install", "--quiet", "--python", str(env.python)]
    command += ["--exclude-newer", env.exclude_newer, *env.wanted]
    errors = []
    for extra in ([], ["--offline"]):
        proc = run(command + extra, INSTALL_TIMEOUT_SECONDS)
        if proc.returncode == 0:
            record(env.marker, env.spec())
            return None
        errors.append(_failure(proc))
    return f"install failed: {errors[0]}"


def newest_release(dates: Path = paths.DATA_FILES.release_dates) -> str:
    """The newest release in the release list."""
    releases = sort_versions(load_releases(dates))
    if not releases:
        raise SweepError(f"no release list in {dates}")
    return releases[-1]


def release_environment(version: str, envs: Path, *, create: bool = True) -> Environment:
    """The release's environment in ``envs`` (the sweep's cache), made if it is missing; with
    ``create`` false a missing one is an error that says how to make it."""
    dates = paths.DATA_FILES.release_dates
    cutoffs = load_releases(dates)
    if version not in cutoffs:
        raise SweepError(f"{version} is not in {dates.name}")
    env = Environment(envs / version, version, cutoffs[version])
    if not create:
        if not env.ready():
            raise SweepError(
                f"no environment for {PACKAGE} {version} in {envs}: "
                f"run `python -m approval_compaction envs {version}` first"
            )
        return env
    error = install(env, uv_binary())
    if error is not None:
        raise SweepError(f"{version}: {error}")
    return env


def cached_environment(version: str, envs: Path | None = None) -> Environment:
    """The release's environment in ``envs`` (default: the cache), made or not: ``ready()``
    tells. Nothing is installed and nothing raises for a missing one (a test's guard)."""
    cutoffs = load_releases(paths.DATA_FILES.release_dates)
    folder = (envs or default_envs()) / version
    return Environment(folder, version, cutoffs.get(version, ""))


def command(args: Any) -> int:
    """``envs``: make each named release's environment (the ones the tests use by default),
    printing each as it is ready; the first that cannot be installed is a one-line error."""
    envs = Path(args.envs) if args.envs else default_envs()
    for version in args.versions:
        started = time.perf_counter()
        was_ready = cached_environment(version, envs).ready()
        env = release_environment(version, envs)
        took = "cached" if was_ready else f"made in {time.perf_counter() - started:.1f} s"
        print(f"{PACKAGE} {version}: {env.folder} ({took})", flush=True)
    return 0
