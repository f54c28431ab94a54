"""A late answer to a stuck session's approval, with and without ``doctor repair`` first."""

from __future__ import annotations

from approval_compaction.openai_agents.late import LateAnswer, late_answers


def test_late_answer_after_repair_poisons_the_session_and_the_next_turn_is_refused() -> None:
    left, repaired = late_answers()
    assert left == LateAnswer("no", "stuck", "accepted", "healthy", "accepted")
    assert repaired.repair_first == "yes"
    assert repaired.diagnosis_before_late_answer == "healthy"  # the repair made it look whole
    assert repaired.late_resume == "accepted"  # the kept state still holds the call
    assert repaired.diagnosis_after_late_answer == "poisoned"  # its output stored without it
    assert repaired.next_turn.startswith("HTTP 400: No tool call found for function call output")
