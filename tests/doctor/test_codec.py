"""Codec: the scan's light parse agrees with Python's json on what parses and on the fields a
verdict reads; envelopes open only with the right key."""

from __future__ import annotations

import json
import time

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


def test_a_row_nested_5000_deep_is_unreadable_not_fatal() -> None:
    """Regression for issue 33: one row nested 5,000 deep aborted the scan of every session
    (``maximum recursion depth exceeded``); the SDK itself reads the others."""
    deep = '{"type": "message", "content": ' + "[" * 5000 + "]" * 5000 + "}"
    fine = '{"type": "message", "role": "user", "content": "hi"}'
    assert codec.light_item(deep) is None and codec.plain_item(deep) is None
    assert codec.light_items([fine, deep, fine]) == ([codec.light_item(fine)] * 2, 1)


def test_a_ttl_leaves_out_old_items_and_counts_them_apart_from_the_unreadable() -> None:
    key = "q2H3pO4J0m3S6u7Yc8bC9dE0fG1hI2jK3lM4nO5pQ6r="
    item = {"type": "message", "role": "user", "content": "old"}
    sealed = codec.EncryptedCodec(key)
    envelope = sealed.encode("s1", item)  # then sealed again as if written an hour ago
    cipher = sealed._for("s1").cipher
    plain = json.dumps(item).encode()
    envelope["payload"] = cipher.encrypt_at_time(plain, int(time.time()) - 3600).decode()
    old = json.dumps(envelope)
    other = json.dumps(codec.EncryptedCodec("x" * 43 + "=").encode("s1", item))
    with_ttl = codec.EncryptedCodec(key, ttl=60)
    assert with_ttl.light("s1", [old, other]) == ([], 1)  # the other key's item: unreadable
    assert with_ttl.left_out == 1
    assert codec.EncryptedCodec(key, ttl=7200).light("s1", [old]) == ([codec.light_item(
        json.dumps(item))], 0)  # fmt: skip
