"""JSON text: a container's children found without recursion, the grammar checked at any depth."""

from __future__ import annotations

import json

import pytest

from approval_compaction.doctor.jsontext import JsonTextError, children, value_end


def test_children_gives_each_elements_and_members_text_and_key() -> None:
    text = ' [1, "a", {"x": [1, 2]}, null] '
    kind, found = children(text)
    assert kind == "list"
    assert [text[c.start : c.end] for c in found] == ["1", '"a"', '{"x": [1, 2]}', "null"]
    kind, found = children('{"a": 1, "b\\u0062": {"c": [true]}}')
    assert kind == "dict" and [json.loads(c.key or "") for c in found] == ["a", "bb"]


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_a_value_nested_past_the_recursion_limit_is_walked(depth: int) -> None:
    """Python's ``json`` and ``msgspec`` stop near the interpreter's recursion limit."""
    deep = "[" * depth + "]" * depth
    text = '[{"output": ' + deep + '}, {"type": "message"}]'
    with pytest.raises(RecursionError):
        json.loads(text)
    kind, (first, second) = children(text)
    assert kind == "list" and text[second.start : second.end] == '{"type": "message"}'
    assert value_end(text, 1) == first.end


@pytest.mark.parametrize(
    ("text", "said"),
    [("[1,]", "a value expected at character 3"),
     ('{"a": 1,}', "a key expected at character 8"),
     ("[1 2]", "',' or ']' expected at character 3"),
     ("[" * 3000, "the text ends early at character 3000"),
     ("[] []", "extra data at character 3"),
     ('["\x01"]', "a value expected at character 1"),
     ('{"a" 1}', "':' expected at character 5")],
    ids=["trailing-comma", "trailing-comma-object", "no-comma", "unclosed", "extra",
         "control-character", "no-colon"],
)  # fmt: skip
def test_text_that_is_not_json_names_what_was_expected_and_where(text: str, said: str) -> None:
    with pytest.raises(JsonTextError, match=f"^{said}$"):
        children(text)


def test_value_end_stops_at_the_value_and_reads_nothing_after_it() -> None:
    assert value_end('{"a": [[]]} , garbage', 0) == len('{"a": [[]]}')
    assert value_end('"a\\"b", 2', 0) == len('"a\\"b"')
