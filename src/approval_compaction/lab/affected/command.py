"""Command: the lab's step of ``python -m approval_compaction doctor``, ``data``.

``data`` writes the ``data/doctor-*.json`` files the README and notebook 07 read (``make
doctor-data``): it builds release environments, so it needs the ``[lab]`` extra. The user's
steps (scan, repair, restore, check, sql) are the doctor's own (``doctor.command``), which run
without the lab.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TextIO

from ...doctor.check import check_config, check_json, run_check
from ...doctor.command import Step
from ...formats.records import write_json
from ...sdks import sdk_module
from ...study.capture import sdk_version
from .. import paths
from ..releases.environments import default_envs, newest_release
from .heal import heal_new_sqlite


def write_pinned_data(folder: Path = paths.DATA, turns: int = 20) -> list[Path]:
    """The pinned release's default check, the worker comparison and a heal, as data files."""

    cfg, data = check_config(), paths.data(folder)
    fresh = sdk_module("python", "fresh_worker")  # the Python SDK's folder, by name (sdks)
    written = {
        data.doctor_check_pinned: check_json(cfg, run_check(cfg, turns), sdk_version()),
        data.doctor_worker: [asdict(r) for r in fresh.worker_comparisons()],
        data.doctor_heal: asdict(heal_new_sqlite().summary()),
    }
    for path, value in written.items():
        write_json(path, value)
    return list(written)


def _data(args: argparse.Namespace, out: TextIO) -> int:

    version = args.version or newest_release()
    envs = Path(args.envs) if args.envs else default_envs()

    def report(line: str) -> None:
        out.write(line + "\n")

    for path in write_pinned_data(Path(args.folder)):
        report(f"wrote {path.name}")
    upgrade = sdk_module("python", "upgrade")  # the Python SDK's folder, by name (sdks)
    upgrade.write_data(version, envs, Path(args.folder), report=report)
    return 0


STEPS: dict[str, Step] = {"data": _data}


def command(args: argparse.Namespace) -> int:
    return STEPS[args.doctor_command](args, sys.stdout)
