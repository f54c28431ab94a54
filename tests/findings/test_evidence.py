"""Evidence: the failing request found in a run, and what the SDK's conversion changed."""

from __future__ import annotations

from approval_compaction.lab.findings.evidence import HANDED, SENT, body_diff, conversion, failure
from approval_compaction.study.capture import CaseRun, Outcome, Stage
from approval_compaction.study.scenario import Case

CALL = {"type": "function_call", "call_id": "c1", "name": "tool", "arguments": "{}"}
ORPHAN = {"type": "function_call_output", "call_id": "c1", "output": "done"}
QUESTION = {"role": "user", "content": "next question"}
REJECTED = Outcome("openai.BadRequestError", 400, "No tool call found")


def request(status: int, items: list[dict[str, object]], path: str = "/v1/responses") -> dict:
    return {"path": path, "status": status, "body": {"model": "m", "input": items}}


def run_with(*stages: Stage) -> CaseRun:
    return CaseRun(Case(), "0.0.0", list(stages), approvals=1, dispatches=1, model="responses")


def test_evidence_failure_is_the_first_rejected_model_request_with_its_handed_input() -> None:
    handed = [[QUESTION], [ORPHAN, QUESTION]]
    next_turn = Stage(
        "next_turn",
        stored=[],
        model_inputs=handed,
        http_requests=[
            request(200, [QUESTION]),
            request(200, [], path="/v1/responses/compact"),  # not a model request
            request(400, [ORPHAN, QUESTION]),
        ],
        outcome=REJECTED,
    )
    found = failure(run_with(Stage("pause", stored=[]), next_turn))
    assert found is not None
    assert (found.stage.name, found.request["status"]) == ("next_turn", 400)
    assert found.handed == [ORPHAN, QUESTION] and found.sent == [ORPHAN, QUESTION]


def test_evidence_no_failure_when_every_stage_was_answered() -> None:
    answered = Stage("next_turn", stored=[], http_requests=[request(200, [QUESTION])])
    assert failure(run_with(answered)) is None


def test_evidence_failure_without_a_rejected_model_request_is_none() -> None:
    """A stage that failed before any request was answered with an error has no evidence."""
    stage = Stage("next_turn", stored=[], model_inputs=[[QUESTION]], outcome=REJECTED)
    assert failure(run_with(stage)) is None


def test_evidence_body_diff_is_empty_for_equal_inputs_and_marks_each_side() -> None:
    assert body_diff([CALL, ORPHAN], [CALL, ORPHAN]) == ""
    diff = body_diff([CALL, ORPHAN], [ORPHAN]).splitlines()
    assert diff[:2] == [f"--- {HANDED}", f"+++ {SENT}"]
    assert '- "type": "function_call",' in diff
    assert not any(line.startswith("+ ") for line in diff[2:])


def test_evidence_conversion_counts_changed_items_and_names_what_the_body_adds() -> None:
    assert conversion([CALL], [CALL]) == (
        "The 1 input items went over the wire exactly as the runner handed them."
    )
    changed = {**ORPHAN, "output": "changed"}
    assert conversion([CALL, ORPHAN], [CALL, changed, QUESTION], {"input": [], "model": "m"}) == (
        "2 of 3 input items changed on the way; the body adds `model`."
    )


def test_evidence_refused_request_names_path_status_body_and_message() -> None:
    """Notebook 09's wire table: the refused request of a run, what its body carries, and the
    server's message; ``ok`` when nothing was refused."""
    from approval_compaction.lab.findings.evidence import refused_request

    refused = {
        "path": "/v1/responses/compact",
        "status": 400,
        "body": {"model": "m", "previous_response_id": "resp_1"},
        "error": "No tool output found for function call c1.",
    }
    stage = Stage("pause", stored=[], http_requests=[refused], outcome=REJECTED)
    row = refused_request(run_with(stage))
    assert row["stage"] == "pause" and row["refused request"] == "/v1/responses/compact"
    assert row["its body carries"] == "previous_response_id resp_1" and row["status"] == 400
    assert row["message"] == "No tool output found for function call c1."
