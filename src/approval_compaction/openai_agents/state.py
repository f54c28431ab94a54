"""State: the ``RunState`` JSON boundary, with one-line errors for state that cannot resume.

``to_text`` and ``restore`` wrap ``RunState.to_json()`` / ``RunState.from_json()``. ``state_items``
pulls out the item lists a serialised state carries, so the round trip can be inspected.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..errors import StateRestoreError
from ..study.items import Item, to_item, to_items

if TYPE_CHECKING:
    from agents import Agent

ITEM_LIST_KEYS: tuple[str, ...] = ("original_input", "generated_items", "session_items")


def to_text(state: Any) -> str:
    """Serialise a paused run's state as JSON text, as an application would store it."""
    return json.dumps(state.to_json(), sort_keys=True)


async def restore(agent: Agent[Any], text: str) -> Any:
    """Restore a RunState from JSON text, or raise StateRestoreError in one line."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise StateRestoreError(
            f"RunState JSON is corrupted or truncated: {error.msg} at character {error.pos}"
        ) from None
    if not isinstance(data, dict):
        raise StateRestoreError(f"RunState JSON must be an object, not {type(data).__name__}")
    from agents import RunState  # the SDK is needed to restore, not to read a state's items

    try:
        restored = await RunState.from_json(agent, data)
    except Exception as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise StateRestoreError(
            f"RunState JSON cannot resume agent {agent.name!r}: {reason}"
        ) from None
    _check_pending_tools(agent, restored)
    return restored


def _check_pending_tools(agent: Agent[Any], restored: Any) -> None:
    """An agent of the same name is not enough: each pending call's tool must be on it."""
    tools = {getattr(tool, "name", None) for tool in agent.tools}
    for interruption in restored.get_interruptions():
        raw = to_item(interruption.raw_item)
        if raw.get("type") != "function_call":  # hosted tools are not the agent's own tools
            continue
        name = raw.get("name")
        if name is not None and name not in tools:
            raise StateRestoreError(
                f"RunState JSON was made for another agent: pending tool {name!r} "
                f"is not a tool of agent {agent.name!r}"
            )


def state_items(text: str) -> dict[str, list[Item]]:
    """The item lists inside a serialised RunState, keyed by where they sit in the JSON.

    Run-item lists keep their entries as serialised (``{"type": ..., "raw_item": ...}``);
    ``study.items.unwrap`` turns an entry into the API item it carries.
    """
    data = json.loads(text)
    found: dict[str, list[Item]] = {}
    for key in ITEM_LIST_KEYS:
        value = data.get(key)
        if isinstance(value, list):
            found[key] = [e if isinstance(e, dict) else {"value": e} for e in value]
        elif isinstance(value, str):
            found[key] = to_items(value)
    responses = data.get("model_responses")
    if isinstance(responses, list):
        found["model_responses"] = [
            item for response in responses for item in to_items(response.get("output", []))
        ]
    return found
