"""A plan's judged runs as one record of the sweep, and a release that cannot be installed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from approval_compaction.analysis.invariants import judge_all
from approval_compaction.js.harness import Plan
from approval_compaction.js.sweep import PLANS, exposure_records
from approval_compaction.lab.releases.driven import record, unavailable
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


def test_record_names_a_call_sent_without_its_output_beside_the_refusal() -> None:
    """After a refused pause the call stays stored without its output and the next question
    sends it (@openai/agents 0.3.6 to 0.20.0, auto): the record names the direction
    (``model_input_complete``), not only the refusal the user met."""
    case = Case(compaction="on")
    run = refused_at_pause(case)
    sent = Stage("next_turn", [], model_inputs=[[{"role": "user", "content": "q"}, CALL]])
    sent_run = CaseRun(case, "0.20.0", [run.stages[0], sent], 0, 0, model="responses", sdk="js")
    row = record(Plan("auto"), judge_all([sent_run]))
    assert row.invariants.split() == ["model_input_complete", "pause_accepted"]


def test_record_says_what_the_driver_added_for_the_release_to_run_the_plan() -> None:
    said = "compactionMode left out: @openai/agents 0.3.6 has no compactionMode option"
    runs = [replace(refused_at_pause(Case()), configured=said), refused_at_pause(Case())]
    assert record(Plan("previous_response_id"), judge_all(runs)).configured == said
    assert record(Plan("auto"), judge_all([refused_at_pause(Case())])).configured == ""


@pytest.mark.slow
@pytest.mark.releases
@pytest.mark.subprocess
@pytest.mark.enable_socket  # the stand-in the harness serves on 127.0.0.1
def test_previous_response_id_runs_without_the_option_on_a_release_that_lacks_it() -> None:
    """@openai/agents 0.3.6 to 0.4.0 have no compactionMode option and always compact by
    previous_response_id: the plan of that mode runs there with the option left out, and says
    so (the sweep recorded it as not applicable); input has no such configuration."""
    from approval_compaction.js.harness import run_plans
    from approval_compaction.js.packages import package_folder

    folder = package_folder("0.3.6")
    plans = [Plan(mode, cases=(Case(),)) for mode in ("previous_response_id", "input")]
    ran = run_plans(plans, folder)
    kept, lacking = (record(p, judge_all(r)) for p, r in zip(plans, ran, strict=True))
    assert kept.configured.startswith("compactionMode left out: @openai/agents 0.3.6 has no")
    assert (kept.not_applicable, kept.raised_at, kept.endpoint) == (
        "", "pause", "/v1/responses/compact",
    )  # fmt: skip
    assert lacking.not_applicable == "@openai/agents 0.3.6 has no compactionMode option"
    assert lacking.configured == ""
