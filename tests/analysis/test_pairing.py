"""Pairing analysis over item lists: every pair type, repeats, order, and non-call items."""

from __future__ import annotations

from typing import Any

import pytest

from approval_compaction.analysis.pairing import (
    CALL_TO_OUTPUT,
    dead_items,
    find_unpaired,
    open_calls,
    orphan_outputs,
)


def _call(kind: str, key: str) -> dict[str, Any]:
    field = "id" if kind == "mcp_approval_request" else "call_id"
    return {"type": kind, field: key}


def _output(kind: str, key: str) -> dict[str, Any]:
    output = CALL_TO_OUTPUT[kind]
    field = "approval_request_id" if output == "mcp_approval_response" else "call_id"
    return {"type": output, field: key}


PAIR_KINDS = sorted(CALL_TO_OUTPUT)


def test_pairing_empty_list_has_no_faults() -> None:
    assert find_unpaired([]) == []


@pytest.mark.parametrize("kind", PAIR_KINDS, ids=PAIR_KINDS)
def test_pairing_call_then_output_is_paired(kind: str) -> None:
    assert find_unpaired([_call(kind, "k1"), _output(kind, "k1")]) == []


@pytest.mark.parametrize("kind", PAIR_KINDS, ids=PAIR_KINDS)
def test_pairing_output_alone_is_orphan(kind: str) -> None:
    items = [{"role": "user", "content": "hi"}, _output(kind, "k1")]
    assert orphan_outputs(items) == ["k1"]
    assert open_calls(items) == []


@pytest.mark.parametrize("kind", PAIR_KINDS, ids=PAIR_KINDS)
def test_pairing_call_alone_is_open(kind: str) -> None:
    items = [_call(kind, "k1"), {"type": "message", "role": "assistant", "content": []}]
    assert open_calls(items) == ["k1"]
    assert orphan_outputs(items) == []


def test_pairing_output_before_its_call_is_both_orphan_and_open() -> None:
    items = [_output("function_call", "c1"), _call("function_call", "c1")]
    faults = [(u.position, u.problem) for u in find_unpaired(items)]
    assert faults == [(0, "orphan output"), (1, "open call")]


def test_pairing_repeated_call_id_counts_each_occurrence() -> None:
    items = [
        _call("function_call", "c1"),
        _call("function_call", "c1"),
        _output("function_call", "c1"),
    ]
    assert open_calls(items) == ["c1"]
    assert [u.position for u in find_unpaired(items)] == [1]


def test_pairing_repeated_output_is_orphan_once_the_call_is_used() -> None:
    items = [_call("function_call", "c1"), _output("function_call", "c1")]
    items.append(_output("function_call", "c1"))
    assert orphan_outputs(items) == ["c1"]


def test_pairing_does_not_cross_kinds() -> None:
    items = [_call("shell_call", "c1"), _output("function_call", "c1")]
    assert orphan_outputs(items) == ["c1"] and open_calls(items) == ["c1"]


def test_pairing_ignores_items_that_are_not_calls() -> None:
    items = [
        {"role": "user", "content": "q"},
        {"type": "message", "role": "assistant", "content": []},
        {"type": "reasoning", "id": "r1", "summary": []},
        {"type": "compaction", "id": "x", "encrypted_content": "e"},
        {"type": "web_search_call", "id": "w1"},
        {"no_type": True},
    ]
    assert find_unpaired(items) == []


def test_pairing_mcp_response_pairs_by_approval_request_id_not_call_id() -> None:
    request = {"type": "mcp_approval_request", "id": "a1", "call_id": "zzz"}
    response = {"type": "mcp_approval_response", "approval_request_id": "a1", "call_id": "other"}
    assert find_unpaired([request, response]) == []


def test_pairing_anonymous_tool_search_pairs_in_order() -> None:
    call, output = {"type": "tool_search_call"}, {"type": "tool_search_output"}
    assert find_unpaired([call, output]) == []
    assert orphan_outputs([output]) == ["?"]


USER = {"role": "user", "content": "q"}


@pytest.mark.parametrize(
    ("items", "dead"),
    [
        ([USER, _call("function_call", "c1")], []),  # at the end: may be a pending approval
        ([USER, _call("function_call", "c1"), USER], [1]),
        ([_call("function_call", "c1"), USER, _output("function_call", "c1")], []),
        ([USER, _call("mcp_approval_request", "r1"), USER], [1]),  # an abandoned MCP request
        ([_call("mcp_approval_request", "r1"), _output("mcp_approval_request", "r1"), USER], []),
        (
            [
                _call("function_call", "c1"),
                _call("function_call", "c1"),
                USER,
                _output("function_call", "c1"),
            ],
            [1],
        ),  # fmt: skip
        ([{"type": "tool_search_call"}, USER], [0]),  # anonymous, and no output answers it
        ([_call("function_call", "c1"), {"role": "assistant", "content": "a"}], []),
        ([_call("function_call", "c1"), {"role": "user", "type": "Message"}], []),
        ([_call("function_call", "c1"), {"type": "compaction", "encrypted_content": "s"}], [0]),
        ([{"type": "compaction", "encrypted_content": "s"}, _call("function_call", "c1")], []),
        ([_call("mcp_approval_request", "r1"), {"type": "compaction"}], [0]),
    ],
    ids=[
        "at-end",
        "abandoned",
        "answered-late",
        "mcp-abandoned",
        "mcp-answered",
        "fifo",
        "anonymous",
        "assistant-after",
        "not-a-user-message",
        "compacted-after",
        "compacted-before",
        "mcp-compacted-after",
    ],  # fmt: skip
)
def test_dead_items_are_open_calls_a_user_message_follows(
    items: list[dict[str, Any]], dead: list[int]
) -> None:
    assert [u.position for u in dead_items(items)] == dead
