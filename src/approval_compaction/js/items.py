"""Items: the JS SDK's item protocol mapped to the wire's shapes, in this one place (both ways).

``@openai/agents`` stores and hands its model items in its own protocol: camelCase keys
(``callId``), a tool's answer typed ``function_call_result`` with ``output: {type: "text",
text}``, a ``name`` on the result, and ``providerData`` beside the fields. Before it sends them,
the SDK's own converter (``getInputItems`` in ``@openai/agents-openai``'s
``openaiResponsesConverter``) turns each into the Responses API's input item. ``wire_item`` does
the same for what the invariants read (types, call ids, messages), so a JS run's stored history
and model inputs are judged exactly as a Python run's are. What went over HTTP (compaction
inputs, request bodies) is already the wire's and is kept as sent.

The other way, ``js_message`` writes an assistant message the doctor heals with (a string
``content``, as the Responses API takes it) as the JS SDK stores one (``status``, an
``output_text`` part), so a healed list a team loads back is the SDK's own shape; ``is_js_item``
tells an item of the JS SDK's protocol from the wire's (what an export holds).

``read_run`` turns one line the harness wrote into the study's ``CaseRun`` (with its later
turns), ``hook_counts`` the candidate counts its compaction decisions saw; ``read_liveness``
one liveness situation's line into the ``LivenessRun`` that ``analysis.liveness`` judges.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from ..analysis.liveness import LivenessRun, liveness_run
from ..study.capture import CaseRun, Stage, driver_run
from ..study.items import Item
from ..study.moves import StepAnswer

# The JS names of tool results whose wire type differs (``function_call_result`` ->
# ``function_call_output``); other types keep their name.
RESULT_TYPES: dict[str, str] = {
    "function_call_result": "function_call_output",
    "computer_call_result": "computer_call_output",
}
# A plan's name for the agent's ``store`` setting, after its mode (``auto-store-false``).
STORE_SUFFIX: dict[bool | None, str] = {None: "", False: "-store-false", True: "-store-true"}
_UPPER = re.compile(r"(?<!^)(?=[A-Z])")


@functools.lru_cache(maxsize=1024)  # a session repeats a few keys; an export holds millions
def snake(key: str) -> str:
    """``callId`` -> ``call_id``: the JS field's name on the wire."""
    return _UPPER.sub("_", key).lower()


# The hosted items the converter also recognises by the item's ``name`` when ``providerData``
# names no type: the runner stores its own MCP approval response so (``hosted_tool_call`` named
# ``mcp_approval_response``, ``providerData`` holding ``approve`` and ``approval_request_id``:
# ``handleHostedMcpApprovals`` in agents-core's ``runner/mcpApprovals``). Each maps to the
# fields the converter sets over the snake-cased ``providerData`` that name or pair the item,
# and where it reads each from (``getInputItems`` in agents-openai's
# ``openaiResponsesConverter``, 0.20.0); a field it reads as undefined is not sent.
_HOSTED_BY_NAME: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "mcp_list_tools": (("id", ("item:id",)), ("server_label", ("server_label",))),
    "mcp_approval_request": (
        ("id", ("id", "item:id")),
        ("name", ("name",)),
        ("arguments", ("arguments",)),
        ("server_label", ("server_label",)),
    ),
    "mcp_approval_response": (
        ("id", ("id",)),
        ("approve", ("approve",)),
        ("approval_request_id", ("approval_request_id",)),
        ("reason", ("reason",)),
    ),
    "mcp_call": (
        ("id", ("id", "item:id")),
        ("name", ("name",)),
        ("arguments", ("arguments",)),
        ("server_label", ("server_label",)),
    ),
}


def _hosted(item: Item, data: dict[str, Any]) -> Item | None:
    """A ``hosted_tool_call`` as the converter sends it: the hosted item ``providerData``'s
    ``type`` names, else the one the item's ``name`` names (``_HOSTED_BY_NAME``); None for
    one it names neither way (the converter refuses it; here it stays as it is)."""
    kind = data.get("type")
    if not isinstance(kind, str) or not kind:
        name = item.get("name")
        kind = name if isinstance(name, str) and name in _HOSTED_BY_NAME else None
    if kind is None:
        return None
    out = {snake(k): v for k, v in data.items()}
    out["type"] = kind
    for field, sources in _HOSTED_BY_NAME.get(kind, ()):
        found = [_read(item, data, source) for source in sources]
        value = next((v for v in found if v is not None), None)
        if value is None:  # JSON.stringify leaves out a field the converter set to undefined
            out.pop(field, None)
        else:
            out[field] = value
    return out


def _read(item: Item, data: dict[str, Any], source: str) -> Any:
    return item.get(source[5:]) if source.startswith("item:") else data.get(source)


def wire_item(item: Item) -> Item:
    """One JS SDK item as the Responses API receives it: a ``hosted_tool_call`` as the hosted
    item its ``providerData`` (or, for MCP items, its ``name``) names, results as outputs (text
    output as its string, no ``name``), keys in snake case, ``providerData`` dropped (its
    ``annotations`` kept on a text part, as the converter does)."""
    kind = item.get("type")
    data = item.get("providerData")
    if kind == "hosted_tool_call":
        hosted = _hosted(item, data if isinstance(data, dict) else {})
        if hosted is not None:
            return hosted
    out = {snake(k): v for k, v in item.items() if k != "providerData"}
    if kind in RESULT_TYPES:
        out["type"] = RESULT_TYPES[kind]
        out.pop("name", None)
        output = out.get("output")
        if isinstance(output, dict) and output.get("type") == "text":
            out["output"] = output.get("text", "")
    if isinstance(out.get("content"), list):
        out["content"] = [_part(part) for part in out["content"]]
    return out


def _part(part: Any) -> Any:
    if not isinstance(part, dict):
        return part
    data = part.get("providerData")
    kept = {k: v for k, v in part.items() if k != "providerData"}
    if isinstance(data, dict) and "annotations" in data:
        kept["annotations"] = data["annotations"]
    return kept


def wire_items(items: list[Item]) -> list[Item]:
    return [wire_item(item) for item in items]


# What only the JS SDK's items carry: camelCase pairing keys, ``providerData``, its own types.
_JS_KEYS = frozenset({"callId", "providerData", "approvalRequestId"})
_JS_TYPES = frozenset({*RESULT_TYPES, "hosted_tool_call"})


def is_js_item(item: Item) -> bool:
    """Whether ``item`` is in the JS SDK's protocol rather than the wire's (a message whose
    fields both share is neither: False)."""
    return item.get("type") in _JS_TYPES or not _JS_KEYS.isdisjoint(item)


def js_message(message: Item) -> Item:
    """An assistant message in the wire's easy form (``content`` a string) as the JS SDK
    stores an assistant message: ``type``, ``status`` and one ``output_text`` part."""
    text = message["content"]
    parts = [{"type": "output_text", "text": text}] if isinstance(text, str) else text
    return {"type": "message", "role": "assistant", "status": "completed", "content": parts}


def _stage(data: dict[str, Any]) -> Stage:
    """A stage as the harness wrote it, its SDK items mapped to the wire's shapes."""
    mapped = {k: v for k, v in data.items() if k != "hook"}  # hook: see ``hook_counts``
    mapped["stored"] = wire_items(data.get("stored", []))
    mapped["model_inputs"] = [wire_items(items) for items in data.get("model_inputs", [])]
    mapped["interruptions"] = wire_items(data.get("interruptions", []))
    state = data.get("state_items", {})
    mapped["state_items"] = {
        key: [_state_entry(entry) for entry in entries] for key, entries in state.items()
    }
    return Stage.from_json(mapped)


def _state_entry(entry: Item) -> Item:
    raw = entry.get("raw_item")
    if isinstance(raw, dict):
        return {**entry, "raw_item": wire_item(raw)}
    return wire_item(entry)


def hook_counts(data: dict[str, Any], stage: str) -> list[int]:
    """The candidate count of each compaction decision the session asked for during the first
    ``stage`` of a line the harness wrote (none when the release hides its decision)."""
    found: dict[str, Any] = next((s for s in data.get("stages", []) if s.get("name") == stage), {})
    return [int(n) for n in found.get("hook", [])]


def read_run(data: dict[str, Any]) -> CaseRun:
    """One case the harness ran, as the study's record (``sdk`` is ``js``), with the later
    turns it was continued for."""
    return driver_run(data, _stage, sdk="js", model="responses", mode=data["mode"])


def read_liveness(
    data: dict[str, Any], release: str | None = None, threshold: int | None = None
) -> LivenessRun:
    """One liveness situation the harness ran, as the Python runs' record: its own stages (the
    pause; a late resume's kept turns and resume) and its later turns, each with what the user
    met (a refusal is on the stage itself). ``mode`` is the plan's (``auto-store-false`` for
    ``auto`` with the agent's ``store: false``); ``release`` names the package when it is not
    the installed release as it is (a patched one); ``threshold`` is the plan's trigger's."""
    stages = [_stage(stage) for stage in data.get("stages", [])]
    own = int(data.get("own", 0))
    met = [str(m) for m in data.get("met", [])]
    later = list(zip(stages[own:], met, strict=False))
    wanted = int(data.get("later", len(later)))
    error = data.get("error") or ""
    if not error and len(later) < wanted:
        error = f"only {len(later)} of {wanted} later turns ran"
    store = data.get("response_store")
    mode = str(data["mode"]) + STORE_SUFFIX[store]
    return liveness_run(
        scenario=str(data["scenario"]),
        sdk_version=release or str(data["sdk_version"]),
        mode=mode,
        workaround=bool(data.get("workaround")),
        later=[(stage, "paused" if m == "paused" else "answered") for stage, m in later],
        error=error,
        model="responses",
        own=stages[:own],
        resumed=bool(data.get("resumed")),
        threshold=threshold,
    )


def read_step(data: dict[str, Any]) -> StepAnswer:
    """One answer of the harness's step mode (``driver.mjs --steps``) as the search reads it:
    its turns' stages mapped to the wire's shapes."""
    if data.get("not_applicable"):
        return StepAnswer(not_applicable=str(data["not_applicable"]))
    pending = tuple(str(key) for key in data.get("pending", []))
    holds = {"pending"} if pending else set()
    holds |= {"kept"} if data.get("kept") else set()
    return StepAnswer(
        stages=tuple(_stage(stage) for stage in data.get("stages", [])),
        outcome=str(data.get("outcome", "answered")),
        approvals=int(data.get("approvals", 0)),
        pending=pending,
        holds=frozenset(holds),
    )


# What the doctor reads of an export in this protocol (``doctor.export``, by name: ``sdks``).
is_item = is_js_item
sdk_message = js_message
