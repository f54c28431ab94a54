"""Pairing: which calls lack their output, and which outputs lack their call, in an item list.

The Responses API rejects an input that holds a tool output whose call is absent, and one
that holds a call whose output never follows. Every call/output pair the SDK knows is matched
by ``call_id``; hosted MCP approval requests and responses by the request's ``id`` and the
response's ``approval_request_id``. Matching is by occurrence: each output consumes one earlier
unmatched call of its kind, so repeated call ids are counted, not collapsed. Tool search items
without a ``call_id`` pair in order, as the SDK pairs them.

**A dead item** (``dead_items``, the one rule the workaround and the doctor share) is a call or
a hosted MCP approval request that no later item answers and that a message from the user
follows (or a compaction item, which stands for one: below). Nothing will answer it: its answer
could only come from the run that paused on it (an approval decided and resumed, a tool whose
worker stores its output), and the user's message says that run was left (an approval nobody
decided because the user asked something else) or died (a worker gone between the call and its
output); the next run starts from the stored history, not from the paused state. The SDK drops
such a tool call from every later model input (``drop_orphan_function_calls``), so the model has
not seen it since. An MCP request is answered only by the ``mcp_approval_response`` the SDK
writes when the application decides the paused run's interruption and resumes it: measured with
the study's driver on 0.23.1 and 0.24.0 (an ``mcp_approval`` ask left undecided, then plain
turns), no response is ever stored, and the SDK keeps sending the request in every later model
input. Why a dead item matters is compaction (``analysis.liveness``): on 0.23.1 and 0.24.0 an
automatic compaction in ``input`` or ``auto`` mode replaces only a suffix that starts at a user
message after a dead call, so the call and everything before it stay stored for ever (in
``previous_response_id`` mode neither compacts a partial suffix at all). A dead MCP request
stops 0.24.0's compaction for good, in every mode: ``_run_compaction_locked`` returns while the
ids of the requests it would compact differ from the ids their responses answer; 0.23.1 compacts
it away at the next turn in every mode, sending it unanswered to the compaction endpoint in
``input`` mode. A call or request that no user message (and no compaction item, below) follows
may still be a pending approval, and is not dead. The one way a dead item is answered after all
is an application that resumes the abandoned state after the user moved on: once the dead call
is retired or rewritten, that output has no call. The workaround stores it as text
(``healing``); anywhere else it is what the doctor calls poisoned, and heals.

**A compaction item counts as a user message.** ``/v1/responses/compact`` answers with "a list
of all user messages, followed by a single compaction item" (the ``openai`` client's
``CompactedResponse.output``, generated from the API's OpenAPI spec; openai/openai-agents-js#760
shows such an answer: the user's messages typed ``message``, the rest in one encrypted item). On
0.23.1 and 0.24.0 an automatic compaction replaces either the whole stored history (an open call
in it is then summarised away, not left before the summary) or a suffix that starts at a user
message (``_run_compaction_locked``); a manual ``run_compaction()`` replaces the whole history.
(Server-side compaction inside a model response emits its item, then prunes the context "before
continuing inference": developers.openai.com/api/docs/guides/compaction; so that item comes
before what the response goes on to call.) So a compaction item stored after an open call means
the user spoke after that call: with the endpoint's answer the user message is stored before the
summary anyway, and with an answer that holds the summary alone (the SDK's own test fakes answer
so) the summary is the only trace of that turn. Either way the call is dead, and the doctor, its
SQL query and the workaround judge it so.
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
