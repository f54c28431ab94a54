"""Command: ``python -m approval_compaction mechanism`` writes ``data/mechanism.json``.

The pinned release is extracted and traced live, in this process; the newest release and the
era boundary (``catalogue.RELEASES``) are probed in their cached environments, which the sweep
made. A missing environment is a one-line error: this command never installs one.

With ``--patch``/``--sdk`` it probes one patched SDK instead, in its scratch environment
(``releases.patched``), and writes a record of that one SDK, labelled with its patch, beside
that environment unless ``--output`` says where; it prints what each traced stage did.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ...formats.progress import Progress
from .. import paths
from ..releases.environments import Environment, default_envs, release_environment, run_module
from ..releases.patched import from_namespace, patched_environment, results_folder
from .catalogue import PINNED, RELEASES
from .probe import MODULE, release_record
from .record import RECORD, ReleaseMechanism, pinned_here, write_record

PROBE_TIMEOUT_SECONDS = 300


def live_record() -> ReleaseMechanism:
    """The pinned release, extracted and traced in this process."""
    pinned_here()
    return release_record()


def build(envs: Path) -> dict[str, ReleaseMechanism]:
    """Every recorded release's record; the environments are checked before anything runs."""
    others = [release_environment(v, envs, create=False) for v in RELEASES if v != PINNED]
    with Progress("mechanism", 1 + len(others), "releases traced") as progress:
        releases = {PINNED: live_record()}
        progress.step()
        for env in others:
            releases[env.version] = probed(env, env.version)
            progress.step()
    return releases


def probed(env: Environment, what: str, *args: str) -> ReleaseMechanism:
    """The mechanism probe's record of an environment (``what`` names it in an error)."""
    found = run_module(
        env.python, MODULE, *args, timeout=PROBE_TIMEOUT_SECONDS, label=f"{what}: the probe"
    )
    return ReleaseMechanism.from_json(found)


def patched_record(patched: Any, envs: Path) -> ReleaseMechanism:
    """The patched SDK's extracts and traces, from its scratch environment."""

    env = patched_environment(patched, envs)
    return probed(env, patched.describe(), "--patch", patched.label)


def patched_command(args: argparse.Namespace, patched: Any, envs: Path) -> int:

    from .views import stage_frame  # its tables are pandas': only this printout draws them

    output = Path(args.output) if args.output else results_folder(patched, envs) / RECORD.name
    record = patched_record(patched, envs)
    write_record(output, {record.release: record})
    print(f"{patched.describe()}: {patched.label}")
    for boundary, trace in record.traces.items():
        print(f"\nthe report's case across the {boundary} boundary ({trace.model} model):")
        print(stage_frame(trace).to_string())
    print(f"\nwrote {output}")
    return 0


def command(args: argparse.Namespace) -> int:

    envs = Path(args.envs) if args.envs else default_envs()
    patched = from_namespace(args, PINNED)
    if patched is not None:
        return patched_command(args, patched, envs)
    output = Path(args.output) if args.output else RECORD
    write_record(output, build(envs))
    shown = output.relative_to(paths.ROOT) if output.is_relative_to(paths.ROOT) else output
    print(f"wrote {shown}")
    return 0
