"""Worker: does a resume by another worker behave like the resume in the process that paused?

The pause runs here. Then the same three turns go two ways from two copies of nothing but the
store and the ``RunState`` JSON text: in this process (``turns.resume`` and ``turns.next_turn``)
and in a fresh interpreter started with only the state file and the store's path
(``python -m approval_compaction.doctor.turns resume``). The records are compared item by item:
the stored history after the resume, and what the next turn sent to the model.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..analysis.pairing import orphan_outputs
from ..errors import InvestigationError
from ..releases.environments import isolated_environ, last_line, run
from ..study.harness import run_sync
from . import turns
from .verdict import judge

WORKER_TIMEOUT_SECONDS = 300


class WorkerError(InvestigationError):
    """The fresh worker process failed."""


@dataclass(frozen=True)
class WorkerComparison:
    """One configuration resumed in this process and in a fresh one."""

    compaction: str
    same_stored_after_resume: bool
    same_next_turn_input: bool
    stored_after_resume: str
    next_turn_orphans_in_process: tuple[str, ...]
    next_turn_orphans_worker: tuple[str, ...]


def fresh_process(store: Path, state: str, compact: bool, python: str = sys.executable) -> list[
    turns.TurnRecord
]:  # fmt: skip
    """Resume and ask the next question in a new interpreter given only the state and store."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-worker-") as folder:
        state_file, output = Path(folder) / "state.json", Path(folder) / "records.json"
        state_file.write_text(state)
        command = [python, "-m", turns.MODULE, "resume", "--store", str(store)]
        command += ["--state", str(state_file), "--output", str(output)]
        command += ["--compaction", "on" if compact else "off"]
        proc = run(command, WORKER_TIMEOUT_SECONDS, cwd=folder, env=isolated_environ())
        if proc.returncode != 0 or not output.exists():
            raise WorkerError(f"worker failed: {last_line(proc.stderr)}")
        return [turns.TurnRecord.from_json(r) for r in json.loads(output.read_text())]


def compare(compact: bool, folder: Path) -> WorkerComparison:
    """Pause once, copy the store, and resume both ways."""
    here, there = folder / "in-process.db", folder / "worker.db"
    paused = run_sync(turns.pause(here, compact))
    shutil.copyfile(here, there)
    local = [run_sync(turns.resume(here, paused.state, compact)), run_sync(turns.next_turn(here,
             compact))]  # fmt: skip
    remote = fresh_process(there, paused.state, compact)
    return WorkerComparison(
        compaction="on" if compact else "off",
        same_stored_after_resume=local[0].stored_after == remote[0].stored_after,
        same_next_turn_input=local[1].model_input == remote[1].model_input,
        stored_after_resume=judge("s", local[0].stored_after).verdict,
        next_turn_orphans_in_process=tuple(orphan_outputs(local[1].model_input)),
        next_turn_orphans_worker=tuple(orphan_outputs(remote[1].model_input)),
    )


def worker_comparisons() -> list[WorkerComparison]:
    """Compaction on and off, each resumed here and in a fresh worker."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-workers-") as folder:
        results = []
        for compact in (True, False):
            sub = Path(folder) / ("on" if compact else "off")
            sub.mkdir()
            results.append(compare(compact, sub))
        return results
