"""Worker: does a resume by another worker behave like the resume in the process that paused?

The record of one comparison (``WorkerComparison``), which ``data/doctor-worker.json`` holds and
the findings and notebook 07 read. The pause runs in one process; then the same turns go two
ways from two copies of nothing but the store and the ``RunState`` JSON text: in that process,
and in a fresh interpreter, each deciding, resuming and asking the next question (the SDK's
folder runs it: openai-agents' ``fresh_worker``). The two are compared item by item: the stored
history after the resume, and what the next turn sent to the model.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WorkerComparison:
    """One configuration resumed in this process and in a fresh one."""

    compaction: str
    same_stored_after_resume: bool
    same_next_turn_input: bool
    stored_after_resume: str
    next_turn_orphans_in_process: tuple[str, ...]
    next_turn_orphans_worker: tuple[str, ...]
