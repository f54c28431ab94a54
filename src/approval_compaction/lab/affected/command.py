"""Command: the studies' two steps of ``python -m approval_compaction doctor``.

``check`` runs the scenario on the installed SDK with the user's compaction mode and trigger;
``data`` writes the ``data/doctor-*.json`` files the README and notebook 07 read (``make
doctor-data``). The user's steps (scan, repair, restore, sql) are the doctor's own
(``doctor.command``), which run without the lab.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TextIO

from ... import paths
from ...analysis.liveness import liveness_records
from ...doctor.command import Step
from ...errors import InvestigationError
from ...formats.progress import Progress
from ...formats.records import write_json
from ...study.capture import sdk_version
from ..releases.environments import default_envs, newest_release
from .check import (
    check_answer,
    check_config,
    check_json,
    check_liveness,
    liveness_answer,
    run_check,
)
from .heal import heal_new_sqlite
from .upgrade import write_data
from .worker import worker_comparisons


def _check(args: argparse.Namespace, out: TextIO) -> int:

    store = getattr(args, "response_store", "default")
    cfg = check_config(args.mode, args.trigger, args.decision, args.tool, store)
    if args.turns < 0:
        raise InvestigationError("--turns must be 0 or more")
    if args.later < 0:
        raise InvestigationError("--later must be 0 or more")
    with Progress("doctor check", args.turns + 1, "pause positions") as progress:
        release, rows, keeps = check_liveness(cfg, args.turns, args.later, progress=progress)
    answers = [check_answer(cfg, rows, release)]
    answers += [liveness_answer(cfg, keeps, release)] if args.later else []
    if args.format == "json":
        records = [
            {"prior_turns": p, **asdict(r)}
            for p, run in enumerate(keeps.runs)
            for r in liveness_records([run])
        ]
        value = {"release": release, "rows": [asdict(r) for r in rows], "liveness": records}
        out.write(json.dumps(value | {"answers": answers}, indent=2) + "\n")
        return 0
    table = [list(asdict(rows[0]))] + [[str(v) for v in asdict(r).values()] for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    for line in table:
        out.write("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)) + "\n")
    out.write("".join(answer + "\n" for answer in answers))
    return 0


def write_pinned_data(folder: Path = paths.DATA, turns: int = 20) -> list[Path]:
    """The pinned release's default check, the worker comparison and a heal, as data files."""

    cfg, data = check_config(), paths.data(folder)
    written = {
        data.doctor_check_pinned: check_json(cfg, run_check(cfg, turns), sdk_version()),
        data.doctor_worker: [asdict(r) for r in worker_comparisons()],
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
    write_data(version, envs, Path(args.folder), report=report)
    return 0


STEPS: dict[str, Step] = {"check": _check, "data": _data}


def command(args: argparse.Namespace) -> int:
    return STEPS[args.doctor_command](args, sys.stdout)
