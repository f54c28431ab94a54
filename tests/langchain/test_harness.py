"""The LangChain harness: its plans' names, the release interpreter's environment, its errors."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from approval_compaction.langchain.harness import (
    APIS,
    KINDS,
    DriverError,
    Plan,
    environ,
    run_driver,
)
from approval_compaction.langchain.sweep import CONTROLS, PLANS, SETTINGS


def test_harness_every_compacting_kind_runs_with_both_apis_and_none_is_the_control() -> None:
    assert SETTINGS == tuple(f"{k} {a}" for a in APIS for k in KINDS if k != "none")
    assert [p.label for p in CONTROLS] == ["none chat", "none responses"]
    assert all(p.mode == p.label for p in PLANS)


def test_harness_environ_reads_no_key_and_traces_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    monkeypatch.setenv("LANGSMITH_API_KEY", "ls-x")
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    env = environ()
    assert "OPENAI_API_KEY" not in env and "LANGSMITH_API_KEY" not in env
    assert env["LANGSMITH_TRACING"] == "false" and env["PYTHONHASHSEED"] == "0"
    assert "PYTHONPATH" not in env


def test_harness_a_missing_interpreter_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(DriverError, match="^no interpreter at .*: make the release's"):
        run_driver([Plan()], tmp_path / "python")


@pytest.mark.slow
@pytest.mark.releases
@pytest.mark.subprocess
@pytest.mark.enable_socket  # the stand-in the harness serves on 127.0.0.1
def test_harness_steps_a_late_decision_runs_no_tool_and_is_refused() -> None:
    """The search's step mode on the pinned release: a question that pauses, another instead
    of the decision (refused: the call has no answer), then the approval, late: the interrupt is
    gone, the tool never runs, and the request is refused again."""
    from approval_compaction.langchain.harness import Steps
    from approval_compaction.langchain.packages import pinned, release_environment

    steps = Steps(release_environment(pinned()).python)
    try:
        assert steps.start({"mode": "none", "api": "chat", "store": "memory"}) == ""
        paused = steps.step(1, {"action": "ask", "calls": ["approval"]})
        assert paused.outcome == "paused" and paused.holds == frozenset({"pending"})
        assert paused.pending == ("approval-1-0",)  # the call id names its kind and step
        moved = steps.step(2, {"action": "ask", "calls": []})
        assert moved.stages[0].outcome.http_status == 400
        late = steps.step(3, {"action": "decide", "decision": "approve", "boundary": "memory"})
        assert late.approvals == 1 and late.stages[0].dispatches == 0
        assert steps.start({"mode": "window-0", "api": "chat", "store": "memory"}) != ""
    finally:
        steps.close()


@pytest.mark.subprocess
def test_harness_steps_a_driver_that_fails_or_stays_silent_is_one_line(tmp_path: Path) -> None:
    """The step mode's errors, on a stand-in driver script run by this interpreter: the
    driver's own ``error`` is its failure, and no answer within the timeout is a one-line
    ``DriverError`` naming the driver, not a hang."""
    from approval_compaction.langchain.harness import Steps

    python = tmp_path / "python"
    python.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    op = json.loads(line)['op']\n"
        "    if op == 'hang': continue\n"
        "    answer = {'sdk_version': '1.0'} if op == 'version' else {'error': 'it broke'}\n"
        "    print(json.dumps(answer), flush=True)\n"
    )
    python.chmod(0o755)
    steps = Steps(python, timeout=2)
    try:
        assert steps.version == "1.0"
        with pytest.raises(DriverError, match="^the LangChain driver failed: it broke$"):
            steps.step(1, {"action": "ask", "calls": []})
        with pytest.raises(DriverError, match="^the LangChain driver: .*no answer within 2 s$"):
            steps.ask({"op": "hang"})
    finally:
        steps.close()
