"""Verdicts: poisoned, stuck, pending and healthy; agreement with what the next turn sends, and
with the workaround on which items are dead."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from approval_compaction.analysis.pairing import Unpaired, find_unpaired
from approval_compaction.doctor.verdict import (
    HEALTHY,
    PENDING,
    PENDING_AT_END,
    PENDING_EARLIER,
    POISONED,
    STUCK,
    judge,
    stuck_note,
)
from approval_compaction.openai_agents.harness import run_case
from approval_compaction.study.scenario import select_cases

CALL = {"type": "function_call", "call_id": "c1", "name": "t", "arguments": "{}"}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "x"}
ANSWER = {"type": "message", "role": "assistant", "content": "a"}
USER = {"role": "user", "content": "hi"}
SUMMARY = {"type": "compaction", "id": "cmp_1", "encrypted_content": "s"}
REQUEST = {"type": "mcp_approval_request", "id": "r1", "name": "t", "server_label": "s"}
RESPONSE = {"type": "mcp_approval_response", "approval_request_id": "r1", "approve": True}
DEAD_CALL = Unpaired(1, "function_call", "c1", "open call")
DEAD_REQUEST = Unpaired(1, "mcp_approval_request", "r1", "open call")


@pytest.mark.parametrize(
    ("items", "verdict", "note"),
    [
        ([USER, CALL, OUTPUT], HEALTHY, ""),
        ([USER, OUTPUT], POISONED, "the next turn would send an output without its call"),
        ([USER, CALL], PENDING, PENDING_AT_END),
        ([USER, CALL, USER], STUCK, stuck_note([DEAD_CALL])),
        ([USER, CALL, ANSWER], PENDING, PENDING_EARLIER),
        ([CALL, OUTPUT, OUTPUT], POISONED, "the next turn would send an output without its call"),
        # A summary after the call: 0.23.1 and 0.24.0 store one there only when they replaced
        # a suffix that starts at a later user message (the endpoint keeps that message before
        # its summary; a compaction client that answers with the summary alone drops it), so
        # the summary is a later turn as a user message is (``analysis.pairing``).
        ([USER, CALL, SUMMARY], STUCK, stuck_note([DEAD_CALL])),
        ([SUMMARY, USER, CALL], PENDING, PENDING_AT_END),
        ([USER, CALL, USER, SUMMARY], STUCK, stuck_note([DEAD_CALL])),
        ([USER, REQUEST], PENDING, PENDING_AT_END),
        ([USER, REQUEST, USER], STUCK, stuck_note([DEAD_REQUEST])),
        ([USER, REQUEST, RESPONSE, USER], HEALTHY, ""),
    ],
    ids=[
        "paired",
        "orphan-output",
        "open-at-end",
        "stuck",
        "open-earlier",
        "output-twice",
        "summary-after-call",
        "summary-before-call",
        "summary-after-user",
        "mcp-request-at-end",
        "mcp-request-abandoned",
        "mcp-request-answered",
    ],
)
def test_judge_names_the_verdict(items: list[dict[str, Any]], verdict: str, note: str) -> None:
    report = judge("s", items)
    assert (report.verdict, report.note) == (verdict, note)
    assert report.items == len(items)


@pytest.mark.parametrize("compaction", ["on", "off"])
def test_stored_verdict_agrees_with_the_next_turn_input(compaction: str) -> None:
    """The stored history after the resume is poisoned exactly when the next turn's model input
    carries an output without its call (the pinned release's bug)."""
    case = select_cases(f"runner=run,decision=approve,compaction={compaction},state_boundary=json")
    run = run_case(case[0])
    resume = next(s for s in run.stages if s.name == "resume")
    following = next(s for s in run.stages if s.name == "next_turn")
    sent = [item for request in following.model_inputs for item in request]
    orphaned = any(u.problem == "orphan output" for u in find_unpaired(sent))
    assert (judge("s", resume.stored).verdict == POISONED) == orphaned
    assert orphaned == (compaction == "on")


def test_stuck_note_names_an_abandoned_mcp_request_apart_from_a_dead_call() -> None:
    """An abandoned hosted MCP approval request is the item that pins the session (0.24.0 never
    compacts it again), named beside a dead call, not hidden as "the server's to answer"."""
    report = judge("s", [USER, CALL, {**REQUEST, "id": "r9"}, USER])
    assert report.verdict == STUCK and report.open_calls == ("c1", "r9")
    call_note, request_note = report.note.split("; ")
    assert call_note.startswith("open call c1 before a later turn")
    assert request_note.startswith("unanswered MCP approval request r9 before a later turn")
    assert "0.24.0 never compacts" in request_note
    # r12: the call's note said compaction kept the call "for ever", in every mode; the liveness
    # sweep has a dead call stop compaction in previous_response_id mode only
    assert "for ever" not in call_note
    assert "input and auto mode keep compacting" in call_note
    assert "previous_response_id mode never compacts again" in call_note


SHAPES = [USER, CALL, OUTPUT, REQUEST, RESPONSE, ANSWER, SUMMARY, {"type": "tool_search_call"}]


def test_a_type_that_is_not_a_string_after_an_open_call_is_judged_not_raised() -> None:
    """``doctor scan`` raised ``TypeError: unhashable type: 'list'`` on a session whose open call
    is followed by an item typed with a list (the pending check looked the type up in a set)."""
    report = judge("s", [USER, CALL, {"type": ["compaction"]}])
    assert (report.verdict, report.note) == (PENDING, PENDING_EARLIER)


@pytest.mark.parametrize("length", [1, 2, 3, 4])
def test_doctor_calls_stuck_exactly_what_the_workaround_retires(length: int) -> None:
    """One rule for a dead item: on every history of up to four items drawn from calls,
    outputs, MCP requests and responses, user and assistant messages, the doctor's stuck
    verdict names the items the workaround's ``split_open`` finds dead, and a session the
    doctor calls pending holds only items the workaround still waits for."""
    from approval_compaction.fix.workaround import split_open

    for items in itertools.product(SHAPES, repeat=length):
        report = judge("s", list(items))
        live, dead = split_open(list(items))
        keys = [name.split(":", 1)[1] for name in dead]
        if report.verdict == STUCK:
            assert dead and all(key in report.note for key in keys), items
        if report.verdict == PENDING:
            assert live and not dead, items
        if report.verdict == HEALTHY:
            assert not live and not dead, items


def test_a_session_with_rows_it_could_not_read_is_unreadable_not_healthy() -> None:
    """Regression for issue 33: sessions encrypted under a second key were shown ``healthy``
    (0 items, 3 unreadable)."""
    report = judge("s", [], unreadable=3)
    assert (report.verdict, report.unreadable) == ("unreadable", 3)
    assert report.note.startswith("3 rows could not be read")
    orphan = [{"type": "function_call_output", "call_id": "gone"}]
    assert judge("s", orphan, unreadable=3).verdict == "poisoned"  # what it did read stands
    assert judge("s", [], unreadable=0).verdict == "healthy"
