"""The harness: one case as the driver's conversation, each stage captured, failures recorded.

Fakes go in through the harness's own parameters (a ``Script`` with another reply, store or
decision; a ``wrap_session`` around the session under study), never onto module globals.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from agents.memory import OpenAIResponsesCompactionSession

from approval_compaction.analysis.invariants import INVARIANTS, SAFETY
from approval_compaction.analysis.matrix import records
from approval_compaction.analysis.pairing import open_calls
from approval_compaction.openai_agents.driver import (
    SDK_LOGGERS,
    Ask,
    Cross,
    Decide,
    MemoryStore,
    Resume,
)
from approval_compaction.openai_agents.harness import (
    PENDING_CALL_ID,
    QUESTIONS,
    Script,
    conversation,
    run_case,
    run_case_async,
    run_matrix,
)
from approval_compaction.openai_agents.model import assistant_message
from approval_compaction.openai_agents.tools import TOOL_NAME
from approval_compaction.study.capture import STAGES, runs_json, sdk_version
from approval_compaction.study.loop import run_sync
from approval_compaction.study.scenario import Case

# --- one case, stage by stage ----------------------------------------------------------------


@pytest.fixture(scope="module")
def approved() -> Any:
    return run_case(Case(decision="approve", compaction="on", state_boundary="json"))


def test_harness_runs_every_stage_in_order(approved: Any) -> None:
    assert [s.name for s in approved.stages] == list(STAGES)
    assert approved.error is None and approved.not_applicable is None
    assert approved.sdk_version == sdk_version()


def test_harness_pause_records_the_pending_call(approved: Any) -> None:
    pause = approved.stage("pause")
    assert [(i["type"], i["name"], i["call_id"]) for i in pause.interruptions] == [
        ("function_call", TOOL_NAME, PENDING_CALL_ID)
    ]
    assert pause.model_inputs == [[{"role": "user", "content": QUESTIONS[0]}]]
    assert pause.dispatches == 0


def test_harness_slices_each_request_into_the_stage_that_sent_it(approved: Any) -> None:
    """Three model calls in all: the first question, the resume, and the next question."""
    assert [len(s.model_inputs) for s in approved.stages] == [1, 0, 1, 1]
    assert approved.stage("next_turn").model_inputs[0][-1] == {
        "role": "user",
        "content": QUESTIONS[1],
    }
    assert [s.dispatches for s in approved.stages] == [0, 0, 1, 0]


def test_harness_compaction_at_the_pause_carries_the_open_call(approved: Any) -> None:
    """Upstream #5340: the compaction request is sent while the call awaits approval."""
    first = approved.stage("pause").compaction_inputs[0]
    assert open_calls(first) == [PENDING_CALL_ID]


def test_harness_json_boundary_keeps_the_state_items_memory_boundary_none() -> None:
    json_run = run_case(Case(compaction="off", state_boundary="json"))
    memory_run = run_case(Case(compaction="off", state_boundary="memory"))
    assert json_run.stage("round_trip").state_items  # type: ignore[union-attr]
    assert memory_run.stage("round_trip").state_items == {}  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("decision", "counts"),
    [("approve", (1, 1)), ("reject", (0, 0))],
    ids=["approve", "reject"],
)
def test_harness_counts_approvals_and_dispatches(decision: str, counts: tuple[int, int]) -> None:
    run = run_case(Case(decision=decision, compaction="off"))  # type: ignore[arg-type]
    assert (run.approvals, run.dispatches) == counts


def test_harness_compaction_off_sends_no_compaction_request() -> None:
    run = run_case(Case(compaction="off"))
    assert run.compaction_requests == 0
    assert run.stage("resume").stored[:2] == run.stage("pause").stored  # type: ignore[union-attr]


def test_harness_without_capture_records_no_stages_but_counts() -> None:
    run = run_case(Case(), capture=False)
    assert run.stages == [] and run.error is None
    assert (run.approvals, run.dispatches) == (1, 1)


def test_harness_leaves_the_sdk_loggers_as_it_found_them() -> None:
    before = {name: list(logging.getLogger(name).handlers) for name in SDK_LOGGERS}
    run_case(Case(compaction="off"))
    assert {name: list(logging.getLogger(name).handlers) for name in SDK_LOGGERS} == before


# --- fakes passed in -------------------------------------------------------------------------


def test_harness_script_decision_is_what_counts_as_approved() -> None:
    """A script that approves whatever the case says: the approval is counted, and enforced."""
    run = run_case(Case(decision="reject"), script=Script(decision="approve"))
    assert (run.approvals, run.dispatches) == (1, 1)


def test_harness_first_turn_that_does_not_pause_is_an_error() -> None:
    script = Script(pause=(assistant_message("no tool needed", item_id="m1"),))
    run = run_case(Case(), script=script)
    assert run.error == "RuntimeError: the first turn did not pause for approval"
    assert [s.name for s in run.stages] == ["pause"] and run.dispatches == 0
    assert all(s.interruptions == [] for s in run.stages)


def test_harness_store_from_the_script_is_wrapped_by_the_session_under_study() -> None:
    sessions: list[Any] = []

    def wrap(session: Any) -> Any:
        sessions.append(session)
        return session

    run = run_case(Case(compaction="off"), script=Script(store="memory"), wrap_session=wrap)
    assert run.error is None
    assert isinstance(sessions[0], OpenAIResponsesCompactionSession)
    assert isinstance(sessions[0].underlying_session, MemoryStore)


@pytest.mark.parametrize("case", [Case(), Case("run_streamed", "reject", "off", "memory")])
def test_harness_conversation_is_the_case_as_steps(case: Case) -> None:
    steps = conversation(case)
    assert [type(step) for step in steps] == [Ask, Cross, Decide, Resume, Ask]
    first, cross, decide, resume, last = steps
    assert (first.stage, first.question, last.question) == ("pause", *QUESTIONS)  # type: ignore[union-attr]
    assert cross == Cross(case.state_boundary) and decide == Decide(case.decision)
    assert {s.runner for s in (first, resume, last)} == {case.runner}  # type: ignore[union-attr]


class _FailingSession:
    """Delegates to the compaction session but fails once it has written ``allowed`` times."""

    allowed = 1  # the first turn's question; its answer fails

    def __init__(self, inner: Any) -> None:
        self._inner, self._writes = inner, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def add_items(self, items: list[Any]) -> None:
        self._writes += 1
        if self._writes > self.allowed:
            raise OSError("disk full")
        await self._inner.add_items(items)


class _FailingAtResume(_FailingSession):
    allowed = 2  # the first turn's two writes


def test_harness_failure_in_one_case_is_recorded_not_raised() -> None:
    run = run_case(Case(), wrap_session=_FailingSession)
    assert run.error is not None and "disk full" in run.error
    rows = records([run])
    assert len(rows) == len(SAFETY)  # not continued: the eight safety invariants
    assert {r.status for r in rows} <= {"error", "holds", "violated"}
    assert any(r.holds is None and "disk full" in r.detail for r in rows)


def test_harness_failing_step_ends_the_case_after_the_stages_it_reached() -> None:
    run = run_case(Case(), wrap_session=_FailingAtResume)
    assert run.error == "OSError: disk full"
    assert [s.name for s in run.stages] == ["pause", "round_trip"]


class _LoudFailure:
    """Fails on the first write with a long message over several lines."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def add_items(self, items: list[Any]) -> None:
        raise ValueError("first line\n" + "x " * 400)


def test_harness_error_is_one_line_of_at_most_300_characters() -> None:
    run = run_case(Case(), wrap_session=_LoudFailure)
    assert run.error is not None and run.error.startswith("ValueError: first line x x")
    assert "\n" not in run.error and len(run.error) == 300


# --- running ---------------------------------------------------------------------------------


async def test_harness_run_case_works_inside_a_running_loop() -> None:
    """A notebook calls ``run_case`` with its own loop running; it runs on a worker thread."""
    assert asyncio.get_running_loop() is not None
    run = run_case(Case(compaction="off"))
    assert run.error is None and len(run.stages) == len(STAGES)


async def test_harness_run_case_async_is_the_same_run() -> None:
    case = Case(compaction="off", decision="reject")
    assert await run_case_async(case) == run_case(case)


def test_harness_run_matrix_runs_the_given_cases_in_order() -> None:
    cases = [Case(compaction="off", decision="reject"), Case(compaction="off")]
    runs = run_matrix(cases)
    assert [run.case for run in runs] == cases


def test_harness_run_matrix_in_two_processes_records_what_one_records() -> None:
    """``matrix`` shares its cases between the cores (issue 34); the records must not change."""
    cases = [Case(), Case(compaction="off"), Case(decision="reject"), Case(runner="run_streamed")]
    alone, shared = run_matrix(cases, later=2), run_matrix(cases, later=2, jobs=2)
    assert records(shared) == records(alone)
    assert runs_json(shared) == runs_json(alone)


@pytest.mark.parametrize("capture", [True, False], ids=["capturing", "not-capturing"])
def test_harness_stage_hook_is_told_each_stage_as_it_ends(capture: bool) -> None:
    told: list[str] = []
    case = Case("run", "approve", "on", "json")
    run = run_sync(run_case_async(case, capture=capture, on_stage=told.append))
    assert told == list(STAGES)
    assert [s.name for s in run.stages] == (list(STAGES) if capture else [])


# --- the case continued: the liveness scenarios' later turns, in the same conversation ---------


def test_harness_later_turns_go_on_after_the_next_turn_as_the_liveness_case_does() -> None:
    """The harness continues the case with ``liveness.later``'s steps, in the same driver: the
    later turns store what ``later_turns.run_case_continued`` (the same steps through
    ``converse``) stores, turn by turn."""
    from approval_compaction.openai_agents.later_turns import run_case_continued

    case = Case(decision="reject", compaction="on", state_boundary="memory")
    run = run_case(case, later=4)
    assert (run.continued, [t.outcome for t in run.later]) == (4, ["answered"] * 4)
    assert all(t.stage is not None and t.stage.compaction_inputs for t in run.later)
    assert [s.name for s in run.stages] == list(STAGES)  # the case's own stages are unchanged
    alone = run_case_continued(case, "input", 4, model="scripted")  # the harness's model
    assert [len(t.stage.stored) for t in run.later if t.stage] == list(alone.lengths)


def test_harness_matrix_continues_each_case_and_judges_liveness_beside_safety() -> None:
    from approval_compaction.analysis.liveness import LIVENESS_NAMES

    (run,) = run_matrix([Case(compaction="off")], later=2)
    rows = records([run])
    assert [r.invariant for r in rows] == list(INVARIANTS)
    assert {r.invariant: r.holds for r in rows if r.invariant in LIVENESS_NAMES} == {
        "compaction_runs": True,
        "history_bounded": True,
    }
    (plain,) = run_matrix([Case(compaction="off")], later=0)
    assert (plain.continued, plain.later) == (0, [])
    assert {r.invariant for r in records([plain])}.isdisjoint(LIVENESS_NAMES)


def test_harness_matrix_over_http_is_not_continued_unless_asked() -> None:
    """Over HTTP the matrix's runs are what the user meets: they stop after the next turn."""
    from approval_compaction.openai_agents.wiring import responses_backend

    (run,) = run_matrix([Case(compaction="off")], backend=responses_backend)
    assert (run.continued, run.later) == (0, [])
