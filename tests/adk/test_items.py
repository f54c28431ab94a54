"""ADK's contents and events mapped to the wire's shapes: the one place, judged by the one
judge."""

from __future__ import annotations

from typing import Any

from approval_compaction.adk.items import (
    LONG_RUNNING_INTERIM,
    PLACEHOLDER,
    event_items,
    events_items,
    part_items,
    read_liveness,
    read_run,
    renumbered,
)
from approval_compaction.analysis.invariants import judge
from approval_compaction.analysis.pairing import find_unpaired

CALL = {"function_call": {"id": "call-1", "name": "protected_lookup", "args": {"record": "r"}}}
ASK = "adk-0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b"
WAITING = {"error": "This tool call requires confirmation, please approve or reject."}


def _response(call_id: str, response: dict[str, Any], name: str = "protected_lookup") -> Any:
    return {"function_response": {"id": call_id, "name": name, "response": response}}


def _event(role: str, *parts: Any, **extra: Any) -> dict[str, Any]:
    return {"author": "assistant", "content": {"role": role, "parts": list(parts)}, **extra}


CONFIRM_CALL = {
    "function_call": {
        "id": ASK,
        "name": "adk_request_confirmation",
        "args": {"originalFunctionCall": CALL["function_call"], "toolConfirmation": {}},
    }
}
ASKED = CONFIRM_CALL["function_call"]
PAUSED = [
    _event("user", {"text": "Please look up the protected record."}),
    _event("model", CALL),
    _event("user", _response("call-1", WAITING), requested_tool_confirmations=["call-1"]),
    _event("model", CONFIRM_CALL, long_running_tool_ids=[ASK]),
]
RESUMED = [
    *PAUSED,
    _event("user", _response(ASK, {"confirmed": True}, "adk_request_confirmation")),
    _event("user", _response("call-1", {"status": "found"})),
]


def test_items_call_and_response_pair_by_id_as_call_and_output() -> None:
    items = part_items({"role": "model", "parts": [CALL]})
    items += part_items({"role": "user", "parts": [_response("call-1", {"status": "found"})]})
    assert [(i["type"], i["call_id"]) for i in items] == [
        ("function_call", "call-1"),
        ("function_call_output", "call-1"),
    ]
    assert find_unpaired(items) == []


def test_items_text_parts_are_one_message_with_the_wire_role() -> None:
    (item,) = part_items({"role": "model", "parts": [{"text": "Do"}, {"text": "ne."}]})
    assert item == {"type": "message", "role": "assistant", "content": "Done."}


def test_items_stored_placeholder_pairs_with_nothing_and_the_real_answer_closes_the_call() -> None:
    """ADK does not count its placeholder as the call's answer; the stored history after the
    resume is paired with it typed as what it is, and waits on two calls at the pause."""
    paused = [i for e in PAUSED for i in event_items(e)]
    assert PLACEHOLDER in [i["type"] for i in paused]
    assert {(u.key, u.problem) for u in find_unpaired(paused)} == {
        ("call-1", "open call"),
        (ASK, "open call"),
    }
    assert find_unpaired([i for e in RESUMED for i in event_items(e)]) == []


def test_items_confirmation_call_and_answer_are_marked_as_adks_own() -> None:
    (ask,) = event_items(PAUSED[-1])
    (answer,) = event_items(RESUMED[4])
    assert ask["adk"] == "confirmation request" and answer["adk"] == "confirmation answer"
    assert ask["call_id"] == answer["call_id"] == ASK


def test_items_placeholder_sent_to_the_model_is_the_calls_output() -> None:
    """In a model request the placeholder is what the model is sent as the output."""
    (item,) = part_items({"role": "user", "parts": [_response("call-1", WAITING)]})
    assert item["type"] == "function_call_output"
    assert item["adk"] == "confirmation placeholder"


def test_items_compaction_event_is_one_compaction_item() -> None:
    summary = {"role": "model", "parts": [{"text": "Summary."}]}
    event = {"author": "user", "compaction": summary, "content": summary}
    assert event_items(event) == [{"type": "compaction", "summary": "Summary."}]


def test_items_generated_ids_are_renumbered_in_order_within_a_line() -> None:
    other = "adk-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"
    line = renumbered({"a": [ASK, other], "b": {"c": ASK}})
    assert line == {"a": ["adk-1", "adk-2"], "b": {"c": "adk-1"}}


def _stage(name: str, stored: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    return {"name": name, "stored": stored, "outcome": "ok", **more}


def test_read_run_orphan_output_after_compaction_is_judged_by_the_shared_invariants() -> None:
    """The 1.16.0 shape: the pause's compaction covers the call; after the resume the session
    holds the answers alone, and the resume raised."""
    summary = {"author": "user", "compaction": {"role": "model", "parts": [{"text": "S"}]}}
    raised = "builtins.ValueError: No function call event found for function responses ids"
    line = {
        "case": {"runner": "run", "decision": "approve", "compaction": "on",
                 "state_boundary": "json"},
        "kind": "window-0",
        "sdk_version": "1.16.0",
        "approvals": 1,
        "dispatches": 0,
        "stages": [
            _stage("pause", [summary], compaction_inputs=[PAUSED], interruptions=[ASKED]),
            _stage("round_trip", [summary]),
            {**_stage("resume", [summary, *RESUMED[4:]]), "outcome": raised},
            _stage("next_turn", [summary, *RESUMED[4:]]),
        ],
    }  # fmt: skip
    run = read_run(line)
    assert run.sdk == "adk" and run.mode == "window-0"
    pause = run.stage("pause")
    assert pause is not None and pause.interruptions[0]["call_id"] == "call-1"
    verdicts = {v.invariant: v for v in judge(run).verdicts}
    assert verdicts["compaction_input_complete"].holds is False
    assert verdicts["stored_history_paired"].holds is False
    assert "call-1" in verdicts["stored_history_paired"].detail


def test_events_items_tell_a_long_running_tools_interim_answer_from_its_output() -> None:
    """A LongRunningFunctionTool answers at once and again when done, under one id (the shape
    of adk-python#5602): the interim answer pairs with nothing, the last is the output."""
    call = {"function_call": {"id": "call-1", "name": "long_export", "args": {}}}
    interim = {"function_response": {"id": "call-1", "name": "long_export",
                                     "response": {"status": "pending"}}}  # fmt: skip
    done = {"function_response": {"id": "call-1", "name": "long_export",
                                  "response": {"status": "done"}}}  # fmt: skip
    events = [
        {"author": "model", "content": {"role": "model", "parts": [call]},
         "long_running_tool_ids": ["call-1"]},
        {"author": "model", "content": {"role": "user", "parts": [interim]}},
        {"author": "user", "content": {"role": "user", "parts": [done]}},
    ]  # fmt: skip
    types = [i["type"] for i in events_items(events)]
    assert types == ["function_call", LONG_RUNNING_INTERIM, "function_call_output"]
    assert [i["type"] for i in events_items(events[:2])] == [
        "function_call",
        "function_call_output",
    ]


def test_read_liveness_a_lost_call_sent_in_later_turns_names_its_direction() -> None:
    """The lost situation on google-adk 2.7.0 (as 2.5.0-2.9.2 and 1.x): the call the dead
    worker stored is sent to the model in every later turn without its output. The run names
    it as sent unpaired, which way and where, and the scripted model's turns raise what the
    API's rules answer."""
    asked = {"author": "user", "content": {"role": "user", "parts": [{"text": "Anything?"}]}}
    called = {"author": "assistant", "content": {"role": "model", "parts": [CALL]}}
    contents = [asked["content"], called["content"], asked["content"]]
    later = {"stage": _stage("next_turn", [asked, called], model_inputs=[contents]),
             "outcome": "answered"}  # fmt: skip
    line = {"scenario": "lost", "kind": "window-0", "sdk_version": "2.7.0", "wanted": 2,
            "stages": [_stage("pause", [asked, called])], "later": [later] * 2}  # fmt: skip
    run = read_liveness(line)
    assert run.sent == ("call-1",) and run.sent_words == ("open call call-1 to the model",)
    assert [t.raised for t in run.turns] == [
        "predicted by the stand-in's rules: HTTP 400: No tool output found for function call "
        "call-1."
    ] * 2


def test_read_run_keeps_what_the_driver_added_to_the_kind() -> None:
    """google-adk 1.25.0 to 2.5.0 take a token threshold only beside the window's fields: the
    driver adds them and says so, and the run keeps it for its record."""
    line = {"case": {"runner": "run", "decision": "approve", "compaction": "on",
                     "state_boundary": "memory"},
            "kind": "tokens-0", "sdk_version": "2.0.0", "stages": [_stage("pause", [])],
            "configured": "compaction_interval=1000000, overlap_size=0"}  # fmt: skip
    run = read_run(line)
    assert run.configured == "compaction_interval=1000000, overlap_size=0"
    assert run.to_json()["configured"] == run.configured
    assert "configured" not in read_run({**line, "configured": ""}).to_json()
