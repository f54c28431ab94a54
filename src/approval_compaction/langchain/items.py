"""Items: LangChain's messages mapped to the wire's shapes, in this one place.

A LangGraph agent keeps its conversation as a list of messages in its checkpointed state
(``state["messages"]``); the driver writes each as ``{"type", "content", ...}``
(``driver.message_json``). ``message_items`` maps one to the items the invariants read, as
``ChatOpenAI`` itself maps them before it sends (``_convert_message_to_dict`` for Chat
Completions, ``_construct_responses_api_input`` for the Responses API): a ``human``, ``ai`` or
``system`` message's text to a message of that role (``ai`` as ``assistant``), each of an
``ai`` message's ``tool_calls`` to a ``function_call`` (its ``id`` as ``call_id``, its ``args``
as JSON ``arguments``), a ``tool`` message to the ``function_call_output`` of its
``tool_call_id``. The message ``SummarizationMiddleware`` puts in place of what it summarised
(a ``human`` message the driver marks ``summary``) is one ``compaction`` item: what the model
reads in place of the messages it covers.

``read_run`` turns one line the driver wrote into the study's ``CaseRun`` (``sdk`` is
``langchain``, ``mode`` the plan's setting, the model ``responses``: every request went over
HTTP and was judged there); ``read_liveness`` one situation's line into a ``LivenessRun``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..analysis.liveness import LivenessRun, driver_liveness
from ..study.capture import CaseRun, Stage, driver_run
from ..study.items import Item
from ..study.moves import StepAnswer

ROLES = {"human": "user", "ai": "assistant", "system": "system"}


def message_items(message: dict[str, Any]) -> list[Item]:
    """One message as wire items (see the module's docstring)."""
    kind, text = str(message.get("type")), str(message.get("content") or "")
    if message.get("summary"):
        return [{"type": "compaction", "summary": text}]
    if kind == "tool":
        return [
            {"type": "function_call_output", "call_id": message.get("tool_call_id"), "output": text}
        ]
    items: list[Item] = []
    if text or kind != "ai":
        items.append({"type": "message", "role": ROLES.get(kind, kind), "content": text})
    for call in message.get("tool_calls") or []:
        items.append(
            {
                "type": "function_call",
                "call_id": call.get("id"),
                "name": call.get("name"),
                "arguments": json.dumps(call.get("args") or {}, sort_keys=True),
            }
        )
    return items


def messages_items(messages: Iterable[dict[str, Any]]) -> list[Item]:
    return [item for message in messages for item in message_items(message)]


def _call(call: dict[str, Any]) -> Item:
    """A tool call the paused run waits on, as the wire's ``function_call``."""
    return {
        "type": "function_call",
        "call_id": call.get("id"),
        "name": call.get("name"),
        "arguments": json.dumps(call.get("args") or {}, sort_keys=True),
    }


def _stage(data: dict[str, Any]) -> Stage:
    """A stage as the driver wrote it, its messages mapped to the wire's shapes."""
    state = data.get("state_items", {})
    return Stage.from_json(
        {
            "name": data["name"],
            "stored": messages_items(data.get("stored", [])),
            "model_inputs": [messages_items(m) for m in data.get("model_inputs", [])],
            "compaction_inputs": [messages_items(m) for m in data.get("compaction_inputs", [])],
            "dispatches": int(data.get("dispatches", 0)),
            "interruptions": [_call(c) for c in data.get("interruptions", [])],
            "state_items": {k: messages_items(v) for k, v in state.items()},
            "outcome": data.get("outcome", "ok"),
            "http_status": data.get("http_status"),
            "endpoint": str(data.get("endpoint", "")),
            "api_message": str(data.get("api_message", "")),
        }
    )


def setting(data: dict[str, Any]) -> str:
    """The plan's setting a line ran in: ``keep-1 chat`` (``harness.Plan.label``)."""
    return f"{data['kind']} {data['api']}"


def read_run(data: dict[str, Any]) -> CaseRun:
    """One case the driver ran, as the study's record."""
    return driver_run(data, _stage, sdk="langchain", model="responses", mode=setting(data))


def read_liveness(data: dict[str, Any], release: str | None = None) -> LivenessRun:
    """One liveness situation the driver ran (its own stages, then its later turns), as the
    run ``analysis.liveness`` judges; ``release`` names a patched package."""
    return driver_liveness(data, _stage, mode=setting(data), model="responses", release=release)


def read_step(data: dict[str, Any]) -> StepAnswer:
    """One answer of the driver's step mode (``driver.py --steps``, the search's): its turns'
    stages mapped to the wire's shapes, what the user met, the approvals given, the call ids
    still waiting for a decision, and what the conversation holds now (``pending``)."""
    if data.get("not_applicable"):
        return StepAnswer(not_applicable=str(data["not_applicable"]))
    waiting = tuple(str(i) for group in data.get("confirmations", []) for i in group)
    return StepAnswer(
        stages=tuple(_stage(stage) for stage in data.get("stages", [])),
        outcome=str(data.get("outcome", "answered")),
        approvals=int(data.get("approvals", 0)),
        pending=waiting,
        holds=frozenset({"pending"} if waiting else set()),
    )
