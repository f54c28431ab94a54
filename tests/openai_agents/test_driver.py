"""The driver: conversations as steps, taken through the SDK, each stage recorded.

Steps beyond the sixteen cases are built and checked here too: an approval left undecided, a
lost output, plain turns, a stored history to start from, a process boundary.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from approval_compaction.analysis.pairing import open_calls, orphan_outputs
from approval_compaction.openai_agents.driver import (
    Ask,
    Continue,
    Cross,
    Decide,
    Driver,
    Keep,
    LoseOutput,
    MemoryStore,
    Recall,
    Resume,
    Setup,
    Step,
    Store,
    Transcript,
    Turn,
    branches,
    converse,
    step_from_json,
    step_json,
)
from approval_compaction.openai_agents.harness import FINISHED, NEXT_ANSWER, PENDING_CALL, QUESTIONS
from approval_compaction.openai_agents.model import assistant_message
from approval_compaction.paths import PACKAGE
from approval_compaction.study.loop import run_sync

PAUSE = Ask(QUESTIONS[0], (PENDING_CALL,), stage="pause")
NEXT = Ask(QUESTIONS[1], (NEXT_ANSWER,))
STEPS: list[Step] = [
    PAUSE,
    Cross("json"),
    Decide("mixed"),
    Resume((FINISHED,), "run_streamed", compact=False),
    LoseOutput(),
    Keep(),
    Recall(),
    Continue(2, stage=None),
]


def sent(transcript: Transcript, index: int = -1) -> list[dict[str, Any]]:
    stage = transcript.turns[index].stage
    assert stage is not None
    return [item for request in stage.model_inputs for item in request]


@pytest.mark.parametrize("step", STEPS, ids=[type(s).__name__ for s in STEPS])
def test_driver_step_json_round_trips(step: Step) -> None:
    assert step_from_json(step_json(step)) == step


def test_driver_setup_json_names_the_session_wrapper_by_reference() -> None:
    setup = Setup("auto", 3, ("function_approval", "mcp_approval"), wrap=run_sync)
    data = setup.to_json()
    assert data["wrap"] == "approval_compaction.study.loop:run_sync"
    assert Setup.from_json(data) == setup


def test_driver_transcript_json_round_trips() -> None:
    transcript = converse(Setup(), [PAUSE, Cross("json")])
    again = Transcript.from_json(transcript.to_json())
    assert again == transcript and again.state == transcript.state != ""
    assert isinstance(again.turns[0], Turn) and again.turns[0].stage == transcript.stage("pause")


def test_driver_records_one_stage_per_step_that_names_one(tmp_path: Path) -> None:
    told: list[str] = []

    async def scenario() -> list[Turn]:
        async with Driver(Setup(), tmp_path / "history.db", on_stage=told.append) as driver:
            return await driver.take([PAUSE, Cross("memory"), Decide(), Resume((FINISHED,)), NEXT])

    turns = run_sync(scenario())
    assert [t.outcome for t in turns] == ["paused", "crossed", "decided", "answered", "answered"]
    assert told == ["pause", "round_trip", "resume", "next_turn"]
    assert [t.stage.name if t.stage else None for t in turns] == [*told[:2], None, *told[2:]]
    assert (tmp_path / "history.db").is_file()


def test_driver_ask_while_pending_leaves_the_approval_undecided() -> None:
    """The call stays stored without its output; the SDK drops it from the next input."""
    transcript = converse(Setup(trigger="never"), [PAUSE, NEXT, Decide(), Resume()])
    assert [t.outcome for t in transcript.turns] == [
        "paused",
        "answered",
        "nothing pending",
        "nothing pending",
    ]
    assert open_calls(transcript.stage("next_turn").stored) == ["pending-c1"]
    assert open_calls(sent(transcript, 1)) == []


def test_driver_lose_output_keeps_the_call_and_never_its_output() -> None:
    steps: list[Step] = [PAUSE, Cross("json"), LoseOutput(), Continue(1)]
    transcript = converse(Setup(trigger="never"), steps)
    assert [t.outcome for t in transcript.turns] == ["paused", "crossed", "lost", "answered"]
    assert transcript.state == ""
    assert open_calls(transcript.stage("next_turn").stored) == ["pending-c1"]


def test_driver_continue_numbers_its_plain_turns_across_steps() -> None:
    transcript = converse(Setup(trigger="never"), [Continue(2), Continue(1)])
    first, second = (t.stage for t in transcript.turns)
    assert first is not None and second is not None
    assert len(first.model_inputs) == 2 and len(second.model_inputs) == 1
    assert second.stored[-2:] == [
        {"role": "user", "content": "question 2"},
        assistant_message("answer 2", item_id="msg-2"),
    ]


def test_driver_starts_from_the_given_stored_history() -> None:
    history = ({"role": "user", "content": "earlier"}, assistant_message("old", item_id="m0"))
    transcript = converse(Setup(trigger="never", history=history), [NEXT])
    assert sent(transcript)[:2] == list(history)
    assert transcript.stage("next_turn").stored[:2] == list(history)


def test_driver_mixed_decision_approves_the_first_and_rejects_the_rest() -> None:
    two = (PENDING_CALL, {**PENDING_CALL, "id": "fc-c2", "call_id": "c2"})
    steps: list[Step] = [Ask("q", two, stage="pause"), Decide("mixed"), Resume((FINISHED,))]
    transcript = converse(Setup(trigger="never"), steps)
    assert transcript.turns[1].approvals == 1 and transcript.dispatches == 1


def test_driver_hook_answers_the_step_and_counts_what_it_was_shown() -> None:
    """A step's ``compact`` overrides the trigger; the hook's views are kept per step."""
    steps: list[Step] = [Ask("a", compact=True), Ask("b"), Ask("c", compact=False)]
    transcript = converse(Setup(trigger=1), steps)
    compactions = [len(t.stage.compaction_inputs) for t in transcript.turns if t.stage]
    assert compactions == [1, 1, 0]
    assert all(turn.hook for turn in transcript.turns)


def test_driver_failing_step_ends_the_steps_with_its_error_in_one_line() -> None:
    def broken(session: Any) -> Any:
        async def add_items(items: list[Any]) -> None:
            raise ValueError("first line\nsecond line")

        session.add_items = add_items
        return session

    transcript = converse(Setup(wrap=broken), [PAUSE, NEXT])
    (turn,) = transcript.turns
    assert (turn.outcome, turn.error) == ("error: ValueError", "ValueError: first line second line")
    assert turn.http_status is None


@pytest.mark.subprocess
def test_driver_process_boundary_resumes_like_the_json_boundary() -> None:
    """A fresh interpreter given only the state's JSON and the store file, then back here."""
    rest: list[Step] = [Decide(), Resume((FINISHED,)), NEXT]
    here = converse(Setup(), [PAUSE, Cross("json"), *rest])
    there = converse(Setup(), [PAUSE, Cross("process"), *rest])
    assert [t.outcome for t in there.turns] == [t.outcome for t in here.turns]
    for name in ("resume", "next_turn"):
        assert there.stage(name).stored == here.stage(name).stored
        assert there.stage(name).model_inputs == here.stage(name).model_inputs
    assert orphan_outputs(sent(there)) == ["pending-c1"] and there.dispatches == 1


LATE: list[Step] = [PAUSE, Keep(), Continue(2), Recall(), Decide(), Resume((FINISHED,))]


def test_driver_recall_resumes_a_kept_state_after_later_turns() -> None:
    """The application kept the paused state and the user went on; resumed late, the approved
    tool runs and its output is stored after the later turns."""
    transcript = converse(Setup(trigger="never"), LATE)
    outcomes = [t.outcome for t in transcript.turns]
    assert outcomes == ["paused", "kept", "answered", "recalled", "decided", "answered"]
    stored = transcript.stage("resume").stored
    assert [i.get("content") for i in stored if i.get("role") == "user"] == [
        QUESTIONS[0],
        "question 0",
        "question 1",
    ]
    assert stored[-2]["call_id"] == "pending-c1" and stored[-2]["type"] == "function_call_output"
    assert transcript.dispatches == 1 and transcript.state == ""


def test_driver_recall_without_a_kept_state_finds_nothing() -> None:
    transcript = converse(Setup(trigger="never"), [Recall(), Decide()])
    assert [t.outcome for t in transcript.turns] == ["nothing pending", "nothing pending"]


@pytest.mark.subprocess
def test_driver_kept_state_crosses_the_process_boundary() -> None:
    """A state kept before a ``process`` boundary is recalled in the worker."""
    steps = [*LATE[:2], Cross("process"), *LATE[2:]]
    here, there = converse(Setup(trigger="never"), LATE), converse(Setup(trigger="never"), steps)
    assert there.stage("resume").stored == here.stage("resume").stored
    assert there.dispatches == here.dispatches == 1


@pytest.mark.subprocess
def test_driver_takes_back_a_state_kept_in_the_worker(tmp_path: Path) -> None:
    """A ``Keep`` after a ``process`` boundary: the parent holds the kept state afterwards."""
    driver = Driver(Setup(trigger="never"), tmp_path / "history.db")
    turns = run_sync(driver.take([PAUSE, Cross("process"), Keep()]))
    assert [t.outcome for t in turns] == ["paused", "crossed", "kept"]
    assert driver.kept and driver.kept == driver.state_text()
    driver.close()


def test_driver_counters_carry_the_ids_on(tmp_path: Path) -> None:
    """A worker's model, compaction and plain-turn numbers go on from the counters it is given."""
    driver = Driver(Setup(), tmp_path / "history.db")
    driver.counters = [3, 2, 1]
    wiring = driver.wiring
    assert (wiring.model.calls, wiring.compaction_client.calls, driver.continued) == (3, 2, 1)
    (turn,) = run_sync(driver.take([Continue(1)]))
    assert driver.counters == [4, 3, 2] and turn.stage is not None
    assert turn.stage.stored[-1]["id"] == "compaction-3"
    driver.close()


def _same_conversations(forked: Sequence[Transcript], replayed: Sequence[Transcript]) -> None:
    assert len(forked) == len(replayed)
    for f, r in zip(forked, replayed, strict=True):
        assert [t.outcome for t in f.turns] == [t.outcome for t in r.turns[1:]]
        for a, b in zip(f.turns, r.turns[1:], strict=True):
            assert (a.stage and a.stage.stored) == (b.stage and b.stage.stored)
            assert (a.stage and a.stage.model_inputs) == (b.stage and b.stage.model_inputs)
            assert (a.stage and a.stage.compaction_inputs) == (
                b.stage and b.stage.compaction_inputs
            )


@pytest.mark.parametrize("store", ["sqlite", "memory"])
def test_driver_branches_are_the_conversations_replayed_from_the_start(store: Store) -> None:
    """Each position forks the trunk's store (and its counters): the same stored histories,
    model inputs and compaction requests as taking ``Continue(p)`` and the steps from the start,
    with a history written first and compaction at every turn."""
    history = (assistant_message("earlier", item_id="msg-earlier"),)
    setup = Setup("input", "always", store=store, history=history, go_on=True)
    rest: list[Step] = [PAUSE, Decide(), Resume((FINISHED,)), NEXT]
    forked = branches(setup, rest, 3)
    replayed = [converse(setup, [Continue(p), *rest]) for p in range(4)]
    _same_conversations(forked, replayed)
    assert [len(t.stage("next_turn").stored) for t in forked] == [
        len(t.stage("next_turn").stored) for t in replayed
    ]


@pytest.mark.subprocess
def test_driver_branches_in_a_worker_are_the_branches_here() -> None:
    """The trunk and its forks run in the worker's interpreter when one is given."""
    from approval_compaction.openai_agents.worker import Worker

    rest: list[Step] = [PAUSE, Decide(), Resume((FINISHED,)), NEXT]
    here = branches(Setup(go_on=True), rest, 2)
    with Worker() as worker:
        there = branches(Setup(go_on=True), rest, 2, worker=worker)
    assert [t.to_json() for t in there] == [t.to_json() for t in here]


class RefusesWrites:
    """A session that cannot store a turn (a disk full, say)."""

    def __init__(self, session: Any) -> None:
        self.session = session

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    async def add_items(self, items: list[Any]) -> None:
        raise OSError("no space left on the store")


def test_driver_branches_stop_when_a_plain_turn_fails() -> None:
    """A trunk turn that fails leaves nothing to fork from: one line, not a silent branch."""
    with pytest.raises(RuntimeError, match="the plain turn 1 failed: OSError: no space left"):
        branches(Setup(wrap=RefusesWrites), [NEXT], 2)


def test_driver_memory_store_keeps_items_in_order_and_limits_from_the_end() -> None:
    async def scenario() -> list[Any]:
        store = MemoryStore()
        await store.add_items([{"n": 1}, {"n": 2}])
        await store.add_items([{"n": 3}])
        seen = [await store.get_items(), await store.get_items(2), await store.get_items(0)]
        seen.append(await store.pop_item())
        await store.clear_session()
        seen += [await store.get_items(), await store.pop_item()]
        return seen

    everything, last_two, none, popped, cleared, empty_pop = run_sync(scenario())
    assert everything == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert last_two == [{"n": 2}, {"n": 3}] and none == []
    assert popped == {"n": 3} and cleared == [] and empty_pop is None


DRIVING = {"Runner.run", "Runner.run_streamed", "OpenAIResponsesCompactionSession"}


def _calls(path: Path) -> set[str]:
    """The dotted names this module calls (``Runner.run``), read from its syntax tree."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            names.add(ast.unparse(node.func))
    return names


def test_driver_is_the_one_place_that_runs_the_sdk() -> None:
    """No module outside the study's driver calls the runner or builds the compaction session
    (a docstring may show how a user does it; only calls count)."""
    found = {
        path.relative_to(PACKAGE).as_posix(): sorted(_calls(path) & DRIVING)
        for path in sorted(PACKAGE.rglob("*.py"))
        if _calls(path) & DRIVING
    }
    # the store fuzzer plays a team's application: it runs the SDK as a team does, wrapped and bare
    fuzzer = {"testing/pyfuzz.py": ["OpenAIResponsesCompactionSession", "Runner.run"]}
    assert found == {"openai_agents/driver.py": sorted(DRIVING)} | fuzzer
