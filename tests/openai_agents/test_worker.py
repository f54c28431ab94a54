"""Worker: the openai-agents driver's process answers a conversation's requests line by line;
one that cannot read a request is a one-line error."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from approval_compaction.openai_agents.driver import (
    Ask,
    Cross,
    Setup,
    Transcript,
    converse,
    step_json,
)
from approval_compaction.openai_agents.harness import PENDING_CALL, QUESTIONS
from approval_compaction.openai_agents.worker import Worker
from approval_compaction.study.worker import WorkerError

pytestmark = pytest.mark.subprocess


def test_worker_runs_a_whole_conversation_in_its_own_interpreter(tmp_path: Path) -> None:
    steps = [Ask(QUESTIONS[0], (PENDING_CALL,), stage="pause"), Cross("json")]
    here = converse(Setup(), steps, tmp_path / "here.db")
    with Worker() as worker:
        there = converse(Setup(), steps, tmp_path / "there.db", worker=worker)
        again = converse(Setup(), steps, tmp_path / "again.db", worker=worker)
        pid = worker.proc.pid if worker.proc else None
    assert there == here == again and pid is not None  # one process served both
    assert there.state and (tmp_path / "there.db").is_file()


def test_worker_answers_with_the_transcript_and_the_counters(tmp_path: Path) -> None:
    request = {
        "setup": Setup().to_json(),
        "path": str(tmp_path / "store.db"),
        "state": "",
        "kept": "",  # the driver's requests always carry the state kept aside (none here)
        "counters": [4, 2, 0],
        "steps": [step_json(Ask("q"))],
    }
    with Worker() as worker:
        answer = worker.ask(request)
    transcript = Transcript.from_json(answer["transcript"])
    assert answer["counters"] == [5, 3, 0]  # the ids go on from the counters it was given
    stored = transcript.stage("next_turn").stored
    assert stored[-1]["id"] == "compaction-3"


@pytest.mark.parametrize("python", [sys.executable, "/bin/false"], ids=["bad-request", "dead"])
def test_worker_that_gives_no_answer_is_a_one_line_error(python: str) -> None:
    """A request it cannot read ends the worker (no setup here), as does an interpreter that
    exits at once: either way the caller gets one line, not a hang."""
    worker = Worker(python)
    with pytest.raises(WorkerError, match="gave no answer") as info:
        worker.ask({"steps": []}, timeout=60)
    assert "\n" not in str(info.value)
    worker.close()
