"""Check: whether and when the bug strikes, from runs on the installed SDK."""

from __future__ import annotations

import pytest

from approval_compaction.affected.check import (
    REJECTED,
    CheckError,
    check_answer,
    check_config,
    run_check,
)


def default_threshold() -> int:
    """The SDK's default trigger threshold, read from the installed SDK."""
    from agents.memory import openai_responses_compaction_session as module

    return int(getattr(module, "DEFAULT_COMPACTION_THRESHOLD", 0))


def test_default_configuration_strikes_when_the_pause_reaches_the_threshold() -> None:
    """With no trigger and the default mode, the bug strikes exactly at the pause positions
    where the SDK's own hook compacts: the call waiting for approval is then lost."""
    threshold = default_threshold()
    rows = run_check(check_config(), turns=threshold)
    struck = [r for r in rows if r.next_turn == REJECTED]
    assert struck, "the SDK's defaults are expected to be affected on the pinned release"
    for row in rows:
        assert (row.next_turn == REJECTED) == row.compacted_at_pause
        assert row.pending_call_stored == (not row.compacted_at_pause)
        assert (row.stored_after_resume == "poisoned") == (row.next_turn == REJECTED)
    assert all(r.candidates_at_pause >= threshold for r in struck)
    assert "affected at" in check_answer(check_config(), rows, "x")


def test_a_trigger_that_never_compacts_is_not_affected() -> None:
    rows = run_check(check_config(trigger="never"), turns=3)
    assert all(r.next_turn != REJECTED for r in rows)
    assert "not affected" in check_answer(check_config(trigger="never"), rows, "x")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mode": "sideways"}, "unknown compaction mode"),
        ({"trigger": "-3"}, "unknown trigger"),
        ({"decision": "maybe"}, "unknown decision"),
    ],
    ids=["mode", "trigger", "decision"],
)
def test_bad_configuration_is_one_line(kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(CheckError, match=message):
        check_config(**kwargs)
