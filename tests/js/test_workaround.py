"""The JS workaround (js/workaround.mjs) on the pinned @openai/agents, through the harness."""

from __future__ import annotations

from dataclasses import replace

import pytest

from approval_compaction.analysis.invariants import judge_all
from approval_compaction.js.harness import run_plans
from approval_compaction.js.sweep import PLANS
from approval_compaction.lab.releases.driven import record

pytestmark = [
    pytest.mark.enable_socket,
    pytest.mark.subprocess,
    pytest.mark.usefixtures("node_harness"),
]


def test_workaround_holds_every_invariant_in_every_mode_and_still_compacts() -> None:
    """The sixteen cases in each plan, the session wrapped: no case breaks an invariant (bare,
    half of them do), and every case whose hook says yes still sends a compaction request."""
    plans = [replace(plan, workaround=True) for plan in PLANS]
    for plan, runs in zip(plans, run_plans(plans), strict=True):
        judged = judge_all(runs)
        met = record(plan, judged)
        assert (met.plan, met.cases, met.violating, met.not_applicable) == (
            f"{plan.mode}{'-store-false' if plan.response_store is False else ''}-workaround",
            16,
            0,
            "",
        )
        for run in runs:
            requests = sum(len(stage.compaction_inputs) for stage in run.stages)
            pause = run.stage("pause")
            assert pause is not None and not pause.compaction_inputs, run.case.label
            assert (requests > 0) == (run.case.compaction == "on"), run.case.label
