"""The LangChain sweep: its plans, the situations each runs, the files it writes."""

from __future__ import annotations

from approval_compaction.analysis.invariants import judge_all
from approval_compaction.langchain.harness import Plan
from approval_compaction.langchain.items import read_run
from approval_compaction.langchain.sweep import (
    CONTROLS,
    PLANS,
    SITUATIONS,
    Ran,
    liveness_plans,
)
from approval_compaction.study.capture import CaseRun

CALL = {"id": "call_1", "name": "protected_lookup", "args": {}}


def a_run() -> CaseRun:
    """One case that keeps every invariant: paused, resumed with the tool's output, asked on."""
    asked = [{"type": "human", "content": "q"}, {"type": "ai", "content": "", "tool_calls": [CALL]}]
    done = [*asked, {"type": "tool", "content": "x", "tool_call_id": "call_1"}]
    stages = [
        {"name": "pause", "stored": asked, "model_inputs": [asked[:1]]},
        {"name": "round_trip", "stored": asked},
        {"name": "resume", "stored": done, "model_inputs": [done], "dispatches": 1},
        {"name": "next_turn", "stored": done, "model_inputs": [done]},
    ]
    case = {"runner": "run", "decision": "approve", "compaction": "on", "state_boundary": "json"}
    return read_run({"case": case, "kind": "keep-2", "api": "chat", "sdk_version": "1.5.2",
                     "stages": stages, "approvals": 1, "dispatches": 1})  # fmt: skip


def test_sweep_liveness_plans_run_every_situation_instead_of_the_cases() -> None:
    plans = liveness_plans(4, (*PLANS, *CONTROLS))
    assert len(plans) == len(PLANS) + len(CONTROLS)
    assert all(p.cases == () and p.situations == SITUATIONS and p.later == 4 for p in plans)


def test_sweep_a_release_reads_as_one_record_per_plan() -> None:
    plan = Plan("keep-2", "chat")
    (row,) = Ran([(plan, [a_run()])], []).records()
    assert (row.plan, row.cases, row.violating, row.session) == ("keep-2 chat", 1, 0,
                                                               "memory and SQLite")  # fmt: skip
    assert judge_all([a_run()])[0].violations == []
