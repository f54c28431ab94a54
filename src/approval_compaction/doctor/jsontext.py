"""JSON text: a container's children found without recursion, for values nested past a parser.

The doctor reads an export with ``msgspec`` (fast, but bounded by the interpreter's recursion
limit, as Python's ``json`` is). A tool's output may nest deeper than that (``JSON.stringify``
writes any depth V8 can build), yet judging an item reads only its top-level fields. ``children``
checks a whole text against JSON's grammar (RFC 8259) with an explicit stack, and gives the spans
of one container's children (an array's elements, an object's members with their keys), so each
child can be parsed on its own and a value too deep to parse kept as its text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import InvestigationError

_SPACE = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_LITERAL = re.compile(r"true|false|null")
# What a value's first character makes it, as Python names the type it parses to.
KINDS = {"{": "dict", "[": "list", '"': "str", "t": "bool", "f": "bool", "n": "NoneType"}


class JsonTextError(InvestigationError, ValueError):
    """Text that is not JSON: what was expected, and at which character (``export`` names the
    file it is in)."""

    def __init__(self, what: str, position: int) -> None:
        super().__init__(f"{what} at character {position}")
        self.position = position


@dataclass(frozen=True)
class Child:
    """One child of a container: its key's JSON text (an object member's; None for an array
    element) and where its value's text starts and ends."""

    key: str | None
    start: int
    end: int


def kind_at(text: str, position: int) -> str:
    """The type a value's text parses to, from its first character."""
    first = text[position] if position < len(text) else ""
    return KINDS.get(first, "float" if first in "-0123456789" else "?")


def _scalar(text: str, position: int) -> int:
    """The end of the string, number or literal at ``position``."""
    for pattern in (_STRING, _NUMBER, _LITERAL):
        found = pattern.match(text, position)
        if found and found.end() > position:
            return found.end()
    raise JsonTextError("a value expected", position)


def children(text: str, start: int = 0, end: int | None = None) -> tuple[str, list[Child]]:
    """The container whose text is ``text[start:end]`` (spaces around it allowed): its kind
    (``list`` or ``dict``; any other value is returned with no children) and its children,
    the whole text checked against JSON's grammar, at any depth, without recursion."""
    kind, found, _ = _walk(text, start, len(text) if end is None else end, whole=True)
    return kind, found


def value_end(text: str, start: int) -> int:
    """Where the JSON value that starts at ``start`` ends (what follows it is not read), its
    text checked against JSON's grammar, at any depth, without recursion."""
    return _walk(text, start, len(text), whole=False)[2]


def _walk(text: str, start: int, stop: int, whole: bool) -> tuple[str, list[Child], int]:
    """The value at ``start``: its kind, its children and its end; with ``whole``, nothing but
    spaces may follow it before ``stop``."""
    position = _SPACE.match(text, start, stop).end()  # type: ignore[union-attr]
    top = kind_at(text, position)
    found: list[Child] = []
    stack: list[str] = []  # the open containers: "[" or "{"
    expect = "value"  # value, value or ], key or }, key, colon, comma or close, end
    key: str | None = None
    began = -1  # where the current child's value began
    while True:
        if expect == "end" and not whole:
            return top, found, position
        position = _SPACE.match(text, position, stop).end()  # type: ignore[union-attr]
        if position >= stop:
            if expect == "end":
                return top, found, position
            raise JsonTextError("the text ends early", position)
        char = text[position]
        if expect == "end":
            raise JsonTextError("extra data", position)
        closing = "]" if stack and stack[-1] == "[" else "}"
        if expect in ("value or ]", "key or }", "comma or close") and char == closing:
            position += 1
            stack.pop()
        elif expect in ("value", "value or ]"):
            if len(stack) == 1:
                began = position
            if char in "[{":
                stack.append(char)
                position += 1
                expect = "value or ]" if char == "[" else "key or }"
                continue
            position = _scalar(text, position)
        elif expect in ("key", "key or }"):
            if char != '"':
                raise JsonTextError("a key expected", position)
            after = _scalar(text, position)
            if len(stack) == 1:
                key = text[position:after]
            position, expect = after, "colon"
            continue
        elif expect == "colon":
            if char != ":":
                raise JsonTextError("':' expected", position)
            position, expect = position + 1, "value"
            continue
        elif char == ",":  # expect == "comma or close"
            position += 1
            expect = "value" if stack[-1] == "[" else "key"
            continue
        else:
            raise JsonTextError(f"',' or '{closing}' expected", position)
        # A value (a scalar, or a container just closed) is complete.
        if len(stack) == 1:
            found.append(Child(key if stack[0] == "{" else None, began, position))
            key = None
        expect = "comma or close" if stack else "end"
