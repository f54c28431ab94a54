"""Items: ADK's contents and events mapped to the wire's shapes, in this one place.

``google-adk`` keeps a conversation as ``Event`` records, each with a genai ``Content`` of
parts: text, a ``function_call`` (``id``, ``name``, ``args``) or a ``function_response``
(``id``, ``name``, ``response``). The model is handed ``LlmRequest.contents``, a list of
``Content``; the summariser a list of ``Event``. ``wire_items`` maps each part to the item the
invariants read: text to a message (role ``model`` as ``assistant``), a call to a
``function_call`` and a response to its ``function_call_output``, paired by the id they share,
as the Responses API pairs ``call_id``; an event that carries a compaction to one
``compaction`` item (the summary ADK reads in place of the events it covers).

Three things are ADK's own and are recorded as what they are, not as the user's tool:

- the synthetic call ``adk_request_confirmation`` that a paused run ends on, and the user's
  answer to it (a ``function_response`` of that name carrying ``confirmed``): a call and its
  output, marked ``"adk": "confirmation request"`` and ``"confirmation answer"``;
- the placeholder ADK stores for the tool's call while it waits (a ``function_response`` with
  the call's id whose event lists the id in ``requested_tool_confirmations``): in what the
  session stored it is typed ``adk_confirmation_placeholder`` and pairs with nothing, because
  ADK itself does not count it as the call's answer (``_event_resolved_response_ids`` in
  ``apps/compaction.py`` leaves the ids it requested confirmation for out); the tool's real
  response comes after the resume. In a model request it is what the model is sent as the
  call's output, and is mapped as one (marked ``"adk": "confirmation placeholder"``).
- a long-running tool's interim answer (its function's immediate return, under the call's id)
  once a later response for the same call is there: typed ``adk_long_running_interim`` in
  what is stored and summarised, so the call's output is its last response.

Ids ADK makes up (``adk-<uuid>``) are renumbered ``adk-1``, ``adk-2``... in the order a case
first shows them, so every run of a case reads the same. ``read_run`` turns one line the driver
wrote into the study's ``CaseRun``; ``read_liveness`` one situation's line into a
``LivenessRun``; ``read_step`` one answer of the driver's step mode (the search's).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from ..analysis.liveness import LivenessRun, driver_liveness
from ..study.capture import CaseRun, Stage, driver_run
from ..study.items import Item
from ..study.moves import StepAnswer
from ..study.words import Model

CONFIRMATION = "adk_request_confirmation"
PLACEHOLDER = "adk_confirmation_placeholder"
LONG_RUNNING_INTERIM = "adk_long_running_interim"  # a long-running tool's answer before its last
# What ADK answers a call that waits for confirmation with, until the human decides.
PLACEHOLDER_TEXT = "This tool call requires confirmation"
_GENERATED = re.compile(r"adk-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
ROLES = {"model": "assistant", "user": "user"}


class Ids:
    """ADK's generated ids renumbered in order of first appearance, across one case."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        return _GENERATED.sub(self._one, text)

    def _one(self, match: re.Match[str]) -> str:
        return self.seen.setdefault(match.group(0), f"adk-{len(self.seen) + 1}")


def _is_placeholder(response: Any) -> bool:
    return isinstance(response, dict) and PLACEHOLDER_TEXT in str(response.get("error", ""))


def part_items(content: dict[str, Any], waiting: Iterable[str] = ()) -> list[Item]:
    """One genai ``Content`` as wire items: its text parts as one message, each call and
    response as its own item, in order; ``waiting``: the ids whose response here is ADK's
    placeholder (the event requested their confirmation)."""
    role = ROLES.get(str(content.get("role")), str(content.get("role")))
    held = set(waiting)
    items: list[Item] = []
    texts: list[str] = []
    for part in content.get("parts") or []:
        if part.get("text") is not None and not part.get("thought"):
            texts.append(str(part["text"]))
        call, response = part.get("function_call"), part.get("function_response")
        if call:
            item: Item = {
                "type": "function_call",
                "call_id": call.get("id"),
                "name": call.get("name"),
                "arguments": json.dumps(call.get("args") or {}, sort_keys=True),
            }
            if call.get("name") == CONFIRMATION:
                item["adk"] = "confirmation request"
            items.append(item)
        if response:
            answer = response.get("response")
            kind = PLACEHOLDER if response.get("id") in held else "function_call_output"
            item = {
                "type": kind,
                "call_id": response.get("id"),
                "output": json.dumps(answer, sort_keys=True),
            }
            if response.get("name") == CONFIRMATION:
                item["adk"] = "confirmation answer"
            elif kind != PLACEHOLDER and _is_placeholder(answer):
                item["adk"] = "confirmation placeholder"
            items.append(item)
    if texts:
        items.insert(0, {"type": "message", "role": role, "content": "".join(texts)})
    return items


def event_items(event: dict[str, Any]) -> list[Item]:
    """One event as the driver recorded it: a compaction as one ``compaction`` item (its
    summary's text), else its content's items."""
    summary = event.get("compaction")
    if summary is not None:
        text = "".join(str(p.get("text", "")) for p in summary.get("parts") or [])
        return [{"type": "compaction", "summary": text}]
    content = event.get("content")
    if not content or event.get("partial"):
        return []
    return part_items(content, event.get("requested_tool_confirmations", ()))


def events_items(events: Iterable[dict[str, Any]]) -> list[Item]:
    """Events as wire items, a long-running tool's interim answers told from its output."""
    events = list(events)
    waiting = {i for e in events for i in e.get("long_running_tool_ids", ())}
    return interim(waiting, [item for event in events for item in event_items(event)])


def interim(waiting: set[str], items: list[Item]) -> list[Item]:
    """A long-running tool answers at once (its function's return, ``{"status": "pending"}``)
    and again when the work is done, under the same id; ADK keeps both. Every response of a
    long-running call (``waiting``: the ids its call events list) before its last is typed
    ``LONG_RUNNING_INTERIM``: it pairs with nothing, and the last is the call's output."""
    last = {
        item["call_id"]: n
        for n, item in enumerate(items)
        if item["type"] == "function_call_output" and item.get("call_id") in waiting
    }
    return [
        {**item, "type": LONG_RUNNING_INTERIM}
        if item["type"] == "function_call_output"
        and item.get("call_id") in last
        and last[item["call_id"]] != n
        else item
        for n, item in enumerate(items)
    ]


def contents_items(contents: Iterable[dict[str, Any]]) -> list[Item]:
    return [item for content in contents for item in part_items(content)]


def _interruption(call: dict[str, Any]) -> Item:
    """The tool call a confirmation request waits on (its ``originalFunctionCall``)."""
    original = (call.get("args") or {}).get("originalFunctionCall") or {}
    return {
        "type": "function_call",
        "call_id": original.get("id"),
        "name": original.get("name"),
        "arguments": json.dumps(original.get("args") or {}, sort_keys=True),
        "adk_confirmation": call.get("id"),
    }


def _stage(data: dict[str, Any]) -> Stage:
    """A stage as the driver wrote it, its contents and events mapped to the wire's shapes
    (``state_items["events"]``: every event the session service returned, raw)."""
    return Stage.from_json(
        {
            "name": data["name"],
            "stored": events_items(data.get("stored", [])),
            "model_inputs": [contents_items(c) for c in data.get("model_inputs", [])],
            "compaction_inputs": [events_items(e) for e in data.get("compaction_inputs", [])],
            "dispatches": int(data.get("dispatches", 0)),
            "interruptions": [_interruption(c) for c in data.get("interruptions", [])],
            "state_items": {"events": events_items(data.get("state_items", {}).get("events", []))},
            "warnings": [str(w) for w in data.get("warnings", [])],
            "outcome": data.get("outcome", "ok"),
            "http_status": data.get("http_status"),
            "endpoint": str(data.get("endpoint", "")),
            "api_message": str(data.get("api_message", "")),
        }
    )


def renumbered(data: dict[str, Any]) -> dict[str, Any]:
    """A line the driver wrote with ADK's generated ids renumbered (one numbering per line)."""
    ids = Ids()
    text = ids(json.dumps(data))
    return dict(json.loads(text))


def _model(data: dict[str, Any]) -> Model:
    """The model a line ran with: ADK's ``OpenAIResponsesLlm`` over HTTP, or the scripted one."""
    return "responses" if data.get("model") == "responses" else "scripted"


def read_run(data: dict[str, Any]) -> CaseRun:
    """One case the driver ran, as the study's record (``sdk`` is ``adk``, ``mode`` the
    compaction kind, the model scripted: its requests are judged by the stand-in's rules)."""
    data = renumbered(data)
    return driver_run(data, _stage, sdk="adk", model=_model(data), mode=data["kind"])


def read_liveness(data: dict[str, Any], release: str | None = None) -> LivenessRun:
    """One liveness situation the driver ran (its own stages, then its later turns), as the
    run ``analysis.liveness`` judges; ``release`` names a patched package."""
    data = renumbered(data)
    return driver_liveness(
        data, _stage, mode=str(data["kind"]), model=_model(data), release=release
    )


def read_step(data: dict[str, Any], ids: Ids) -> StepAnswer:
    """One answer of the driver's step mode (``driver.py --steps``) as the search reads it: its
    turns' stages mapped to the wire's shapes, ADK's generated ids renumbered by ``ids``, one
    numbering for the whole conversation."""
    data = dict(json.loads(ids(json.dumps(data))))
    if data.get("not_applicable"):
        return StepAnswer(not_applicable=str(data["not_applicable"]))
    confirmations = [str(i) for group in data.get("confirmations", []) for i in group]
    waiting = [str(i) for i in data.get("long_running", [])]
    holds = {"pending"} if confirmations else set()
    holds |= {"waiting"} if waiting else set()
    return StepAnswer(
        stages=tuple(_stage(stage) for stage in data.get("stages", [])),
        outcome=str(data.get("outcome", "answered")),
        approvals=int(data.get("approvals", 0)),
        pending=(*confirmations, *waiting),
        holds=frozenset(holds),
    )
