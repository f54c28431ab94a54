"""Codec: the scan's light parse agrees with Python's json on what parses and on the fields a
verdict reads; envelopes open only with the right key."""

from __future__ import annotations

import json

import pytest

from approval_compaction.doctor import codec

TEXTS = [
    '{"type": "function_call", "call_id": "c1", "name": "t", "arguments": "{}"}',
    '{"type": "function_call_output", "call_id": "c1", "output": NaN}',  # Python reads NaN
    '{"type": "message", "content": [{"type": "output_text", "text": "\\ud800"}]}',
    '{"type": 1, "type": "function_call_output", "call_id": "c1"}',  # the last value counts
    '  {"role": "user", "content": "hi"}\n',
    '{"type": "function_call_output", "call_id": "c1"',
    "[1, 2]",
    '"just a string"',
    "",
    "not json",
]


@pytest.mark.parametrize("text", TEXTS)
def test_light_fields_equal_the_full_items(text: str) -> None:
    full = codec.plain_item(text)
    light = codec.light_item(text)
    if full is None:
        assert light is None
        return
    assert light == {k: full[k] for k in codec.LIGHT_FIELDS if k in full}
    assert codec.light_items([text]) == ([light], 0)


def test_light_items_counts_the_unreadable() -> None:
    items, unreadable = codec.light_items(TEXTS)
    assert unreadable == sum(1 for t in TEXTS if codec.plain_item(t) is None)
    assert len(items) == len(TEXTS) - unreadable


def test_envelopes_open_with_their_key_only() -> None:
    key = "q2H3pO4J0m3S6u7Yc8bC9dE0fG1hI2jK3lM4nO5pQ6r="
    sealed = codec.EncryptedCodec(key)
    item = {"type": "function_call_output", "call_id": "c1", "output": "x"}
    text = json.dumps(sealed.encode("s1", item))
    assert codec.is_envelope(text) and not codec.is_envelope(json.dumps(item))
    assert sealed.decode("s1", text) == item
    assert sealed.light("s1", [text, json.dumps(item)]) == ([codec.light_item(json.dumps(item))], 1)
    assert sealed.decode("s2", text) is None  # the key is derived per session
    assert codec.EncryptedCodec("x" * 43 + "=").decode("s1", text) is None
