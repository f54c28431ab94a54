"""Conversations: steps as minimal JSON, one stable name per list of steps."""

from __future__ import annotations

from approval_compaction.explore.conversation import CONTINUE_TURNS, Conversation, Step

PAUSE = Step("ask", compact=True, calls=("function_approval",))
APPROVE = Step("decide", decision="approve", boundary="json")


def test_conversation_json_round_trip_keeps_every_step() -> None:
    conversation = Conversation("auto", True, (PAUSE, APPROVE, Step("ask", "run_streamed")))
    assert Conversation.from_json(conversation.to_json()) == conversation


def test_step_json_keeps_only_the_fields_its_action_uses() -> None:
    assert set(PAUSE.to_json()) == {"action", "runner", "compact", "calls", "ending"}
    assert set(APPROVE.to_json()) == {"action", "runner", "compact", "decision", "boundary"}
    assert Step("lose").to_json() == {"action": "lose"}
    assert set(Step("continue").to_json()) == {"action", "runner", "compact"}
    steps = (PAUSE, Step("lose"), Step("continue", "run_streamed"))
    assert Conversation.from_json(Conversation("input", False, steps).to_json()).steps == steps


def test_digest_is_stable_and_names_the_steps() -> None:
    one = Conversation("input", False, (PAUSE, APPROVE))
    assert one.digest() == Conversation("input", False, (PAUSE, APPROVE)).digest()
    assert len(one.digest()) == 12
    assert one.digest() != Conversation("input", False, (PAUSE,)).digest()
    assert one.digest() != Conversation("input", True, (PAUSE, APPROVE)).digest()


def test_step_label_reads_as_the_step() -> None:
    assert PAUSE.label() == "ask[function_approval] compact"
    streamed = Step("decide", "run_streamed", decision="reject", boundary="process")
    assert streamed.label() == "decide reject via process (streamed)"
    assert Step("lose").label() == "lose the paused state"
    assert Step("continue", "run_streamed").label() == f"continue {CONTINUE_TURNS} turns (streamed)"
