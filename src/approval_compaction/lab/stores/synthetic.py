"""Synthetic stores: many sessions in the SDK's layout, for tests and the benchmark.

A session is built from turns shaped like the study's: a user question, a function call with its
output, and an assistant answer. A poisoned session ends the way the pinned release leaves a
compacted pause after the resume (a compaction item, then the output alone and the answer); a
pending one ends on a call that waits for approval. The tables are created by the SDK's own
session classes (on MySQL and MariaDB by the migration a team writes instead: the SDK's
``create_tables`` fails there, openai/openai-agents-python#4740); the rows are inserted in bulk,
with the JSON each class would write, encrypted as ``EncryptedSession`` writes them when a key
is given. An ``AdvancedSQLiteSession`` file is written through the SDK's own ``add_items`` and
``create_branch_from_turn``, so its structure rows are the SDK's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ...doctor.codec import EncryptedCodec
from ...doctor.redisstore import _client_url
from ...doctor.stores import opened
from ...doctor.verdict import HEALTHY, PENDING, POISONED, STUCK

Item = dict[str, Any]
MIX: tuple[str, ...] = (HEALTHY, POISONED, PENDING)


def _turn(index: int) -> list[Item]:
    call_id = f"call-{index}"
    return [
        {"role": "user", "content": f"question {index}"},
        {
            "type": "function_call",
            "id": f"fc-{call_id}",
            "call_id": call_id,
            "name": "protected_lookup",
            "arguments": json.dumps({"value": f"v{index}"}),
            "status": "completed",
        },
        {"type": "function_call_output", "call_id": call_id, "output": f"synthetic:v{index}"},
        {
            "id": f"msg-{index}",
            "type": "message",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": f"answer {index}", "annotations": []}],
        },
    ]


def session_items(verdict: str, length: int) -> list[Item]:
    """``length`` items whose verdict is ``verdict`` (healthy, poisoned, stuck or pending)."""
    if verdict == POISONED:
        tail = [
            {"type": "compaction", "id": "compaction-1", "encrypted_content": "summary"},
            *_turn(10_000)[2:],  # the output and the answer, without their call
        ]
    elif verdict == PENDING:
        tail = _turn(10_000)[:2]  # the question and the call waiting for approval
    elif verdict == STUCK:  # the call waiting for approval, and the user asking something else
        tail = [*_turn(10_000)[:2], {"role": "user", "content": "something else"}]
    elif verdict == HEALTHY:
        tail = []
    else:
        raise ValueError(f"unknown verdict {verdict!r}")
    head: list[Item] = []
    index = 0
    while len(head) + len(tail) < length:
        head.extend(_turn(index))
        index += 1
    head = head[: max(0, length - len(tail))]
    while head and head[-1].get("type") == "function_call":  # never leave a call cut in two
        head.pop()
    while len(head) + len(tail) < length:
        head.append({"role": "user", "content": "and one more thing"})
    return head + tail


def mixed_sessions(count: int, length: int, mix: Sequence[str] = MIX) -> Iterator[tuple[str, str]]:
    """``count`` (session id, verdict) pairs cycling through ``mix``."""
    for index in range(count):
        yield f"session-{index:06d}", mix[index % len(mix)]


# The SDK's columns on MySQL/MariaDB, with the lengths MySQL needs (the SDK declares none).
MYSQL_TABLES = (
    """CREATE TABLE IF NOT EXISTS agent_sessions (
        session_id VARCHAR(255) NOT NULL PRIMARY KEY,
        created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
        updated_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP)""",
    """CREATE TABLE IF NOT EXISTS agent_messages (
        id INTEGER NOT NULL AUTO_INCREMENT PRIMARY KEY,
        session_id VARCHAR(255) NOT NULL,
        message_data LONGTEXT NOT NULL,
        created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
        FOREIGN KEY (session_id) REFERENCES agent_sessions (session_id) ON DELETE CASCADE,
        INDEX idx_agent_messages_session_time (session_id, created_at))""",
)


async def create_tables(text: str) -> None:
    """Create the SDK's tables in a new store, with the SDK's own session class."""
    if "://" not in text:
        from agents import SQLiteSession

        SQLiteSession("approval-compaction-doctor", text).close()
        return
    if text.startswith(("redis://", "rediss://")):
        return  # RedisSession keeps no schema
    if text.startswith(("mysql", "mariadb")):
        from sqlalchemy import text as sql
        from sqlalchemy.ext.asyncio import create_async_engine

        engine = create_async_engine(text)
        try:
            async with engine.begin() as conn:
                for statement in MYSQL_TABLES:
                    await conn.execute(sql(statement))
        finally:
            await engine.dispose()
        return
    from agents.extensions.memory import SQLAlchemySession

    session = SQLAlchemySession.from_url("approval-compaction-doctor", url=text, create_tables=True)
    await session.get_items()  # the SDK creates its tables on first use
    await session.engine.dispose()


async def write_sessions(
    text: str,
    sessions: Iterable[tuple[str, Sequence[Item]]],
    *,
    batch: int = 200,
    key: str | None = None,
) -> int:
    """Create the tables if needed and insert the sessions; return how many were written.

    With ``key``, each item is stored as ``EncryptedSession`` stores it under that key.
    """
    if "://" in text or not Path(text).exists():
        await create_tables(text)
    written = 0
    codec = EncryptedCodec(key) if key else None
    async with opened(text, write=True, decode=False) as store:
        pending: list[tuple[str, list[str]]] = []
        for sid, items in sessions:
            stored = [codec.encode(sid, item) for item in items] if codec else list(items)
            pending.append((sid, [store.dump(value) for value in stored]))
            written += 1
            if len(pending) >= batch:
                await store.write_raw(pending)
                pending.clear()
        await store.write_raw(pending)
    return written


async def generate(
    text: str, count: int, length: int, mix: Sequence[str] = MIX, *, key: str | None = None
) -> int:
    """A store of ``count`` sessions of ``length`` items, verdicts cycling through ``mix``."""
    sessions = ((sid, session_items(v, length)) for sid, v in mixed_sessions(count, length, mix))
    return await write_sessions(text, sessions, key=key)


async def write_advanced(
    path: str,
    sessions: Iterable[tuple[str, Sequence[Item], Sequence[tuple[int, Sequence[Item]]]]],
) -> int:
    """An ``AdvancedSQLiteSession`` file written through the SDK: each session's items on
    ``main``, then for each (turn, items) a branch from that user turn with those items."""
    from agents.extensions.memory import AdvancedSQLiteSession

    written = 0
    for sid, items, branches in sessions:
        session = AdvancedSQLiteSession(session_id=sid, db_path=path, create_tables=True)
        try:
            await session.add_items(list(items))  # type: ignore[arg-type]
            for turn, more in branches:
                await session.create_branch_from_turn(turn, f"from-turn-{turn}")
                await session.add_items(list(more))  # type: ignore[arg-type]
                await session.switch_to_branch("main")
        finally:
            session.close()
        written += 1
    return written


def poisoned_branch(index: int) -> list[Item]:
    """Items a branch adds after its user turn: a compacted pause, then the output alone."""
    return [
        {"role": "user", "content": f"branch question {index}"},
        {"type": "compaction", "id": f"compaction-b{index}", "encrypted_content": "summary"},
        *_turn(20_000 + index)[2:],
    ]


async def generate_advanced(path: str, count: int, length: int, mix: Sequence[str] = MIX) -> int:
    """``count`` sessions on ``main`` (verdicts cycling through ``mix``); every second one also
    has a branch from its second user turn, poisoned for every fourth session, healthy else."""
    sessions = []
    for index, (sid, verdict) in enumerate(mixed_sessions(count, length, mix)):
        branches: list[tuple[int, Sequence[Item]]] = []
        if index % 2 == 1:
            more = poisoned_branch(index) if index % 4 == 1 else _turn(30_000 + index)
            branches.append((2, more))
        sessions.append((sid, session_items(verdict, length), branches))
    return await write_advanced(path, sessions)


def app_sessions(text: str, session_ids: Sequence[str], key: str | None = None) -> list[Any]:
    """The SDK sessions an application would open on the store ``text``, sharing one engine or
    client (wrapped in ``EncryptedSession`` with ``key``): for tests that write as the
    application does. ``close_app_sessions`` closes them."""
    sessions: list[Any]
    if "://" not in text:
        from agents import SQLiteSession

        sessions = [SQLiteSession(sid, text) for sid in session_ids]
    elif text.startswith(("redis://", "rediss://")):
        import redis.asyncio as redis
        from agents.extensions.memory import RedisSession

        url, prefix = _client_url(text)
        client = redis.from_url(url)
        sessions = [
            RedisSession(sid, redis_client=client, key_prefix=prefix) for sid in session_ids
        ]
    else:
        from agents.extensions.memory import SQLAlchemySession
        from sqlalchemy.ext.asyncio import create_async_engine

        engine = create_async_engine(text)
        sessions = [SQLAlchemySession(sid, engine=engine) for sid in session_ids]
    if key:
        from agents.extensions.memory import EncryptedSession

        return [EncryptedSession(s.session_id, underlying_session=s, encryption_key=key,
                                 ttl=10**9) for s in sessions]  # fmt: skip
    return sessions


def app_session(text: str, session_id: str, key: str | None = None) -> Any:
    """One application session on ``text`` (see ``app_sessions``)."""
    return app_sessions(text, [session_id], key)[0]


async def close_app_sessions(sessions: Sequence[Any]) -> None:
    """Close what ``app_sessions`` opened: each SQLite session, the shared engine or client."""
    inner = [getattr(s, "underlying_session", s) for s in sessions]
    shared: dict[int, Any] = {}
    for session in inner:
        if hasattr(session, "engine"):
            shared[id(session.engine)] = session.engine.dispose()
        elif hasattr(session, "_redis"):
            shared[id(session._redis)] = session._redis.aclose()
        else:
            session.close()
    for pending in shared.values():
        await pending


async def close_app_session(session: Any) -> None:
    await close_app_sessions([session])
