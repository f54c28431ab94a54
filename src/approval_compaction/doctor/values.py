"""Values: a stored cell exactly as the database holds it, its type and its bytes.

The SDK writes each item as JSON text, but SQLite keeps whatever a row was given, in any
column: text, a blob, an integer, a real or NULL (and text whose bytes are not UTF-8, which
Python's ``sqlite3`` refuses to read as ``str``). The SDK reads such rows as ``json.loads`` takes
them (a blob of JSON is an item; an integer is skipped), so the doctor reads them too, and a
backup keeps each value's type and bytes, so that a restore puts back exactly what was there:

- a ``str`` is written in the backup as it is (the common case, and every older backup);
- anything else as a one-key object: ``{"blob": base64}``, ``{"text": base64}`` (text that is
  not UTF-8: ``RawText``), ``{"int": n}``, ``{"real": float.hex()}``; NULL is ``null``.
"""

from __future__ import annotations

import base64
from typing import Any


class RawText(bytes):
    """A text value whose bytes are not UTF-8: kept as its bytes, written back as text."""


Value = str | bytes | int | float | None


def read_text(data: bytes) -> str | RawText:
    """``sqlite3``'s ``text_factory``: UTF-8 text as ``str``, other bytes as ``RawText`` (the
    default factory raises, which stopped a whole scan at one such row)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return RawText(data)


def kind(value: Value) -> str:
    """The value's storage class, as SQLite names them (``rawtext`` for non-UTF-8 text)."""
    if value is None:
        return "null"
    if isinstance(value, RawText):
        return "rawtext"
    if isinstance(value, bytes):
        return "blob"
    if isinstance(value, bool | int):
        return "int"
    if isinstance(value, float):
        return "real"
    return "text"


def same(a: Value, b: Value) -> bool:
    """Whether two values are the same type and the same bytes (``1``, ``1.0`` and ``"1"`` are
    three different values)."""
    return kind(a) == kind(b) and a == b


def as_bytes(value: Value) -> bytes:
    """The value's bytes, for a fingerprint (with ``kind`` beside them)."""
    if isinstance(value, bytes):
        return bytes(value)
    if isinstance(value, float):
        return value.hex().encode()
    return b"" if value is None else str(value).encode("utf-8", "surrogatepass")


def to_json(value: Value) -> Any:
    """The value as the backup writes it (a ``str`` as itself)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bytes):
        key = "text" if isinstance(value, RawText) else "blob"
        return {key: base64.b64encode(value).decode("ascii")}
    if isinstance(value, float):
        return {"real": value.hex()}
    return {"int": int(value)}


def from_json(found: Any) -> Value:
    """A value the backup wrote (``to_json``); a ``ValueError`` for anything else."""
    if found is None or isinstance(found, str):
        return found
    if isinstance(found, dict) and len(found) == 1:
        ((key, inner),) = found.items()
        if key in ("blob", "text") and isinstance(inner, str):
            data = base64.b64decode(inner, validate=True)
            return RawText(data) if key == "text" else data
        if key == "int" and isinstance(inner, int) and not isinstance(inner, bool):
            return inner
        if key == "real" and isinstance(inner, str):
            return float.fromhex(inner)
    raise ValueError(f"not a stored value: {found!r}")
