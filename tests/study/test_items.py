"""Items in one form: plain JSON dicts, whether the SDK handed a pydantic model or a mapping."""

from __future__ import annotations

import json
from types import MappingProxyType
from typing import Any

import pytest
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputItem
from pydantic import TypeAdapter

from approval_compaction.openai_agents.model import assistant_message, function_call
from approval_compaction.study.items import to_item, to_items


def sdk(item: dict[str, Any]) -> Any:
    """The SDK's own object for a plain output item (what a model hands the runner)."""
    return TypeAdapter(ResponseOutputItem).validate_python(item)


CALL = {"type": "function_call", "call_id": "c1", "name": "t", "arguments": "{}"}


def test_items_mapping_becomes_an_equal_plain_dict() -> None:
    for value in (CALL, MappingProxyType(CALL)):
        item = to_item(value)
        assert item == CALL and type(item) is dict


def test_items_mapping_is_copied_deeply() -> None:
    source: dict[str, Any] = {"type": "message", "content": [{"text": "a"}]}
    item = to_item(source)
    item["content"][0]["text"] = "changed"
    assert source["content"][0]["text"] == "a"


def test_items_pydantic_model_keeps_only_the_fields_that_were_set() -> None:
    model = ResponseFunctionToolCall(type="function_call", call_id="c9", name="t", arguments="{}")
    assert to_item(model) == {
        "type": "function_call",
        "call_id": "c9",
        "name": "t",
        "arguments": "{}",
    }


def test_items_model_and_its_dict_form_compare_equal() -> None:
    """Two lists compare with ``==`` whichever form the SDK used for the same item."""
    model = sdk(function_call("protected_lookup", {"value": "v"}, call_id="pending-c1"))
    as_dict = json.loads(model.model_dump_json(exclude_unset=True))
    assert to_item(model) == to_item(as_dict)


def test_items_nested_values_become_json() -> None:
    message = sdk(assistant_message("hi", item_id="m1"))
    item = to_item({"type": "wrapper", "inner": message, "pair": ("a", 1)})
    assert item["inner"] == to_item(message)
    assert item["pair"] == ["a", 1]
    assert json.loads(json.dumps(item)) == item


def test_items_value_json_cannot_carry_is_named_by_its_type() -> None:
    """A stray object (a lock, a client) is recorded by its type name, not by a memory address."""
    item = to_item({"type": "odd", "value": object()})
    assert item == {"type": "odd", "value": "'object'"}


@pytest.mark.parametrize("value", [3, "text", ["a"], None], ids=["int", "str", "list", "none"])
def test_items_value_that_is_not_an_item_is_a_type_error(value: object) -> None:
    with pytest.raises(TypeError, match=f"not an SDK item: {type(value).__name__}"):
        to_item(value)


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (None, []),
        ("first question", [{"role": "user", "content": "first question"}]),
        ("", [{"role": "user", "content": ""}]),
        ([], []),
        ((CALL,), [CALL]),
    ],
    ids=["none", "string", "empty-string", "empty-list", "tuple"],
)
def test_items_input_as_list_of_items(values: Any, expected: list[dict[str, Any]]) -> None:
    assert to_items(values) == expected


def test_items_list_mixing_models_and_dicts_keeps_order() -> None:
    model = sdk(function_call("t", {}, call_id="c2"))
    items = to_items([CALL, model, {"role": "user", "content": "q"}])
    assert [i.get("call_id") for i in items] == ["c1", "c2", None]
    assert all(type(i) is dict for i in items)


def test_items_generator_is_consumed() -> None:
    assert to_items(dict(CALL, call_id=f"c{n}") for n in range(3))[2]["call_id"] == "c2"
