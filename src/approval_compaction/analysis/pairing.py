"""Pairing: which calls lack their output, and which outputs lack their call, in an item list.

Every call/output pair the SDK knows is matched by ``call_id``; hosted MCP approval requests and
responses by the request's ``id`` and the response's ``approval_request_id``. Matching is by
occurrence: each output consumes one earlier unmatched call of its kind, so repeated ids are
counted. Tool search items without a ``call_id`` pair in order, as the SDK pairs them.

A *dead item* (``dead_items``, the one rule the workaround, the doctor and its SQL share) is a
call or MCP approval request that no later item answers and that a user message, or a compaction
item (the compaction endpoint's answer stands for the user's turn), follows. Why such an item can
never be answered and what it does to compaction: ``docs/liveness.md`` and ``docs/doctor.md``.

This is the judge's rule, over every pair the SDK writes. The stand-in's ``wire.rules``
``check_pairing`` is narrower on purpose: it enforces at ``/v1/responses`` only what public
reports show the API refusing (function calls and their outputs, first problem worded as the
API words it), and lists the rest as unknown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

CALL_TO_OUTPUT: dict[str, str] = {
    "function_call": "function_call_output",
    "custom_tool_call": "custom_tool_call_output",
    "shell_call": "shell_call_output",
    "apply_patch_call": "apply_patch_call_output",
    "computer_call": "computer_call_output",
    "local_shell_call": "local_shell_call_output",
    "tool_search_call": "tool_search_output",
    "program": "program_output",
    "mcp_approval_request": "mcp_approval_response",
}
OUTPUT_TO_CALL: dict[str, str] = {output: call for call, output in CALL_TO_OUTPUT.items()}

Problem = Literal["orphan output", "open call"]


@dataclass(frozen=True)
class Unpaired:
    """One item that breaks pairing: its position, its type, its key and what is wrong."""

    position: int
    item_type: str
    key: str | None
    problem: Problem


def _key(item: dict[str, Any]) -> str | None:
    kind = item.get("type")
    if kind == "mcp_approval_request":
        value = item.get("id")
    elif kind == "mcp_approval_response":
        value = item.get("approval_request_id")
    else:
        value = item.get("call_id")
    return value if isinstance(value, str) else None


def item_key(item: dict[str, Any]) -> str | None:
    """The id that pairs this item with its partner, or None for items that do not pair."""
    kind = item.get("type")
    return _key(item) if kind in CALL_TO_OUTPUT or kind in OUTPUT_TO_CALL else None


def find_unpaired(items: Sequence[dict[str, Any]]) -> list[Unpaired]:
    """Every call without a later output and every output without an earlier call, in order."""
    waiting: dict[tuple[str, str | None], list[int]] = {}
    found: list[Unpaired] = []
    for position, item in enumerate(items):
        kind = item.get("type")
        if not isinstance(kind, str):
            continue
        if kind in CALL_TO_OUTPUT:
            waiting.setdefault((kind, _key(item)), []).append(position)
        elif kind in OUTPUT_TO_CALL:
            open_positions = waiting.get((OUTPUT_TO_CALL[kind], _key(item)), [])
            if open_positions:
                open_positions.pop(0)
            else:
                found.append(Unpaired(position, kind, _key(item), "orphan output"))
    for (kind, key), positions in waiting.items():
        found.extend(Unpaired(p, kind, key, "open call") for p in positions)
    return sorted(found, key=lambda u: u.position)


def is_user_message(item: dict[str, Any]) -> bool:
    """A message from the user: ``role`` the string ``user``, ``type`` absent, null or
    ``message`` (a whole item, or only its ``role`` and ``type``)."""
    return item.get("role") == "user" and item.get("type", "message") in ("message", None)


COMPACTION = "compaction"  # the item the compaction endpoint answers with, after the user's


def is_later_turn(item: dict[str, Any]) -> bool:
    """A sign that the user took a turn after what precedes it: a message from the user
    (``is_user_message``), or a ``compaction`` item (see above: the endpoint keeps the user's
    messages before it, and a release compacts only what starts at one)."""
    return is_user_message(item) or item.get("type") == COMPACTION


def dead_items(items: Sequence[dict[str, Any]]) -> list[Unpaired]:
    """The dead calls and approval requests of ``items`` (see above), in order: each open call
    (``find_unpaired``) that comes before the last later turn (``is_later_turn``). The items
    may be whole, or only the fields pairing reads with ``role``."""
    users = [n for n, item in enumerate(items) if is_later_turn(item)]
    last = users[-1] if users else -1
    return [u for u in find_unpaired(items) if u.problem == "open call" and u.position < last]


def orphan_outputs(items: Sequence[dict[str, Any]]) -> list[str]:
    """Keys of outputs whose call is not earlier in the list (``?`` for an anonymous one)."""
    return [u.key or "?" for u in find_unpaired(items) if u.problem == "orphan output"]


def open_calls(items: Sequence[dict[str, Any]]) -> list[str]:
    """Keys of calls that no later output answers (``?`` for an anonymous one)."""
    return [u.key or "?" for u in find_unpaired(items) if u.problem == "open call"]
