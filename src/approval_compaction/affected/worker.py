"""Worker: does a resume by another worker behave like the resume in the process that paused?

One conversation goes two ways, each on its own store: the pause, then the state's JSON crosses
to the resume in this process (``json``), or to a fresh interpreter started with only the
state's JSON and the store file (``process``, the study's worker), which decides, resumes and
asks the next question. The two are compared item by item: the stored history after the
resume, and what the next turn sent to the model.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..analysis.pairing import orphan_outputs
from ..doctor.verdict import judge
from ..study.driver import Ask, Cross, Decide, Resume, Setup, Step, Transcript, converse
from ..study.harness import FINISHED, NEXT_ANSWER, PENDING_CALL, QUESTIONS
from ..study.words import Boundary


@dataclass(frozen=True)
class WorkerComparison:
    """One configuration resumed in this process and in a fresh one."""

    compaction: str
    same_stored_after_resume: bool
    same_next_turn_input: bool
    stored_after_resume: str
    next_turn_orphans_in_process: tuple[str, ...]
    next_turn_orphans_worker: tuple[str, ...]


def resumed(compact: bool, boundary: Boundary, store: Path) -> Transcript:
    """Pause, cross ``boundary``, approve, resume and ask the next question."""
    steps: list[Step] = [
        Ask(QUESTIONS[0], (PENDING_CALL,), stage="pause"),
        Cross(boundary),
        Decide("approve"),
        Resume((FINISHED,)),
        Ask(QUESTIONS[1], (NEXT_ANSWER,)),
    ]
    return converse(Setup(trigger="always" if compact else "never"), steps, store)


def compare(compact: bool, folder: Path) -> WorkerComparison:
    """The conversation resumed here and by a fresh worker process."""
    label = "on" if compact else "off"
    here = resumed(compact, "json", folder / f"{label}-in-process.db")
    there = resumed(compact, "process", folder / f"{label}-worker.db")
    sent = [
        [item for request in t.stage("next_turn").model_inputs for item in request]
        for t in (here, there)
    ]
    stored = [t.stage("resume").stored for t in (here, there)]
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
