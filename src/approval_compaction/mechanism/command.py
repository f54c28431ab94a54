"""Command: ``python -m approval_compaction mechanism`` writes ``data/mechanism.json``.

The pinned release is extracted and traced live, in this process; the newest release and the
era boundary (``catalogue.RELEASES``) are probed in their cached environments, which the sweep
made. A missing environment is a one-line error: this command never installs one.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import paths
from ..releases.environments import default_envs, release_environment, run_module
from ..study.capture import sdk_version
from .catalogue import PINNED, RELEASES
from .probe import MODULE, release_record
from .record import MechanismError, ReleaseMechanism, write_record

PROBE_TIMEOUT_SECONDS = 300


def live_record() -> ReleaseMechanism:
    """The pinned release, extracted and traced in this process."""
    installed = sdk_version()
    if installed != PINNED:
        raise MechanismError(f"openai-agents {installed} is installed, not the pinned {PINNED}")
    return release_record()


def build(envs: Path) -> dict[str, ReleaseMechanism]:
    """Every recorded release's record; the environments are checked before anything runs."""
    others = [release_environment(v, envs, create=False) for v in RELEASES if v != PINNED]
    releases = {PINNED: live_record()}
    for env in others:
        label = f"{env.version}: the probe"
        found = run_module(env.python, MODULE, timeout=PROBE_TIMEOUT_SECONDS, label=label)
        releases[env.version] = ReleaseMechanism.from_json(found)
    return releases


def command(args: argparse.Namespace) -> int:
    envs = Path(args.envs) if args.envs else default_envs()
    output = Path(args.output)
    write_record(output, build(envs))
    shown = output.relative_to(paths.ROOT) if output.is_relative_to(paths.ROOT) else output
    print(f"wrote {shown}")
    return 0
