"""A plan's judged runs as one record of the sweep, and a release that cannot be installed."""

from __future__ import annotations

from dataclasses import replace

from approval_compaction.analysis.invariants import judge_all
from approval_compaction.js.harness import Plan
from approval_compaction.lab.js.sweep import PLANS, exposure_records, record, unavailable
from approval_compaction.study.capture import CaseRun, Outcome, Stage
from approval_compaction.study.scenario import Case

CALL = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}
REFUSED = Outcome(
    "openai.BadRequestError",
    400,
    "400 No tool output found for function call c1.",
    "/v1/responses/compact",
    "No tool output found for function call c1.",
)


def refused_at_pause(case: Case) -> CaseRun:
    pause = Stage("pause", [{"role": "user", "content": "q"}, CALL], outcome=REFUSED)
    later = Stage("next_turn", [{"role": "user", "content": "q"}, CALL])
    return CaseRun(case, "0.20.0", [pause, later], 1, 0, model="responses", sdk="js")


def test_record_counts_the_cases_that_break_an_invariant_and_where_the_user_met_it() -> None:
    runs = [refused_at_pause(Case(compaction="on")), refused_at_pause(Case(compaction="on"))]
    row = record(Plan("auto"), judge_all(runs))
    assert (row.cases, row.violating, row.raised_at) == (2, 2, "pause")
    assert row.endpoint == "/v1/responses/compact"
    assert "pause_accepted" in row.invariants.split()


def test_unavailable_release_says_why_and_counts_nothing() -> None:
    row = unavailable("0.16.1", PLANS[3], "npm could not install @openai/agents@0.16.1: boom")
    assert (row.plan, row.cases, row.violating) == ("auto-store-false", 0, 0)
    assert row.not_applicable.endswith("boom")


def test_exposure_reports_each_position_in_order() -> None:
    plan = replace(PLANS[2], trigger="default", positions=(0, 9), cases=(Case(),))
    quiet = CaseRun(Case(), "0.20.0", [Stage("pause", [CALL], interruptions=[CALL])], 1, 1)
    rows = exposure_records(plan, [quiet, refused_at_pause(Case())])
    assert [(r.position, r.compacted_at_pause, r.violating) for r in rows] == [
        (0, False, False),
        (9, True, True),
    ]
