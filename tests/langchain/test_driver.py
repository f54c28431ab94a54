"""The LangChain driver in the release's own environment (made with uv when missing): the
pinned release keeps every invariant in the 16 cases, and a message sent instead of the
decision leaves the call open in what the model is sent; the smallest reproduction says so."""

from __future__ import annotations

import subprocess

import pytest

from approval_compaction.analysis.invariants import judge_all
from approval_compaction.langchain.harness import Plan, run_plans, run_situations
from approval_compaction.langchain.packages import pinned, release_environment
from approval_compaction.langchain.report import REPRO
from approval_compaction.study.scenario import Case

pytestmark = [
    pytest.mark.slow,
    pytest.mark.releases,
    pytest.mark.subprocess,
    pytest.mark.enable_socket,  # the stand-in the harness serves on 127.0.0.1
]

CASES = (Case("run", "approve", "on", "json"), Case("run_streamed", "reject", "on", "memory"))


@pytest.mark.parametrize("api", ["chat", "responses"])
def test_driver_pinned_release_keeps_the_pending_call_across_both_boundaries(api: str) -> None:
    env = release_environment(pinned())
    (runs,) = run_plans([Plan("keep-2", api, cases=CASES)], env.python)  # type: ignore[arg-type]
    for run in runs:
        assert run.error is None and run.sdk == "langchain" and run.sdk_version == pinned()
        assert [s.name for s in run.stages] == ["pause", "round_trip", "resume", "next_turn"]
        pause = run.stage("pause")
        assert pause is not None and pause.interruptions[0]["name"] == "protected_lookup"
    assert [j.violations for j in judge_all(runs)] == [[], []]
    assert runs[0].dispatches == runs[0].approvals == 1 and runs[1].dispatches == 0


def test_driver_a_message_instead_of_the_decision_is_refused_over_http() -> None:
    """The case left open: the interrupt is dropped, the call keeps no answer, and with no
    compaction step every later turn is refused by Chat Completions' tool-message rule."""
    env = release_environment(pinned())
    plan = Plan("none", "chat", cases=(), situations=("abandoned",), later=2)
    ((run,),) = run_situations([plan], env.python)
    assert run.error == "" and len(run.turns) == 2
    assert [turn.met for turn in run.turns] == ["raised", "raised"]
    assert all("400" in turn.raised for turn in run.turns)


def test_driver_the_smallest_reproduction_fails_on_the_pinned_release() -> None:
    env = release_environment(pinned())
    done = subprocess.run([str(env.python), str(REPRO)], capture_output=True, text=True,
                          timeout=300, check=False)  # fmt: skip
    assert done.returncode == 1
    assert "unanswered tool calls: ['call-1']" in done.stdout
