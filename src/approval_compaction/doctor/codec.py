"""Codec: how a stored row's text becomes an item, and an item becomes a row's text again.

Most stores keep each item as JSON text (``PlainCodec``). A store written through the SDK's
``EncryptedSession`` keeps each item as an envelope, ``{"__enc__": 1, "v": 1, "kid": ...,
"payload": <Fernet token>}``, encrypted with a key derived (HKDF) from the application's
master key and the session id. ``EncryptedCodec`` decrypts and encrypts with the SDK's own
``EncryptedSession`` (``_unwrap``, ``_wrap``), so the doctor reads exactly the items the
application reads and writes envelopes the application can read. The master key comes from an
environment variable (``SESSION_ENCRYPTION_KEY`` unless told otherwise) and is never printed.

Two ways to read: ``decode`` gives a whole item (for a repair and its checks), ``light`` gives
only what a verdict needs (``type`` and the ids that pair calls with outputs), parsed with
msgspec, which skips every other field without building it: a scan is about as fast as the
database can hand over its rows. Text msgspec refuses (``NaN``, lone surrogates) falls back to
Python's ``json``, the parser the SDK uses, so the two ways always agree on what parses.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from typing import Any, TypedDict

from ..errors import InvestigationError, require

require("the doctor", ["msgspec"], "doctor")  # a scan's parser, before the import fails
import msgspec  # noqa: E402  # after the check that names its extra

Item = dict[str, Any]
KEY_ENV = "SESSION_ENCRYPTION_KEY"
LIGHT_FIELDS = ("type", "call_id", "id", "approval_request_id", "role")
EXPIRED = b"\0expired"  # an item the key opens that is older than the ttl (compared by identity)


class EncryptionKeyError(InvestigationError):
    """An encrypted store without its key, or with a key that opens none of its items."""


class _Keys(TypedDict, total=False):
    """The fields a verdict reads, as a plain dict; msgspec skips the rest of the item."""

    type: object
    call_id: object
    id: object
    approval_request_id: object
    role: object  # a user message after an open call makes the call dead (``verdict``)


class _Envelope(msgspec.Struct):
    payload: object = None
    kid: object = None
    v: object = None
    enc: object = msgspec.field(default=None, name="__enc__")


_keys = msgspec.json.Decoder(_Keys).decode
_envelope = msgspec.json.Decoder(_Envelope).decode
# RecursionError: msgspec's answer to a text nested deeper than it parses (a row nested 5,000
# deep); the fallback, Python's json, refuses it too, so the row is unreadable, as for the SDK.
# TypeError: a value that is not text at all (an integer SQLite kept in the column).
_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RecursionError, TypeError)


def plain_item(text: object) -> Item | None:
    """A whole item, as ``json.loads`` reads it, or None when it is not a JSON object."""
    try:
        value = json.loads(text)  # type: ignore[arg-type]  # any stored value: TypeError below
    except (json.JSONDecodeError, TypeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def light_item(text: Any) -> Item | None:
    """The verdict's fields of one JSON text, or None where the SDK would read no object."""
    try:
        return dict(_keys(text))
    except _ERRORS:
        item = plain_item(text)  # what msgspec refuses, read as the SDK reads it
        return None if item is None else {k: item[k] for k in LIGHT_FIELDS if k in item}


def light_items(texts: Sequence[Any]) -> tuple[list[Item], int]:
    """``light_item`` of each text, the unreadable ones left out, and how many they are."""
    try:
        return list(map(_keys, texts)), 0  # type: ignore[arg-type]  # the common case, in C
    except _ERRORS:
        found = [light for light in map(light_item, texts) if light is not None]
        return found, len(texts) - len(found)


class Codec:
    """Plain JSON rows."""

    encrypted = False
    left_out = 0  # items a ttl left out (EncryptedCodec), counted apart from the unreadable

    def decode(self, session_id: str, text: object) -> Item | None:
        return plain_item(text)

    def light(self, session_id: str, texts: Sequence[Any]) -> tuple[list[Item], int]:
        """The verdict's fields of each readable row, and how many rows are unreadable."""
        return light_items(texts)

    def encode(self, session_id: str, item: Item) -> Item:
        """The value the store keeps for ``item`` (the item itself, for plain rows)."""
        return item


PLAIN = Codec()


def is_envelope(text: str) -> bool:
    """Whether a row holds an ``EncryptedSession`` envelope (authenticated or not)."""
    try:
        value = _envelope(text)
    except _ERRORS:
        return False
    return value.enc == 1 and value.payload is not None


class EncryptedCodec(Codec):
    """``EncryptedSession``'s envelopes, opened and sealed with the SDK's own class."""

    encrypted = True

    def __init__(self, key: str, ttl: int | None = None) -> None:
        self._key, self.ttl = key, ttl
        self.left_out = 0
        self._session_id: str | None = None
        self._session: Any = None

    def _for(self, session_id: str) -> Any:
        if session_id != self._session_id:
            from agents.extensions.memory import EncryptedSession

            # Only the session's cipher is used: the underlying session is never touched.
            self._session = EncryptedSession(
                session_id, underlying_session=None, encryption_key=self._key,  # type: ignore[arg-type]
                ttl=self.ttl,  # type: ignore[arg-type]  # None: no expiry, every authenticated item
            )  # fmt: skip
            self._session_id = session_id
        return self._session

    def _plaintext(self, session_id: str, text: str | bytes) -> bytes | None:
        """The envelope's plaintext; None when the key does not open it; ``EXPIRED`` when it
        does but the item is older than the ttl (EncryptedSession skips it)."""
        try:
            value = _envelope(text)
        except _ERRORS:
            return None
        if value.enc != 1 or not isinstance(value.payload, str) or value.kid is None:
            return None  # EncryptedSession skips plaintext and incomplete envelopes
        from cryptography.fernet import InvalidToken

        cipher = self._for(session_id).cipher
        try:
            plain: bytes = cipher.decrypt(value.payload)
        except (InvalidToken, TypeError, ValueError):
            return None
        if self.ttl is not None:
            made, now = cipher.extract_timestamp(value.payload.encode()), time.time()
            if made > now + 60:  # Fernet's clock skew: a ttl refuses an item from the future
                return None
            if now - made > self.ttl:
                return EXPIRED
        return plain

    def decode(self, session_id: str, text: object) -> Item | None:
        envelope = plain_item(text)
        if envelope is None:
            return None
        try:
            item = self._for(session_id)._unwrap(envelope)
        except (RecursionError, ValueError, TypeError):  # a payload nested past the parser
            return None
        return item if isinstance(item, dict) else None

    def light(self, session_id: str, texts: Sequence[Any]) -> tuple[list[Item], int]:
        opened = [self._plaintext(session_id, t) for t in texts]
        plain = [p for p in opened if p is not None and p is not EXPIRED]
        expired = sum(1 for p in opened if p is EXPIRED)
        self.left_out += expired
        items, unreadable = light_items(plain)
        return items, unreadable + len(texts) - len(plain) - expired

    def encode(self, session_id: str, item: Item) -> Item:
        return dict(self._for(session_id)._wrap(item))

    def opens(self, session_id: str, text: str) -> bool:
        """Whether the key authenticates this envelope (whatever its age)."""
        from cryptography.fernet import InvalidToken

        try:
            value = _envelope(text)
            self._for(session_id).cipher.extract_timestamp(str(value.payload).encode())
        except (*_ERRORS, InvalidToken, TypeError, ValueError):
            return False
        return True


def choose(
    label: str, samples: Sequence[tuple[str, str]], key_env: str = KEY_ENV, ttl: int | None = None
) -> Codec:
    """The codec for a store from some of its rows: plain, or encrypted with a key that works.

    A one-line ``EncryptionKeyError`` when the rows are envelopes and the variable is unset, or
    when its key authenticates none of them; the key's value never appears in a message.
    """
    envelopes = [(sid, text) for sid, text in samples if is_envelope(text)]
    if not envelopes:
        return PLAIN
    key = os.environ.get(key_env, "")
    if not key:
        raise EncryptionKeyError(
            f"{label} holds EncryptedSession items: set the application's key in ${key_env} "
            "(or name its variable with --key-env)"
        )
    require(f"{label}'s EncryptedSession items", ["cryptography"], "encrypted")
    codec = EncryptedCodec(key, ttl)
    if not any(codec.opens(sid, text) for sid, text in envelopes):
        raise EncryptionKeyError(
            f"{label}: the key in ${key_env} opens none of the {len(envelopes)} encrypted items "
            "read: wrong key"
        )
    return codec
