"""Command: ``python -m approval_compaction mechanism`` writes ``data/mechanism.json``.

The pinned release is extracted and traced live, in this process; the newest release and the
era boundary (``catalogue.RELEASES``) are probed in their cached environments, which the sweep
made. A missing environment is a one-line error: this command never installs one.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .. import paths
from ..releases.environments import (
    Environment,
    ProbeError,
    SweepError,
    default_envs,
    release_environment,
    run_module,
)
from ..study.capture import sdk_version
from .catalogue import PINNED, RELEASES
from .probe import MODULE, release_record
from .record import MechanismError, write_record

PROBE_TIMEOUT_SECONDS = 300


def cached_environment(version: str, envs: Path) -> Environment:
    """The release's environment in the cache, or a one-line error when it is not there."""
    try:
        return release_environment(version, envs, create=False)
    except SweepError as error:
        raise MechanismError(str(error)) from None


def probe_in(env: Environment) -> dict[str, Any]:
    """Run the probe with the release's interpreter and read its record."""
    try:
        record: dict[str, Any] = run_module(env.python, MODULE, timeout=PROBE_TIMEOUT_SECONDS)
    except ProbeError as error:
        raise MechanismError(f"{env.version}: the {error}") from None
    return record


def live_record() -> dict[str, Any]:
    """The pinned release, extracted and traced in this process."""
    installed = sdk_version()
    if installed != PINNED:
        raise MechanismError(f"openai-agents {installed} is installed, not the pinned {PINNED}")
    return release_record()


def build(envs: Path) -> dict[str, dict[str, Any]]:
    """Every recorded release's record; the environments are checked before anything runs."""
    others = {v: cached_environment(v, envs) for v in RELEASES if v != PINNED}
    releases = {PINNED: live_record()}
    for version, env in others.items():
        releases[version] = probe_in(env)
    return releases


def command(args: argparse.Namespace) -> int:
    envs = Path(args.envs) if args.envs else default_envs()
    output = Path(args.output)
    write_record(output, build(envs))
    print(
        f"wrote {output.relative_to(paths.ROOT) if output.is_relative_to(paths.ROOT) else output}"
    )
    return 0
