"""Redis stores: what the SDK's ``RedisSession`` keeps, read and written with its own layout.

A ``RedisSession`` keeps a session under ``<prefix>:<session id>``: a hash (``session_id``,
``created_at``, ``updated_at``) and a list ``...:messages`` of JSON texts, one per item, read in
list order (``<prefix>`` is ``agents:session`` unless the application chose another; the store
string names it as ``redis://host:port/db?key_prefix=...``). A row is an element of the list,
its id the element's index.

Sessions are listed by ``SCAN`` over the message lists and judged in session id order, in
pipelined batches. A write is one optimistic transaction per session, the way ``RedisSession``
writes: ``WATCH`` the list, read it, decide, then ``MULTI``/``EXEC`` the ``LSET`` of each
rewritten element; when anyone else writes the list in between, ``EXEC`` does nothing and the
session is read and judged again.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .codec import PLAIN
from .stores import (
    REDIS_PREFIX,
    Backend,
    Differences,
    FailAfter,
    Item,
    Plan,
    Row,
    SessionChanged,
    StoredSession,
    StoreError,
    StoreSpec,
    Unit,
    closing_on_error,
    differences,
    encode,
    one_line,
    open_items,
    write_stopped,
)

BATCH_SESSIONS = 200
RETRIES = 200  # optimistic attempts per session before it is left alone as busy
CONNECT_SECONDS = 5.0


def parse_redis(text: str) -> tuple[str, str]:
    """The store string and its label (the password hidden)."""
    parts = urlsplit(text)
    netloc = parts.netloc
    if parts.password is not None:
        netloc = netloc.replace(f":{parts.password}@", ":***@", 1)
    return text, urlunsplit(parts._replace(netloc=netloc))


def _database(path: str) -> int:
    """The database number of a ``redis://`` URL's path (``/3``; none: 0), or a ``StoreError``
    (redis-py would read ``/abc`` as database 0 without a word)."""
    number = path.strip("/")
    if not number:
        return 0
    if not number.isdigit() or int(number) > 1_000_000:
        raise StoreError(f"redis database {number!r} is not a number (redis://host:port/N)")
    return int(number)


def parse(text: str, backend: Backend) -> tuple[str, str, None]:
    """The table's parser for ``redis://`` store strings: the URL, its label, no file; a
    one-line ``StoreError`` for a host, port or database that is not one."""
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018  # raises ValueError for a port that is not one
    except ValueError as error:  # an unclosed [ of an IPv6 host, a port out of range
        raise StoreError(f"not a Redis URL: {one_line(error)}") from None
    if parts.scheme.lower() == "unix":
        if not parts.path:
            raise StoreError("not a Redis URL: unix:// needs the socket's path")
    else:
        _database(parts.path)
    url, label = parse_redis(text)
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    if "db" in query and not query["db"].isdigit():
        raise StoreError(f"redis database {query['db']!r} is not a number (?db=N)")
    return url, label, None


def _client_url(text: str) -> tuple[str, str]:
    """The URL for ``redis.asyncio.from_url`` and the key prefix (``key_prefix`` taken out)."""
    parts = urlsplit(text)
    query = parse_qsl(parts.query, keep_blank_values=True)
    prefix = next((v for k, v in query if k == "key_prefix"), REDIS_PREFIX)
    rest = urlencode([(k, v) for k, v in query if k != "key_prefix"])
    return urlunsplit(parts._replace(query=rest)), prefix


def _glob(text: str) -> str:
    return "".join(f"\\{c}" if c in "*?[]\\" else c for c in text)


def _text(value: bytes | str) -> str:
    """An element as text; bytes that are not UTF-8 kept as they are (``surrogateescape``)."""
    return value if isinstance(value, str) else value.decode("utf-8", "surrogateescape")


def _bytes(value: str) -> bytes:
    return value.encode("utf-8", "surrogateescape")


class RedisStore:
    """A ``RedisSession`` store on one Redis database (a ``stores.Store``)."""

    branches = False

    def __init__(self, spec: StoreSpec, client: Any, prefix: str, write: bool) -> None:
        self.spec, self.client, self.prefix, self.write = spec, client, prefix, write
        self.codec = PLAIN
        self._ids: list[str] | None = None

    @property
    def dialect(self) -> str:
        return "redis"

    def dump(self, value: Item) -> str:
        return json.dumps(value, separators=(",", ":"))  # RedisSession's

    def messages_key(self, session_id: str) -> str:
        return f"{self.prefix}:{session_id}:messages"

    def session_key(self, session_id: str) -> str:
        return f"{self.prefix}:{session_id}"

    async def _message_lists(self, count: int) -> AsyncIterator[tuple[str, bytes | str]]:
        """Each session id with a message list, and the list's key, in ``SCAN`` order."""
        head, tail = f"{self.prefix}:", ":messages"
        pattern = f"{_glob(head)}*{_glob(tail)}"
        async for key in self.client.scan_iter(match=pattern, count=count, _type="list"):
            yield _text(key)[len(head) : -len(tail)], key

    async def session_ids(self) -> list[str]:
        """Every session with a message list, in id order."""
        return sorted({sid async for sid, _ in self._message_lists(1000)})

    async def _lists(self, session_id: str | None) -> AsyncIterator[tuple[str, list[bytes]]]:
        """Each session's elements as stored (bytes), in pipelined batches of sessions."""
        if session_id is None:
            ids = await self.session_ids()
        elif await self.client.exists(self.messages_key(session_id)):
            ids = [session_id]
        else:
            return
        for start in range(0, len(ids), BATCH_SESSIONS):
            chunk = ids[start : start + BATCH_SESSIONS]
            async with self.client.pipeline(transaction=False) as pipe:
                for sid in chunk:
                    pipe.lrange(self.messages_key(sid), 0, -1)
                answers = await pipe.execute()
            for sid, values in zip(chunk, answers, strict=True):
                yield sid, values

    async def sessions(self, session_id: str | None = None) -> AsyncIterator[StoredSession]:
        async for sid, values in self._lists(session_id):
            rows = tuple(Row(i, _text(value)) for i, value in enumerate(values))
            yield StoredSession(sid, rows, None, self.codec)

    async def units(self, session_id: str | None = None) -> AsyncIterator[Unit]:
        async for sid, values in self._lists(session_id):
            yield Unit(sid, None, values)  # bytes: the JSON parser reads them as they came

    async def samples(self, limit: int = 50) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        async for sid, key in self._message_lists(100):
            ends = await self.client.lrange(key, 0, 4) + await self.client.lrange(key, -5, -1)
            found.extend((sid, _text(value)) for value in ends)
            if len(found) >= limit:
                break
        return found

    async def rewrite(
        self, session_id: str, plan: Plan, fail_after: FailAfter | None = None
    ) -> tuple[StoredSession, dict[int, str]]:
        from redis.exceptions import ResponseError, WatchError

        if not self.write:
            raise StoreError("the store was opened for reading")
        key = self.messages_key(session_id)
        for _ in range(RETRIES):
            async with self.client.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(key)
                    texts = [_text(v) for v in await pipe.lrange(key, 0, -1)]
                    current = StoredSession(
                        session_id, tuple(Row(i, t) for i, t in enumerate(texts)), None, self.codec
                    )
                    written = {
                        row_id: encode(self, session_id, item)
                        for row_id, item in plan(current).items()
                    }
                    pipe.multi()
                    for row_id, text in sorted(written.items()):
                        pipe.lset(key, row_id, _bytes(text))
                    if fail_after is not None:
                        fail_after(session_id)  # raising here sends nothing: the MULTI is dropped
                    if written:
                        await pipe.execute()
                    return current, written
                except WatchError:
                    continue  # another writer came first: read and judge again
                except ResponseError as error:  # a read-only replica, maxmemory: nothing sent
                    raise write_stopped(self.spec.label, session_id, error) from None
        raise SessionChanged(f"still being written after {RETRIES} attempts")

    async def soundness(self) -> str | None:
        return None  # Redis keeps no check of its own data the doctor could run

    @property
    def identity(self) -> str:
        parts = urlsplit(_client_url(self.spec.url)[0])
        host = (parts.hostname or "").lower()
        return (
            f"redis://{host}:{parts.port or 6379}/{_database(parts.path)}?key_prefix={self.prefix}"
        )

    async def put_back(self, saved: StoredSession, exact: bool = False) -> Differences:
        from redis.exceptions import ResponseError, WatchError

        key, parent = self.messages_key(saved.session_id), self.session_key(saved.session_id)
        for _ in range(RETRIES):
            async with self.client.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(key, parent)
                    current = [_text(v) for v in await pipe.lrange(key, 0, -1)]
                    wanted = [row.data for row in saved.rows]
                    if not exact:  # the elements pushed since the backup stay after its rows
                        wanted += current[len(wanted) :]
                    ttl, has_parent = await pipe.pttl(key), await pipe.exists(parent)
                    pipe.multi()
                    if current != wanted:  # the list is put back whole, its expiry kept
                        pipe.delete(key)
                        if wanted:
                            pipe.rpush(key, *[_bytes(str(t)) for t in wanted])  # Redis keeps text
                            if ttl and ttl > 0:
                                pipe.pexpire(key, ttl)
                    if not has_parent:
                        pipe.hset(parent, "session_id", saved.session_id)
                    await pipe.execute()
                    rows = [Row(i, t) for i, t in enumerate(current)]
                    return differences(rows, saved.rows, exact)
                except WatchError:
                    continue
                except ResponseError as error:  # a read-only replica, maxmemory: nothing sent
                    raise write_stopped(self.spec.label, saved.session_id, error) from None
        raise StoreError(f"{saved.session_id}: still being written after {RETRIES} attempts")

    async def read_back(self, session_id: str) -> dict[str | None, list[Item]]:
        from agents.extensions.memory import RedisSession

        session = RedisSession(session_id, redis_client=self.client, key_prefix=self.prefix)
        return {None: open_items(self.codec, session_id, await session.get_items())}

    async def write_raw(self, sessions: Sequence[tuple[str, Sequence[str]]]) -> None:
        async with self.client.pipeline(transaction=False) as pipe:
            for sid, texts in sessions:
                pipe.hset(self.session_key(sid), mapping={"session_id": sid, "created_at": "0",
                                                          "updated_at": "0"})  # fmt: skip
                if texts:
                    pipe.rpush(self.messages_key(sid), *[_bytes(t) for t in texts])
            await pipe.execute()

    async def close(self) -> None:
        await self.client.aclose()


async def open_store(spec: StoreSpec, write: bool) -> RedisStore:
    """Connect, check the server answers and holds ``RedisSession`` keys; nothing written."""
    try:
        import redis.asyncio as redis
    except ImportError as error:
        raise StoreError(f"{spec.label}: the redis package is not installed ({error})") from None
    url, prefix = _client_url(spec.url)
    try:
        client = redis.from_url(url, socket_connect_timeout=CONNECT_SECONDS,
                                socket_timeout=60)  # fmt: skip
    except ValueError as error:
        raise StoreError(f"not a Redis URL: {one_line(error)}") from None
    store = RedisStore(spec, client, prefix, write)
    async with closing_on_error(store, f"cannot reach {spec.label}"):
        await client.ping()
        if not await store.session_ids() and await client.dbsize() > 0:
            raise StoreError(
                f"{spec.label} holds no RedisSession keys under {prefix}: (its "
                f"{await client.dbsize()} keys are not the SDK's; another ?key_prefix=?)"
            )
    return store
