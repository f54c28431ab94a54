"""Data: the pinned release's doctor experiments, written as files under ``data/``.

``doctor data`` writes the default check on the pinned release, the worker comparison and a
heal here, then the upgrade records and the newest release's check (``upgrade.write_data``);
``findings`` reads them back.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from .. import paths
from ..formats.files import write_atomic
from ..study.capture import sdk_version
from .check import check_config, check_json, run_check
from .heal import heal_new_sqlite
from .worker import worker_comparisons


def write_pinned_data(folder: Path = paths.DATA, turns: int = 20) -> list[Path]:
    """The pinned release's default check, the worker comparison and a heal, as data files."""
    files, cfg = paths.data(folder), check_config()
    written = {
        files.doctor_check_pinned: check_json(cfg, run_check(cfg, turns), sdk_version()),
        files.doctor_worker: [asdict(r) for r in worker_comparisons()],
        files.doctor_heal: asdict(heal_new_sqlite().summary()),
    }
    for path, value in written.items():
        write_atomic(path, json.dumps(value, indent=2) + "\n")
    return list(written)
