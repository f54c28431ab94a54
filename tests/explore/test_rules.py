"""Rules: which violations fail an example, and the state machine walking real conversations
(that a search for a violation finds it, shrunk, is ``test_search``'s)."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

from approval_compaction.lab.explore.conversation import (
    TURNLESS,
    Conversation,
    Judgement,
    Step,
    StepRecord,
)
from approval_compaction.lab.explore.rules import (
    ACTIONS,
    NO_KIND,
    Setup,
    Violation,
    machine,
    new_pairs,
)
from approval_compaction.study.capture import Stage

KINDS = ("function_approval", "function")
PAIRED = "next_turn_input_paired"


def record(*judgements: Judgement, step: Step | None = None) -> StepRecord:
    stage = Stage("next_turn", stored=[], compaction_inputs=[[], []])
    return StepRecord(0, step or Step("ask"), "answered", (), 0, stage, judgements)


def test_rules_new_pairs_are_violated_targets_by_kind_not_yet_found() -> None:
    step = record(
        Judgement(PAIRED, False, "", ("function_approval-0-0", "function-0-1")),
        Judgement("decision_enforced", False, "1 dispatches, 0 approvals"),
        Judgement("stored_history_paired", True, ""),
        Judgement("compaction_input_paired", False, "", ("function-0-1",)),
    )
    setup = Setup(KINDS, targets=frozenset({PAIRED, "decision_enforced"}))
    assert new_pairs(step, setup) == {
        (PAIRED, "function_approval"),
        (PAIRED, "function"),
        ("decision_enforced", NO_KIND),  # a count names no call
    }
    setup.found.add((PAIRED, "function"))
    assert (PAIRED, "function") not in new_pairs(step, setup)


def test_rules_violation_names_its_pairs_and_the_steps_taken() -> None:
    conversation = Conversation().then(Step("ask")).then(Step("decide"))
    raised = Violation(conversation, [], {(PAIRED, "function"), ("a", "b")})
    assert isinstance(raised, AssertionError)  # hypothesis shrinks on a failing assertion
    assert raised.pairs == [("a", "b"), (PAIRED, "function")]
    assert str(raised) == f"a (b), {PAIRED} (function) after 2 steps"


def test_rules_machine_walks_conversations_and_tallies_them() -> None:
    """With no target nothing fails: the machine runs real steps through the SDK and counts
    each rule, choice and judgement."""
    setup = Setup(KINDS, boundaries=("memory", "json"))
    explorer = machine(setup)
    run_state_machine_as_test(
        explorer,
        settings=settings(
            max_examples=3,
            stateful_step_count=3,
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        ),
    )
    tally: Counter[str] = setup.tally
    assert tally["examples"] >= 3 and tally["steps"] > 0
    assert tally["steps"] == sum(tally[f"rule: {action}"] for action in ACTIONS)
    decided = tally["decided: the kept state"] + tally["decided: the latest"]
    assert decided == tally["rule: decide"] and tally["late resumes"] <= decided
    turns = tally["steps"] - sum(tally[f"rule: {action}"] for action in TURNLESS)
    assert tally["runner: run"] + tally["runner: run_streamed"] == turns  # a keep takes no turn
    assert tally["judged: history_bounded"] == tally["rule: continue"]
    assert tally[f"judged: {PAIRED}"] == tally["steps"]
