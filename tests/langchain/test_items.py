"""LangChain's messages as the wire's shapes, and a driver line as the study's run."""

from __future__ import annotations

from typing import Any

from approval_compaction.analysis.invariants import judge
from approval_compaction.langchain.items import message_items, read_liveness, read_run

CALL = {"id": "call_1", "name": "protected_lookup", "args": {"record": "r-1"}}


def test_items_an_ai_message_is_its_text_then_each_call() -> None:
    message = {"type": "ai", "content": "Looking.", "tool_calls": [CALL]}
    assert message_items(message) == [
        {"type": "message", "role": "assistant", "content": "Looking."},
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "protected_lookup",
            "arguments": '{"record": "r-1"}',
        },
    ]


def test_items_an_ai_message_without_text_is_its_calls_only() -> None:
    items = message_items({"type": "ai", "content": "", "tool_calls": [CALL]})
    assert [i["type"] for i in items] == ["function_call"]


def test_items_a_tool_message_is_the_output_of_its_call() -> None:
    message = {"type": "tool", "content": "found", "tool_call_id": "call_1", "status": "error"}
    assert message_items(message) == [
        {"type": "function_call_output", "call_id": "call_1", "output": "found"}
    ]


def test_items_the_summary_is_one_compaction_item_and_roles_are_the_apis() -> None:
    summary = {"type": "human", "content": "Here is a summary...", "summary": True}
    assert message_items(summary) == [{"type": "compaction", "summary": "Here is a summary..."}]
    roles = [message_items({"type": t, "content": "x"})[0]["role"] for t in ("human", "system")]
    assert roles == ["user", "system"]


def _line(next_input: list[dict[str, Any]]) -> dict[str, Any]:
    asked = [{"type": "human", "content": "q"}, {"type": "ai", "content": "", "tool_calls": [CALL]}]
    answered = [*asked, {"type": "tool", "content": "x", "tool_call_id": "call_1"}]
    return {
        "case": {"runner": "run", "decision": "approve", "compaction": "on",
                 "state_boundary": "json"},
        "kind": "keep-2",
        "api": "chat",
        "sdk_version": "1.5.2",
        "approvals": 1,
        "dispatches": 1,
        "stages": [
            {"name": "pause", "stored": asked, "model_inputs": [asked[:1]],
             "interruptions": [CALL]},
            {"name": "round_trip", "stored": asked},
            {"name": "resume", "stored": answered, "model_inputs": [answered], "dispatches": 1},
            {"name": "next_turn", "stored": answered, "model_inputs": [next_input]},
        ],
    }  # fmt: skip


def test_items_a_driver_line_reads_as_a_langchain_run_judged_by_the_shared_invariants() -> None:
    run = read_run(_line([{"type": "human", "content": "next"}]))
    assert (run.sdk, run.mode, run.model, run.sdk_version) == ("langchain", "keep-2 chat",
                                                              "responses", "1.5.2")  # fmt: skip
    assert run.stage("pause").interruptions[0]["call_id"] == "call_1"  # type: ignore[union-attr]
    assert judge(run).violations == []


def test_items_an_output_sent_without_its_call_breaks_the_next_turns_pairing() -> None:
    orphan = [{"type": "tool", "content": "x", "tool_call_id": "call_1"}]
    violated = [v.invariant for v in judge(read_run(_line(orphan))).violations]
    assert violated == ["next_turn_input_paired"]


def test_items_a_situation_line_with_fewer_later_turns_than_asked_says_so() -> None:
    line = {"scenario": "abandoned", "kind": "trim", "api": "responses", "sdk_version": "1.5.2",
            "stages": [], "later": [], "wanted": 3}  # fmt: skip
    run = read_liveness(line)
    assert (run.mode, run.error) == ("trim responses", "only 0 of 3 later turns ran")
