"""Verdicts: poisoned, pending and healthy, and agreement with what the next turn sends."""

from __future__ import annotations

from typing import Any

import pytest

from approval_compaction.analysis.pairing import find_unpaired
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
from approval_compaction.study.harness import run_case
from approval_compaction.study.scenario import select_cases

CALL = {"type": "function_call", "call_id": "c1", "name": "t", "arguments": "{}"}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "x"}
ANSWER = {"type": "message", "role": "assistant", "content": "a"}
USER = {"role": "user", "content": "hi"}
SUMMARY = {"type": "compaction", "id": "cmp_1", "encrypted_content": "s"}


@pytest.mark.parametrize(
    ("items", "verdict", "note"),
    [
        ([USER, CALL, OUTPUT], HEALTHY, ""),
        ([USER, OUTPUT], POISONED, "the next turn would send an output without its call"),
        ([USER, CALL], PENDING, PENDING_AT_END),
        ([USER, CALL, USER], STUCK, stuck_note(["c1"])),
        ([USER, CALL, ANSWER], PENDING, PENDING_EARLIER),
        ([CALL, OUTPUT, OUTPUT], POISONED, "the next turn would send an output without its call"),
        # A summary after the call: the SDK's automatic compaction only stores one there when
        # it replaced a suffix that starts at a later user message, and the API keeps that
        # message; a summary alone is no evidence that the application moved on.
        ([USER, CALL, SUMMARY], PENDING, PENDING_EARLIER),
        ([USER, CALL, USER, SUMMARY], STUCK, stuck_note(["c1"])),
    ],
    ids=[
        "paired",
        "orphan-output",
        "open-at-end",
        "stuck",
        "open-earlier",
        "output-twice",
        "summary-after-call",
        "summary-after-user",
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
