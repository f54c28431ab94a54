"""Worker's main: the process's side answers one request with its transcript and counters, and
its loop reads one JSON request per line and writes one JSON answer per line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from approval_compaction.openai_agents.driver import Ask, Setup, Transcript, step_json
from approval_compaction.openai_agents.worker_main import answer, serve
from approval_compaction.study.loop import run_sync


def request(tmp_path: Path) -> dict[str, object]:
    return {
        "setup": Setup().to_json(),
        "path": str(tmp_path / "store.db"),
        "state": "",
        "kept": "",
        "counters": [4, 2, 0],
        "steps": [step_json(Ask("q"))],
    }


def test_worker_main_answers_with_the_transcript_and_the_counters(tmp_path: Path) -> None:
    done = run_sync(answer(request(tmp_path)))
    assert done["counters"] == [5, 3, 0]  # the ids go on from the counters it was given
    transcript = Transcript.from_json(done["transcript"])
    assert transcript.stage("next_turn").stored[-1]["id"] == "compaction-3"
    assert (tmp_path / "store.db").is_file()


def test_worker_main_serves_one_json_line_per_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = json.dumps(request(tmp_path / "a")) + "\n" + json.dumps(request(tmp_path / "b")) + "\n"
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
    out = io.StringIO()
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    monkeypatch.setattr("sys.stdout", out)
    serve()
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["counters"] for a in answers] == [[5, 3, 0], [5, 3, 0]]
