"""Healing: the text an unpaired item becomes, the one rewrite the doctor and the workaround share.

An output whose call is gone (``pairing.find_unpaired``: an orphan output) becomes an assistant
message that says what the tool returned (``healed_message``); a dead call or hosted MCP approval
request (``pairing.dead_items``) one that says it was never answered (``retired_message``);
``rewrites`` lists both for one list of items, what ``doctor repair`` and ``doctor items`` write. An
assistant message whose ``content`` is a string is an input item of the Responses API
(``EasyInputMessage`` in its reference,
https://platform.openai.com/docs/api-reference/responses/create) that pairs with nothing, so the
rewritten history holds no unpaired item. ``doctor repair`` writes them with the ``[doctor]``
prefix; the workaround stores a late output, whose call it retired, with its own. Why text, and not
a dropped item or an invented call: ``doctor.repair``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .pairing import dead_items, find_unpaired

Item = dict[str, Any]
PREFIX = "[doctor] "
MCP_REQUEST = "mcp_approval_request"


def item_name(item: Item) -> str:
    """The id that names an item in a change: a hosted MCP request's ``id``, else its
    ``call_id`` or ``approval_request_id``."""
    fields = ("id",) if item.get("type") == MCP_REQUEST else ("call_id", "approval_request_id")
    return str(next((item[f] for f in fields if item.get(f)), "?"))


def healed_message(output: Item, prefix: str = PREFIX) -> Item:
    """The assistant message that replaces an output whose call is gone (``prefix`` names who
    wrote it: the doctor, or the workaround when it stores a late output)."""
    value = output.get("output")
    if value is None:  # an approval response, or an output kind without ``output``
        value = {k: v for k, v in output.items() if k not in ("type", "id", "call_id")}
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return {
        "role": "assistant",
        "content": f"{prefix}The tool call {item_name(output)} returned: {text}",
    }


def retired_message(call: Item) -> Item:
    """The assistant message that replaces a dead call or hosted MCP approval request (one a
    user message follows, which nothing answers: ``analysis.pairing.dead_items``)."""
    name, arguments = call.get("name") or call.get("type"), call.get("arguments")
    shown = arguments if isinstance(arguments, str) else json.dumps(arguments, sort_keys=True)
    said = f"{name} {shown}" if arguments is not None else str(name)
    if call.get("type") == MCP_REQUEST:
        server = call.get("server_label")
        what = "MCP approval request"
        said = f"{server} {said}" if isinstance(server, str) else said
    else:
        what = "tool call"
    return {
        "role": "assistant",
        "content": f"{PREFIX}The {what} {item_name(call)} ({said}) was never answered.",
    }


def rewrites(items: Sequence[Item]) -> list[tuple[int, Item]]:
    """What heals one list of items, in order: each orphan output's position with its
    ``healed_message``, and each dead call's (or approval request's) with its
    ``retired_message``. Nothing is added, removed or moved."""
    dead = {u.position for u in dead_items(items)}
    found = []
    for u in find_unpaired(items):
        item = items[u.position]
        if u.problem == "orphan output":
            found.append((u.position, healed_message(item)))
        elif u.position in dead:
            found.append((u.position, retired_message(item)))
    return found
