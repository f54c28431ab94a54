"""Environments: one cached virtual environment per release, made with uv.

Each release gets a virtual environment with only ``openai-agents==X``, its dependencies
resolved against the package index as it was when X was uploaded (uv's ``--exclude-newer``),
so that it runs with the ``openai`` and ``pydantic`` its users had. Environments live in the
user's cache and are reused while their marker file records the same install.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import paths
from ..errors import InvestigationError
from ..formats.files import write_atomic
from .versions import PACKAGE, load_releases, sort_versions

INSTALL_TIMEOUT_SECONDS = 900


class SweepError(InvestigationError):
    """Release work that cannot start: no uv, no release list, or a bad option."""


class ProbeError(SweepError):
    """A module run with a release's interpreter that failed or timed out, in one line."""


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


def run(command: Sequence[str], timeout: float, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """Run a command to completion, capturing its text output, without raising on failure."""
    return subprocess.run(
        list(command), capture_output=True, text=True, timeout=timeout, check=False, **kwargs
    )


def run_module(env: Environment, module: str, timeout: float, *args: str) -> Any:
    """Run ``python -m MODULE --output FILE ARGS`` with the release's interpreter, isolated
    (``isolated_environ``), and return the JSON it wrote; ``ProbeError`` when it fails."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-probe-") as folder:
        output = Path(folder) / "probe.json"
        command = [str(env.python), "-m", module, "--output", str(output), *args]
        try:
            proc = run(command, timeout, cwd=folder, env=isolated_environ())
        except subprocess.TimeoutExpired:
            raise ProbeError(f"probe timed out after {timeout:g} s") from None
        if proc.returncode != 0 or not output.exists():
            raise ProbeError(f"probe failed: {last_line(proc.stderr)}")
        return json.loads(output.read_text())


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else "no output"


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
    command += ["--exclude-newer", env.exclude_newer, f"{PACKAGE}=={env.version}"]
    errors = []
    for extra in ([], ["--offline"]):
        proc = run(command + extra, INSTALL_TIMEOUT_SECONDS)
        if proc.returncode == 0:
            write_atomic(env.marker, json.dumps(env.spec(), sort_keys=True) + "\n")
            return None
        errors.append(_failure(proc))
    return f"install failed: {errors[0]}"


def isolated_environ(*, with_package: bool = True) -> dict[str, str]:
    """Variables for a release's interpreter: no inherited Python paths, no way to a provider.

    With ``with_package`` the project's source folder is on ``PYTHONPATH``, so the release's
    interpreter imports this package (its light front door) without installing it.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.pop("OPENAI_API_KEY", None)
    env.update(PYTHONNOUSERSITE="1", OPENAI_BASE_URL="http://127.0.0.1:9/blocked")
    if with_package:
        env["PYTHONPATH"] = str(paths.SOURCE)
    return env


def newest_release(dates: Path = paths.RELEASE_DATES) -> str:
    """The newest release in the release list."""
    releases = sort_versions(load_releases(dates))
    if not releases:
        raise SweepError(f"no release list in {dates}")
    return releases[-1]


def release_environment(version: str, envs: Path, *, create: bool = True) -> Environment:
    """The release's environment in ``envs`` (the sweep's cache), made if it is missing; with
    ``create`` false a missing one is an error that says how to make it."""
    cutoffs = load_releases(paths.RELEASE_DATES)
    if version not in cutoffs:
        raise SweepError(f"{version} is not in {paths.RELEASE_DATES.name}")
    env = Environment(envs / version, version, cutoffs[version])
    if not create:
        if not env.ready():
            raise SweepError(
                f"no environment for {PACKAGE} {version} in {envs}: "
                f"run `make sweep SWEEP_ARGS=--versions={version}` first"
            )
        return env
    error = install(env, uv_binary())
    if error is not None:
        raise SweepError(f"{version}: {error}")
    return env
