"""Healing: the text an unpaired item becomes, for the doctor and for the workaround."""

from __future__ import annotations

from approval_compaction.analysis.healing import (
    PREFIX,
    healed_message,
    item_name,
    retired_message,
)
from approval_compaction.analysis.pairing import find_unpaired

OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "42"}
RESPONSE = {"type": "mcp_approval_response", "approval_request_id": "r1", "approve": True}
CALL = {"type": "function_call", "call_id": "c1", "name": "add", "arguments": '{"a": 1}'}
REQUEST = {
    "type": "mcp_approval_request",
    "id": "r1",
    "server_label": "docs",
    "name": "search",
    "arguments": "{}",
}


def test_item_name_is_the_id_that_pairs_the_item() -> None:
    assert [item_name(i) for i in (OUTPUT, RESPONSE, CALL, REQUEST)] == ["c1", "r1", "c1", "r1"]
    assert item_name({"type": "tool_search_output"}) == "?"


def test_healed_message_says_what_the_tool_returned_with_the_writers_prefix() -> None:
    assert healed_message(OUTPUT) == {
        "role": "assistant",
        "content": "[doctor] The tool call c1 returned: 42",
    }
    late = healed_message(RESPONSE, "[workaround] ")
    assert late["content"] == (
        '[workaround] The tool call r1 returned: {"approval_request_id": "r1", "approve": true}'
    )


def test_retired_message_names_the_call_or_request_never_answered() -> None:
    assert retired_message(CALL)["content"] == (
        PREFIX + 'The tool call c1 (add {"a": 1}) was never answered.'
    )
    assert retired_message(REQUEST)["content"] == (
        PREFIX + "The MCP approval request r1 (docs search {}) was never answered."
    )


def test_a_healed_history_holds_nothing_unpaired() -> None:
    user = {"role": "user", "content": "q"}
    healed = [user, retired_message(CALL), user, healed_message(OUTPUT)]
    assert find_unpaired([user, CALL, user, OUTPUT][2:]) != []
    assert find_unpaired(healed) == []
