"""Items: the plain-JSON form of the SDK's input and output items.

The SDK mixes pydantic models and TypedDict dicts in the lists it stores and sends. Every
record in this package keeps items in one form only: JSON-compatible dicts, so that two
lists compare with ``==`` and serialise without custom encoders.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

Item = dict[str, Any]


def to_item(value: Any) -> Item:
    """Return one SDK item (a pydantic model or a mapping) as a JSON-compatible dict."""
    if isinstance(value, Mapping):
        raw: Any = dict(value)
    elif hasattr(value, "model_dump"):
        raw = value.model_dump(exclude_unset=True, mode="json")
    else:
        raise TypeError(f"not an SDK item: {type(value).__name__}")
    plain = json.loads(json.dumps(raw, default=_json_fallback))
    if not isinstance(plain, dict):
        raise TypeError(f"not an SDK item: {type(value).__name__}")
    return plain


def to_items(values: str | Iterable[Any] | None) -> list[Item]:
    """Return an SDK input (a string, a list of items, or nothing) as a list of plain items."""
    if values is None:
        return []
    if isinstance(values, str):
        return [{"role": "user", "content": values}]
    return [to_item(value) for value in values]


def unwrap(entry: Item) -> tuple[str, Item]:
    """A serialised run item (``{"type": ..., "raw_item": ...}``, as a paused run's saved state
    keeps it) as (run item type, API item); plain input items pass through."""
    raw = entry.get("raw_item")
    if isinstance(raw, dict):
        return str(entry.get("type", "")), raw
    return "", entry


def _json_fallback(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(exclude_unset=True, mode="json")
    return repr(type(value).__name__)
