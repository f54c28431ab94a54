"""Worker: one process answers requests line by line; a dead one is a one-line error."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from approval_compaction.errors import InvestigationError
from approval_compaction.study.worker import (
    Worker,
    WorkerError,
    ask_driver,
    run_script,
    script_environ,
)

pytestmark = pytest.mark.subprocess


@pytest.mark.parametrize(
    "command",
    [[sys.executable, "-c", "import sys; sys.stdin.readline()"], ["/bin/false"]],
    ids=["reads-and-exits", "dead"],
)
def test_worker_that_gives_no_answer_is_a_one_line_error(command: list[str]) -> None:
    """A program that reads the request and ends without answering, or one that exits at once:
    either way the caller gets one line, not a hang."""
    worker = Worker(command)
    with pytest.raises(WorkerError, match="gave no answer") as info:
        worker.ask({"steps": []}, timeout=60)
    assert "\n" not in str(info.value)
    worker.close()


def test_script_environ_drops_python_paths_and_the_providers_keys(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-no")
    monkeypatch.setenv("KEPT_HERE", "1")
    env = script_environ(("OPENAI",), TRACING="false")
    assert "PYTHONPATH" not in env and "OPENAI_API_KEY" not in env and env["KEPT_HERE"] == "1"
    assert (env["PYTHONHASHSEED"], env["PYTHONNOUSERSITE"], env["TRACING"]) == ("0", "1", "false")


def test_run_script_reads_its_json_lines_and_says_a_failure_in_one_line(tmp_path: Path) -> None:
    script = tmp_path / "driver.py"
    script.write_text(
        "import json, os, sys\n"
        "given = json.load(sys.stdin)\n"
        "if given.get('fail'): sys.exit('it broke')\n"
        "print(json.dumps({'got': given, 'cwd': os.getcwd()}))\n"
    )
    env = script_environ()
    (line,) = run_script(Path(sys.executable), script, {"n": 1}, env, timeout=60)
    assert line == {"got": {"n": 1}, "cwd": str(tmp_path)}
    with pytest.raises(WorkerError, match="^exited with 1: it broke$"):
        run_script(Path(sys.executable), script, {"fail": True}, env, timeout=60)


class _SdkError(InvestigationError):
    pass


def test_ask_driver_answers_or_says_in_the_sdks_error_who_failed(tmp_path: Path) -> None:
    script = tmp_path / "steps.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    asked = json.loads(line)\n"
        "    if asked['op'] == 'quit': sys.exit(0)\n"
        "    print(json.dumps({'error': 'no such op'} if asked['op'] == 'bad' else asked),"
        " flush=True)\n"
    )
    with Worker(command=[sys.executable, str(script)]) as worker:
        assert ask_driver(worker, {"op": "version"}, 60, "the driver", _SdkError) == {
            "op": "version"
        }
        with pytest.raises(_SdkError, match="^the driver failed: no such op$"):
            ask_driver(worker, {"op": "bad"}, 60, "the driver", _SdkError)
        with pytest.raises(_SdkError, match="^the driver: .*gave no answer"):
            ask_driver(worker, {"op": "quit"}, 60, "the driver", _SdkError)


def test_script_steps_number_each_conversation_and_say_failures_as_the_sdks(
    tmp_path: Path,
) -> None:
    """Every SDK's ``Steps`` opens conversations ``c1``, ``c2``... with its own settings after
    the label, and says a driver's failure in its own error naming it."""
    from approval_compaction.study.worker import ScriptSteps

    class _Steps(ScriptSteps):
        who, error = "the stub driver", _SdkError

    script = tmp_path / "steps.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    asked = json.loads(line)\n"
        "    answer = {'sdk_version': '2.0'} if asked['op'] == 'version' else asked\n"
        "    if asked.get('step') == {'fail': True}: answer = {'error': 'no'}\n"
        "    if asked['op'] == 'start': answer = {'not_applicable': json.dumps(asked)}\n"
        "    print(json.dumps(answer), flush=True)\n"
    )
    steps = _Steps([sys.executable, str(script)], script_environ(), str(tmp_path), 60)
    try:
        assert steps.version == "2.0"
        first = json.loads(steps.open({"mode": "m"}, base_url="u"))  # echoed as its reason
        assert first["settings"] == {"mode": "m", "label": "c1", "base_url": "u"}
        assert first["scratch"] == str(tmp_path)
        assert json.loads(steps.open({"mode": "m"}))["settings"]["label"] == "c2"
        assert steps.take(3, {"action": "ask"}) == {
            "op": "step",
            "index": 3,
            "step": {"action": "ask"},
        }
        assert steps.started == 2
        with pytest.raises(_SdkError, match="^the stub driver failed: no$"):
            steps.take(4, {"fail": True})
    finally:
        steps.worker.close()
