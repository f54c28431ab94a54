"""The JS item protocol mapped to the wire's shapes: the one place a JS run is made judgeable."""

from __future__ import annotations

import pytest

from approval_compaction.analysis.invariants import judge
from approval_compaction.analysis.pairing import dead_items, open_calls, orphan_outputs
from approval_compaction.js.items import read_run, snake, wire_item, wire_items
from approval_compaction.study.scenario import Case

CALL = {
    "type": "function_call",
    "id": "fc_standin_1",
    "callId": "call_standin_1",
    "name": "protected_lookup",
    "status": "completed",
    "arguments": '{"value": "v"}',
    "providerData": {"type": "function_call", "id": "fc_standin_1"},
}
RESULT = {
    "type": "function_call_result",
    "name": "protected_lookup",
    "callId": "call_standin_1",
    "status": "completed",
    "output": {"type": "text", "text": "looked up v"},
}
# A hosted MCP approval request and the runner's own response to it, as @openai/agents 0.20.0
# stores them (tests/doctor/exports holds whole sessions the runner wrote).
MCP_REQUEST = {
    "type": "hosted_tool_call",
    "id": "mcpr_standin_1",
    "name": "mcp_approval_request",
    "status": "completed",
    "providerData": {"type": "mcp_approval_request", "id": "mcpr_standin_1", "name": "lookup",
                     "arguments": "{}", "server_label": "synthetic-mcp"},
}  # fmt: skip
MCP_RESPONSE = {
    "type": "hosted_tool_call",
    "name": "mcp_approval_response",
    "providerData": {"approve": True, "approval_request_id": "mcpr_standin_1"},
}
ANSWER = {
    "id": "msg_standin_2",
    "type": "message",
    "role": "assistant",
    "content": [{"type": "output_text", "text": "a", "providerData": {"annotations": []}}],
    "status": "completed",
    "providerData": {},
}


@pytest.mark.parametrize(
    ("given", "sent"),
    [
        (
            CALL,
            {
                "type": "function_call",
                "id": "fc_standin_1",
                "call_id": "call_standin_1",
                "name": "protected_lookup",
                "status": "completed",
                "arguments": '{"value": "v"}',
            },
        ),
        (
            RESULT,
            {
                "type": "function_call_output",
                "call_id": "call_standin_1",
                "status": "completed",
                "output": "looked up v",
            },
        ),
        (
            ANSWER,
            {
                "id": "msg_standin_2",
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "a", "annotations": []}],
                "status": "completed",
            },
        ),
        ({"role": "user", "content": "q"}, {"role": "user", "content": "q"}),
        (
            {"type": "compaction", "id": "cmp_1", "encrypted_content": "s"},
            {"type": "compaction", "id": "cmp_1", "encrypted_content": "s"},
        ),
        (
            {
                "type": "hosted_tool_call",
                "name": "mcp",
                "providerData": {
                    "type": "mcp_approval_request",
                    "id": "mcpr_1",
                    "serverLabel": "s",
                },
            },
            # the converter sets ``server_label`` from ``providerData.server_label``: absent
            # here, so JSON.stringify leaves it out although the spread had it
            {"type": "mcp_approval_request", "id": "mcpr_1"},
        ),
        (MCP_RESPONSE, {"type": "mcp_approval_response", "approve": True,
                        "approval_request_id": "mcpr_standin_1"}),
        (
            {"type": "hosted_tool_call", "name": "mcp_approval_response",
             "providerData": {"approve": False, "approvalRequestId": "mcpr_2", "reason": "no"}},
            {"type": "mcp_approval_response", "approve": False, "reason": "no"},
        ),
        (
            {"type": "hosted_tool_call", "id": "x", "name": "mcp_approval_request",
             "providerData": {"name": "lookup", "server_label": "s"}},
            {"type": "mcp_approval_request", "id": "x", "name": "lookup", "server_label": "s"},
        ),
        (
            {"type": "hosted_tool_call", "name": "web_search", "providerData": {"q": 1}},
            {"type": "hosted_tool_call", "name": "web_search"},
        ),
    ],
    ids=["call", "result", "assistant-message", "user-message", "compaction", "hosted-mcp",
         "mcp-response-by-name", "mcp-response-camel-case", "mcp-request-by-name",
         "hosted-unnamed"],
)  # fmt: skip
def test_wire_item_sends_each_js_item_as_the_sdk_converter_does(given: dict, sent: dict) -> None:
    """Each expected item is what ``getInputItems`` (agents-openai 0.20.0's converter) sends
    for the item; the exports the real runner writes are checked against its HTTP requests in
    ``tests/affected/test_exports.py``."""
    assert wire_item(given) == sent


def test_the_runners_own_mcp_approval_response_answers_its_request() -> None:
    """Regression for issue 57: @openai/agents stores its MCP approval response as a
    ``hosted_tool_call`` named ``mcp_approval_response`` with no ``providerData.type`` (the
    converter pairs it by name). Unmapped, an answered request read as open (stuck after the next
    turn) and a response whose request was compacted away as nothing (healthy)."""
    answered = wire_items([MCP_REQUEST, MCP_RESPONSE, {"role": "user", "content": "next"}])
    assert open_calls(answered) == [] and orphan_outputs(answered) == []
    assert dead_items(answered) == []
    assert orphan_outputs(wire_items([MCP_RESPONSE])) == ["mcpr_standin_1"]


def test_wire_item_pairs_a_js_call_with_its_result_as_the_invariants_read_them() -> None:
    """Unmapped, the JS result (``callId``, ``function_call_result``) pairs with nothing: the
    mapping is what lets the Python pairing rule see the JS history."""
    both = [wire_item(CALL), wire_item(RESULT)]
    assert open_calls(both) == [] and orphan_outputs(both) == []
    assert orphan_outputs([wire_item(RESULT)]) == ["call_standin_1"]
    assert open_calls([wire_item(CALL)]) == ["call_standin_1"]


def test_snake_names_camel_case_fields_as_the_wire_does() -> None:
    assert [snake(k) for k in ("callId", "approvalRequestId", "id")] == [
        "call_id",
        "approval_request_id",
        "id",
    ]


def test_read_run_judges_a_js_capture_with_the_python_invariants() -> None:
    """A capture whose next turn sends the output without its call breaks the pairing
    invariants, as a Python run's would; the run says it is the JS SDK's."""
    compaction = {"type": "compaction", "id": "cmp", "encrypted_content": "s"}
    stage = {"outcome": "ok", "http_status": None, "compaction_inputs": [], "http_requests": []}
    refused = {
        "outcome": "openai.BadRequestError: 400 No tool call found",
        "http_status": 400,
        "endpoint": "/v1/responses",
        "api_message": "No tool call found for function call output with call_id call_standin_1.",
    }
    data = {
        "case": Case("run", "approve", "on", "json").as_dict(),
        "sdk": "js",
        "sdk_version": "0.20.0",
        "mode": "input",
        "approvals": 1,
        "dispatches": 1,
        "error": None,
        "stages": [
            {**stage, "name": "pause", "stored": [compaction], "interruptions": [CALL],
             "compaction_inputs": [[{"role": "user", "content": "q"}, wire_item(CALL)]]},
            {**stage, "name": "round_trip", "stored": [compaction]},
            {**stage, "name": "resume", "stored": [compaction, RESULT, ANSWER],
             "model_inputs": [[{"role": "user", "content": "q"}, CALL, RESULT]]},
            {**stage, **refused, "name": "next_turn", "stored": [compaction, RESULT, ANSWER],
             "model_inputs": [[compaction, RESULT, ANSWER, {"role": "user", "content": "n"}]]},
        ],
    }  # fmt: skip
    run = read_run(data)
    assert run.sdk == "js" and run.model == "responses"
    assert run.stage("pause") is not None
    assert run.stage("pause").interruptions[0]["call_id"] == "call_standin_1"  # type: ignore[union-attr]
    broken = {v.invariant for v in judge(run).violations}
    assert broken == {
        "next_turn_input_paired",
        "compaction_input_complete",
        "stored_history_paired",
        "next_turn_accepted",
    }


def test_read_liveness_splits_own_and_later_turns_and_names_the_plan() -> None:
    """A situation's line: its own stages (the pause) apart from the later turns, the plan's
    store in the mode, a paused later turn kept as waiting, and too few later turns an error."""
    from approval_compaction.js.items import read_liveness

    call = {"type": "function_call", "callId": "c1", "name": "t", "arguments": "{}"}
    stage = {"name": "next_turn", "stored": [call], "compaction_inputs": [[]]}
    data = {
        "scenario": "abandoned", "sdk_version": "0.20.0", "mode": "auto",
        "response_store": False, "workaround": True, "resumed": False, "later": 3,
        "stages": [{"name": "pause", "stored": [call]}, stage, stage], "own": 1,
        "met": ["answered", "paused"], "error": None,
    }  # fmt: skip
    run = read_liveness(data)
    assert (run.mode, run.workaround, len(run.own), len(run.turns)) == (
        "auto-store-false",
        True,
        1,
        2,
    )
    assert [t.waiting for t in run.turns] == [False, True]
    assert run.turns[0].unpaired[0].key == "c1"  # callId mapped to the wire's call_id
    assert run.error == "only 2 of 3 later turns ran"
