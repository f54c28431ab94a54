"""The harness: one case through the SDK's public API, each stage captured, failures recorded.

Fakes go in through the harness's own parameters (a ``Script`` with another model, store or
decision; a ``wrap_session`` around the session under study), never onto module globals.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from agents import SQLiteSession
from agents.memory import OpenAIResponsesCompactionSession

from approval_compaction import INVARIANTS, records
from approval_compaction.analysis.pairing import open_calls
from approval_compaction.study.capture import STAGES, sdk_version
from approval_compaction.study.harness import (
    PENDING_CALL_ID,
    QUESTIONS,
    SDK_LOGGERS,
    TOOL_NAME,
    Script,
    build_agent,
    decide_by_case,
    run_case,
    run_case_async,
    run_matrix,
    run_sync,
    scripted_model,
    sqlite_store,
)
from approval_compaction.study.model import ScriptedModel, assistant_message
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
    run = run_case(Case(decision="reject"), script=Script(decide=lambda case, item: True))
    assert (run.approvals, run.dispatches) == (1, 1)


def test_harness_model_that_runs_out_is_an_error_after_the_stages_it_reached() -> None:
    short = Script(model=lambda capture: ScriptedModel(scripted_model(capture).steps[:1], capture))
    run = run_case(Case(), script=short)
    assert run.error == "ScriptExhaustedError: scripted model has 1 steps but was called again"
    assert [s.name for s in run.stages] == ["pause", "round_trip"]


def test_harness_first_turn_that_does_not_pause_is_an_error() -> None:
    answer = [[assistant_message("no tool needed", item_id="m1")]]
    script = Script(model=lambda capture: ScriptedModel(answer, capture))
    run = run_case(Case(), script=script)
    assert run.error == "RuntimeError: the first turn did not pause for approval"
    assert [s.name for s in run.stages] in ([], ["pause"]) and run.dispatches == 0
    assert all(s.interruptions == [] for s in run.stages)


def test_harness_store_from_the_script_is_wrapped_by_the_session_under_study() -> None:
    stores: list[Any] = []
    sessions: list[Any] = []

    def store(folder: Path) -> SQLiteSession:
        stores.append(SQLiteSession("memory-store"))
        return stores[-1]

    def wrap(session: Any) -> Any:
        sessions.append(session)
        return session

    run = run_case(Case(compaction="off"), script=Script(store=store), wrap_session=wrap)
    assert run.error is None
    assert isinstance(sessions[0], OpenAIResponsesCompactionSession)
    assert sessions[0].underlying_session is stores[0]


def test_harness_sqlite_store_is_a_file_in_the_case_folder(tmp_path: Path) -> None:
    store = sqlite_store(tmp_path)
    run_sync(store.add_items([{"role": "user", "content": "q"}]))
    assert (tmp_path / "history.db").is_file()
    store.close()


def test_harness_agent_tool_needs_approval_and_counts_dispatches() -> None:
    dispatched: list[str] = []
    agent = build_agent(scripted_model(), dispatched)
    assert [tool.name for tool in agent.tools] == [TOOL_NAME]
    assert agent.tools[0].needs_approval is True  # type: ignore[union-attr]


@pytest.mark.parametrize("decision", ["approve", "reject"])
def test_harness_decide_by_case_follows_the_case(decision: str) -> None:
    assert decide_by_case(Case(decision=decision), None) is (decision == "approve")  # type: ignore[arg-type]


class _FailingSession:
    """Delegates to the compaction session but fails when the resumed run writes its items."""

    def __init__(self, inner: Any) -> None:
        self._inner, self._writes = inner, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def add_items(self, items: list[Any]) -> None:
        self._writes += 1
        if self._writes > 1:
            raise OSError("disk full")
        await self._inner.add_items(items)


def test_harness_failure_in_one_case_is_recorded_not_raised() -> None:
    run = run_case(Case(), wrap_session=_FailingSession)
    assert run.error is not None and "disk full" in run.error
    rows = records([run])
    assert len(rows) == len(INVARIANTS)
    assert {r.status for r in rows} <= {"error", "holds", "violated"}
    assert any(r.holds is None and "disk full" in r.detail for r in rows)


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


def test_harness_run_sync_returns_the_coroutine_result() -> None:
    async def answer() -> int:
        return 42

    assert run_sync(answer()) == 42


def test_harness_run_matrix_runs_the_given_cases_in_order() -> None:
    cases = [Case(compaction="off", decision="reject"), Case(compaction="off")]
    runs = run_matrix(cases)
    assert [run.case for run in runs] == cases


@pytest.mark.parametrize("capture", [True, False], ids=["capturing", "not-capturing"])
def test_harness_stage_hook_is_told_each_stage_as_it_ends(capture: bool) -> None:
    told: list[str] = []
    case = Case("run", "approve", "on", "json")
    run = run_sync(run_case_async(case, capture=capture, on_stage=told.append))
    assert told == list(STAGES)
    assert [s.name for s in run.stages] == (list(STAGES) if capture else [])
