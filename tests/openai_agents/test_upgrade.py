"""Upgrade: the pinned release's next turn on a poisoned and on a repaired store, on the wire."""

from __future__ import annotations

from approval_compaction.openai_agents.upgrade import (
    ACCEPTED,
    REJECTED,
    pause_failed_compaction_inputs,
    upgrade_records,
)


def test_next_turn_on_a_poisoned_store_is_rejected_by_the_api_standin_and_healed_by_repair() -> (
    None
):
    """The output the pinned release stored without its call reaches the model input of the next
    turn, and the API stand-in answers it with HTTP 400; after `doctor repair` it accepts."""
    records = {r.store: r for r in upgrade_records(None)}
    sick, healed = records["poisoned"], records["repaired"]
    assert sick.judged_by == healed.judged_by == "API stand-in"
    assert sick.next_turn == REJECTED and sick.api_answer.startswith("HTTP 400")
    assert sick.orphan_outputs == "pending-c1"  # the pairing check agrees with the stand-in
    assert healed.next_turn == ACCEPTED and healed.orphan_outputs == ""
    assert healed.stored_after == "healthy"
    left = records["pause_failed"]  # the pause raised: the call stays, the user asked again
    assert (left.next_turn, left.stored_after, left.orphan_outputs) == (ACCEPTED, "stuck", "")


def test_pause_failed_next_turn_compacts_only_that_turns_items_not_the_dead_call() -> None:
    """The stuck store's next turn sends one compaction request, answered 200: its input is the
    turn's question and answer, without the dead call (the stand-in's unjudged case is not met)."""
    (sent,) = pause_failed_compaction_inputs()
    assert [i.get("role") for i in sent] == ["user", "assistant"]
    assert not any(i.get("type") == "function_call" for i in sent)
