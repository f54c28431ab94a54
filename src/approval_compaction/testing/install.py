"""Install: the package as a team installs it, for the install test and the install benchmark.

``build_wheel`` builds this checkout's wheel (``uv build``); ``fresh_env`` makes a new
virtual environment with ``uv venv`` and installs requirements into it with ``uv pip install``
(the package registry, or uv's cache); ``site_size`` is what an environment's ``site-packages``
holds on disk. A requirement naming the wheel with extras is ``wheel_requirement(wheel, "doctor")``;
``clone`` and ``pip_arguments`` run the README's install lines as a team does, from a clone.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from ..errors import InvestigationError

DISTRIBUTION = "approval-compaction"
TIMEOUT_SECONDS = 900


class InstallError(InvestigationError):
    """A wheel that does not build, or requirements uv cannot install."""


def uv_binary() -> str | None:
    """The uv beside this interpreter (the project's pin), else one on ``PATH``, else None."""
    beside = Path(sys.executable).with_name("uv")
    return str(beside) if beside.exists() else shutil.which("uv")


def _run(command: Sequence[str], what: str, cwd: Path | None = None) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    done = subprocess.run(
        list(command), capture_output=True, text=True, timeout=TIMEOUT_SECONDS, env=env, cwd=cwd
    )
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise InstallError(f"{what} failed: {' / '.join(tail)}")


def build_wheel(folder: Path, source: Path = paths.ROOT, uv: str | None = None) -> Path:
    """This checkout's wheel, built into ``folder`` by ``uv build`` from its sdist (so nothing
    left in the checkout, such as a stale ``build/``, goes into it)."""
    uv = uv or uv_binary()
    if uv is None:
        raise InstallError("uv is not installed (make setup installs it into .venv)")
    _run([uv, "build", "--quiet", "--out-dir", str(folder), str(source)], "uv build")
    wheels = sorted(folder.glob("approval_compaction-*.whl"))
    if not wheels:
        raise InstallError(f"no wheel in {folder}")
    return wheels[-1]


def wheel_requirement(wheel: Path, *extras: str) -> str:
    """A requirement for the wheel, with extras: ``approval-compaction[doctor] @ file:///...``."""
    named = f"[{','.join(extras)}]" if extras else ""
    return f"{DISTRIBUTION}{named} @ {wheel.resolve().as_uri()}"


@dataclass(frozen=True)
class Env:
    """A fresh environment: its folder, its interpreter, and how long its install took."""

    folder: Path
    python: Path
    install_seconds: float

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """Run this environment's Python on ``args`` with bytecode caching on, as a user's is."""
        unset = ("PYTHONDONTWRITEBYTECODE", "VIRTUAL_ENV", "PYTHONPATH")
        env = {k: v for k, v in os.environ.items() if k not in unset}
        return subprocess.run(
            [str(self.python), *args], capture_output=True, text=True, timeout=timeout, env=env
        )

    def has(self, module: str) -> bool:
        """Whether ``module`` can be imported here."""
        probe = (
            f"import importlib.util, sys; sys.exit(importlib.util.find_spec({module!r}) is None)"
        )
        return self.run("-c", probe).returncode == 0


def clone(folder: Path, source: Path = paths.ROOT) -> Path:
    """A clone of this repository's committed tree at ``folder/approval-compaction``: what a team
    installs from, the package being on no index (``git clone``, no network)."""
    target = folder / DISTRIBUTION
    _run(["git", "clone", "--quiet", str(source), str(target)], "git clone")
    return target


def pip_arguments(line: str) -> list[str]:
    """The requirements of a published ``pip install ...`` line."""
    words = shlex.split(line)
    if words[:2] != ["pip", "install"]:
        raise InstallError(f"not a pip install line: {line}")
    return words[2:]


def fresh_env(
    folder: Path, requirements: Sequence[str], uv: str | None = None, cwd: Path | None = None
) -> Env:
    """A new environment at ``folder`` on this interpreter's Python, holding ``requirements``
    (a relative path in them is read from ``cwd``)."""
    uv = uv or uv_binary()
    if uv is None:
        raise InstallError("uv is not installed (make setup installs it into .venv)")
    _run([uv, "venv", "--quiet", "--python", sys.executable, str(folder)], "uv venv")
    python = folder / "bin" / "python"
    start = time.perf_counter()
    _run([uv, "pip", "install", "--quiet", "--python", str(python), *requirements],
         f"uv pip install {' '.join(requirements)}", cwd)  # fmt: skip
    return Env(folder, python, time.perf_counter() - start)


def site_size(env: Env) -> int:
    """Bytes on disk under the environment's ``site-packages`` (bytecode caches included)."""
    found = sorted(env.folder.glob("lib/python*/site-packages"))
    return sum(p.stat().st_size for root in found for p in root.rglob("*") if p.is_file())
