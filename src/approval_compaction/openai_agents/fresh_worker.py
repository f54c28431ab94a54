"""Fresh worker: does a resume by another worker behave like the resume in the process that paused?

The pause runs here. Then the same turns go two ways from two copies of nothing but the store
and the ``RunState`` JSON text: in this process, and in a fresh interpreter (``worker``,
started with only the state's JSON and the store's path), each deciding, resuming and asking
the next question. The two are compared item by item: the stored history after the resume,
and what the next turn sent to the model.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from ..analysis.pairing import orphan_outputs
from ..doctor.verdict import judge
from ..lab.affected.worker import WorkerComparison
from ..lab.releases.environments import isolated_environ
from . import driver as _driver
from . import harness as _harness
from . import worker as _worker


def compare(compact: bool, folder: Path) -> WorkerComparison:
    """Pause once, copy the store, and resume both ways."""
    label, setup = (
        "on" if compact else "off",
        _driver.Setup(trigger="always" if compact else "never"),
    )
    here, there = folder / f"{label}-in-process.db", folder / f"{label}-worker.db"
    paused = _driver.converse(
        setup, [_driver.Ask(_harness.QUESTIONS[0], (_harness.PENDING_CALL,), stage="pause")], here
    )
    shutil.copyfile(here, there)
    rest: list[_driver.Step] = [
        _driver.Decide("approve"),
        _driver.Resume((_harness.FINISHED,)),
        _driver.Ask(_harness.QUESTIONS[1], (_harness.NEXT_ANSWER,)),
    ]
    local = _driver.converse(setup, rest, here, state=paused.state)
    with _worker.Worker(sys.executable, isolated_environ()) as worker:
        remote = _driver.converse(setup, rest, there, state=paused.state, worker=worker)
    sent = [
        [item for request in t.stage("next_turn").model_inputs for item in request]
        for t in (local, remote)
    ]
    stored = [t.stage("resume").stored for t in (local, remote)]
    return WorkerComparison(
        compaction=label,
        same_stored_after_resume=stored[0] == stored[1],
        same_next_turn_input=sent[0] == sent[1],
        stored_after_resume=judge("s", stored[0]).verdict,
        next_turn_orphans_in_process=tuple(orphan_outputs(sent[0])),
        next_turn_orphans_worker=tuple(orphan_outputs(sent[1])),
    )


def worker_comparisons() -> list[WorkerComparison]:
    """Compaction on and off, each resumed here and in a fresh worker."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-workers-") as folder:
        return [compare(compact, Path(folder)) for compact in (True, False)]
