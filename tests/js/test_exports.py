"""The JS runner's exports for the doctor's test data: one plan per kind, decision and compaction
(the conversations themselves are held to the committed exports in tests/affected/)."""

from __future__ import annotations

from approval_compaction.js.exports import js_plans
from approval_compaction.js.plugin import PLUGIN, exports
from approval_compaction.lab.affected.exports import CHOICES, COMPACTIONS, MODE
from approval_compaction.study.words import TOOL_KINDS


def test_exports_plan_every_kind_decision_and_compaction_once() -> None:
    plans = js_plans()
    keys = [(kind, choice, compaction) for kind, choice, compaction, _ in plans]
    assert len(keys) == len(set(keys)) == len(TOOL_KINDS) * len(CHOICES) * len(COMPACTIONS)


def test_exports_plan_the_decision_the_choice_names() -> None:
    """An abandoned call is approved by nobody: its plan asks on instead (``abandon``), and only
    a rejection rejects."""
    for kind, choice, compaction, plan in js_plans():
        (case,) = plan.cases
        assert (plan.mode, plan.tool) == (MODE, kind)
        assert plan.abandon is (choice == "abandon")
        assert case.decision == ("reject" if choice == "reject" else "approve")
        assert case.compaction == compaction


def test_exports_reach_the_lab_through_the_plugin() -> None:
    assert PLUGIN.exports is exports
