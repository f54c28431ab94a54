"""Late answers (ADK): a situation the driver ran, split into the calls summarised while they
wait, the answers summarised or sent without their call, and those read back unpaired."""

from __future__ import annotations

from typing import Any

import pytest

from approval_compaction.adk.late import LateAnswer, late_answer

CALL = {"function_call": {"id": "call-1", "name": "protected_lookup", "args": {"record": "r"}}}
ANSWER = {
    "function_response": {"id": "call-1", "name": "protected_lookup", "response": {"ok": True}}
}
SUMMARY = {"author": "user", "compaction": {"role": "model", "parts": [{"text": "S"}]}}


def _event(role: str, *parts: Any) -> dict[str, Any]:
    return {"author": "assistant", "content": {"role": role, "parts": list(parts)}}


def _stage(name: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "outcome": "ok", **more}


def _line(resumed: bool, later: list[dict[str, Any]]) -> dict[str, Any]:
    """The late answer's shape: the call summarised while it waits, the resume stores its
    answer after the summary, a later turn summarises and sends that answer alone."""
    return {
        "scenario": "resumed",
        "kind": "window-0",
        "resumed": resumed,
        "stages": [
            _stage("pause", compaction_inputs=[[_event("model", CALL)]]),
            _stage("resume", stored=[SUMMARY, _event("user", ANSWER)]),
        ],
        "later": [{"stage": stage, "outcome": "ok"} for stage in later],
    }


LATER = _stage(
    "later_1",
    stored=[SUMMARY, _event("user", ANSWER)],
    compaction_inputs=[[_event("user", ANSWER)]],
    model_inputs=[[{"role": "user", "parts": [ANSWER]}]],
)


def test_late_answer_splits_the_waiting_call_from_its_late_answer() -> None:
    assert late_answer(_line(True, [LATER]), "2.13.0") == LateAnswer(
        package="2.13.0",
        situation="resumed",
        kind="window-0",
        waiting="call-1",
        late="call-1",
        to_model="call-1",
        read_back="call-1",
    )


def test_late_answer_with_its_call_restored_is_late_no_more() -> None:
    """The fix's shape: the summariser and the model get the answer with its call."""
    paired = _stage(
        "later_1",
        compaction_inputs=[[_event("model", CALL), _event("user", ANSWER)]],
        model_inputs=[[{"role": "model", "parts": [CALL]}, {"role": "user", "parts": [ANSWER]}]],
    )
    found = late_answer(_line(False, [paired]), "patched")
    assert (found.waiting, found.late, found.to_model, found.read_back) == ("call-1", "", "", "")


@pytest.mark.parametrize(
    ("resumed", "read_back"), [(True, "call-1"), (False, "")], ids=["resumed", "not-resumed"]
)
def test_late_answer_reads_back_from_the_late_resume_on(resumed: bool, read_back: str) -> None:
    """The resume's stored history counts only when the situation resumed."""
    assert late_answer(_line(resumed, []), "2.13.0").read_back == read_back


def test_late_answer_keys_are_sorted_once_each() -> None:
    other = {"function_response": {**ANSWER["function_response"], "id": "call-0"}}
    twice = _stage(
        "later_1",
        compaction_inputs=[[_event("user", ANSWER)], [_event("user", ANSWER, other)]],
    )
    assert late_answer(_line(False, [twice]), "2.13.0").late == "call-0 call-1"
