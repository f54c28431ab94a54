"""Conversations: steps as minimal JSON, one stable name per list of steps."""

from __future__ import annotations

import pytest

from approval_compaction.lab.explore.conversation import (
    CONTINUE_TURNS,
    Conversation,
    Step,
    StepRecord,
    late_resumes,
)
from approval_compaction.study.capture import Stage

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


KEEP = Step("keep")
LATE = Step("decide", decision="reject", boundary="json", kept=True)


def test_keep_and_a_decide_of_the_kept_state_round_trip_and_read_as_themselves() -> None:
    assert KEEP.to_json() == {"action": "keep"}
    assert LATE.to_json() == APPROVE.to_json() | {"decision": "reject", "kept": True}
    assert "kept" not in APPROVE.to_json()  # the latest state: the JSON (and name) as before
    steps = (PAUSE, KEEP, Step("continue"), LATE)
    assert Conversation.from_json(Conversation("input", True, steps).to_json()).steps == steps
    assert KEEP.label() == "keep the paused state aside"
    assert LATE.label() == "decide the kept state reject via json"


def test_committed_counterexamples_keep_their_names() -> None:
    """Every saved counterexample is still named by the digest of its steps as read now: the
    new actions left the JSON (and so the name) of every earlier step as it was."""
    from approval_compaction.lab import paths
    from approval_compaction.lab.explore.replay import load

    files = sorted(paths.data(paths.DATA).counterexamples.glob("*.json"))
    assert files
    for path in files:
        finding = load(path)
        assert path.stem == finding.name
        conversation = finding.trace.conversation
        sdk = f"{conversation.sdk}-" if conversation.sdk else ""  # a driver's: js-, adk-
        fix = "-fix" if conversation.fix else ""
        digest = conversation.digest()
        assert finding.name == f"{sdk}{finding.trace.sdk_version}{fix}-{digest}"


def record(index: int, step: Step, outcome: str = "answered") -> StepRecord:
    return StepRecord(index, step, outcome, (), 0, Stage("next_turn", stored=[]))


@pytest.mark.parametrize(
    ("steps", "late"),
    [
        ((PAUSE, KEEP, Step("continue"), LATE), [3]),
        ((PAUSE, KEEP, Step("ask"), Step("ask"), LATE, Step("ask")), [4]),
        ((PAUSE, KEEP, LATE), []),  # no turn between: resumed at once, not late
        ((PAUSE, KEEP, Step("ask"), APPROVE), []),  # the latest state, not the kept one
        ((PAUSE, Step("continue"), LATE), []),  # nothing was kept
        ((PAUSE, KEEP, Step("ask"), LATE, Step("ask"), LATE), [3]),  # recalled once
    ],
    ids=["continue", "asks", "at-once", "latest", "nothing-kept", "once"],
)
def test_late_resumes_are_decides_of_a_kept_state_after_turns(
    steps: tuple[Step, ...], late: list[int]
) -> None:
    outcomes = {"keep": "kept", "ask": "paused"}
    records = [record(n, s, outcomes.get(s.action, "answered")) for n, s in enumerate(steps)]
    assert late_resumes(records) == late


def test_a_keep_that_found_nothing_pending_keeps_nothing() -> None:
    steps = (Step("ask"), KEEP, Step("ask"), LATE)
    records = [record(n, s, "nothing pending" if s == KEEP else "x") for n, s in enumerate(steps)]
    assert late_resumes(records) == []
