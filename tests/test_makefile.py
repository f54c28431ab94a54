"""Makefile: every target builds what its commands need, from an empty cache.

A command that runs in release environments it does not make, reads the pinned sdist, or starts
PostgreSQL, Redis, MariaDB or Chromium needs a target that provides them first (``envs``,
``permalinks``, ``system``); ``make run`` needs none of the servers. The dry run of each target
(``make -n``) must show the provider's command before the command that needs it; and ``make
fix-anatomy``, run for real on an empty cache, gets past its environments and starts the anatomy
(issue 43: it stopped after 2 s with "no environment for openai-agents 0.24.0").
"""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from approval_compaction import paths

MAKEFILE = paths.ROOT / "Makefile"
# What each provider target runs (the line `make -n` prints for it).
PROVIDERS = {
    "envs": "-m approval_compaction envs",
    "permalinks": "-m approval_compaction permalinks",
    "system": "scripts/system-packages",
}
# The commands that need something made before them: those that read release environments with
# create=False (anatomy, mechanism, later_turns), the benchmarks that start servers (the doctor's
# hardening) and the full tier (every need; tests/needs.py fails under CI without them). The
# notebooks need none: they run on the stores the SDK ships (`make run`: Python and Node only).
NEEDS = {
    "-m approval_compaction fix-anatomy": ("envs",),
    "-m approval_compaction mechanism": ("envs",),
    "-m approval_compaction liveness": ("envs",),
    "benchmarks/hardening.py": ("system",),  # it starts the throwaway servers
    '-m pytest -m ""': ("system", "permalinks", "envs"),
}
TARGET = re.compile(r"^([a-z][a-z-]*):", re.M)


def targets() -> list[str]:
    return sorted(set(TARGET.findall(MAKEFILE.read_text())))


def dry_run(target: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    proc = subprocess.run(
        ["make", "-n", "-s", target],
        cwd=paths.ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return proc.stdout.splitlines()


def first(lines: list[str], words: str) -> int | None:
    """The first line that runs ``words`` (a whole command: ``liveness`` is not
    ``liveness-patch``)."""
    pattern = re.compile(re.escape(words) + r"(?=\s|$)")
    return next((i for i, line in enumerate(lines) if pattern.search(line)), None)


@pytest.mark.subprocess
@pytest.mark.parametrize("target", targets())
def test_makefile_target_makes_what_its_commands_need_first(target: str) -> None:
    lines = dry_run(target)
    for command, needs in NEEDS.items():
        at = first(lines, command)
        if at is None:
            continue
        for need in needs:
            made = first(lines, PROVIDERS[need])
            assert made is not None and made < at, f"make {target}: {command} before `{need}`"
    for line in lines:  # a crosscheck over the swept releases makes the ones it lacks
        if "approval_compaction crosscheck" in line and "--patch" not in line:
            assert "--create" in line, line


def prerequisites(target: str) -> list[str]:
    """The prerequisites the Makefile names for ``target`` (before its ``## `` help)."""
    found = re.search(rf"^{re.escape(target)}:([^#\n]*)", MAKEFILE.read_text(), re.M)
    assert found is not None, f"no target {target}"
    return found.group(1).split()


@pytest.mark.subprocess
def test_makefile_run_needs_no_system_packages_and_no_server() -> None:
    """``make run`` needs Python and Node only (issue 49): neither it nor anything it makes
    first installs or starts a database server or a browser; Node is the only system package
    it checks for (``scripts/system-packages node``)."""
    assert "system" not in prerequisites("run")
    lines = dry_run("run")
    system = [line for line in lines if PROVIDERS["system"] in line]
    assert all(line.split() == [PROVIDERS["system"], "node"] for line in system)
    servers = re.compile(r"postgres|redis|mariadb|chromium|apt-get", re.I)
    assert [line for line in lines if servers.search(line)] == []


def test_makefile_needs_name_commands_the_makefile_runs() -> None:
    """The table above is about this Makefile: each command in it is run by some target."""
    text = MAKEFILE.read_text().replace("$(PY)", "python")
    assert [command for command in NEEDS if command not in text] == []


@pytest.mark.subprocess
@pytest.mark.releases
def test_makefile_fix_anatomy_starts_on_an_empty_cache(tmp_path: Path) -> None:
    """On a fresh cache `make fix-anatomy` makes the release environments, then judges its
    first configurations; it is stopped there (the whole search takes an hour)."""
    uv = Path(sys.executable).with_name("uv")
    uv_cache = subprocess.run(
        [str(uv), "cache", "dir"], capture_output=True, text=True, check=True, timeout=60
    ).stdout.strip()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    env.update(XDG_CACHE_HOME=str(tmp_path), UV_CACHE_DIR=uv_cache)  # no release environment
    proc = subprocess.Popen(
        ["make", "fix-anatomy"],
        cwd=paths.ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    seen: list[str] = []
    deadline = time.monotonic() + 600
    try:
        assert proc.stdout is not None
        while time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 5)
            line = proc.stdout.readline() if ready else ""
            if line:
                seen.append(line.rstrip())
            if re.match(r"\[\d+ configurations", line) or (not line and proc.poll() is not None):
                break
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
    said = "\n".join(seen)
    assert "no environment for" not in said, said
    assert any(re.match(r"\[\d+ configurations", line) for line in seen), said
    assert (tmp_path / "approval-compaction").is_dir()
