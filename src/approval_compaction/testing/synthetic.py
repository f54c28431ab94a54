"""Synthetic stores: many sessions in the SDK's layout, for tests and the benchmark.

A session is built from turns shaped like the study's: a user question, a function call with its
output, and an assistant answer. A poisoned session ends the way the pinned release leaves a
compacted pause after the resume (a compaction item, then the output alone and the answer); a
pending one ends on a call that waits for approval. The tables are created by the SDK's own
session classes; the rows are inserted in bulk, with the JSON each class would write.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..doctor.stores import opened
from ..doctor.verdict import HEALTHY, PENDING, POISONED

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
    """``length`` items whose verdict is ``verdict`` (healthy, poisoned or pending)."""
    if verdict == POISONED:
        tail = [
            {"type": "compaction", "id": "compaction-1", "encrypted_content": "summary"},
            *_turn(10_000)[2:],  # the output and the answer, without their call
        ]
    elif verdict == PENDING:
        tail = _turn(10_000)[:2]  # the question and the call waiting for approval
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


async def create_tables(text: str) -> None:
    """Create the SDK's tables in a new store, with the SDK's own session class."""
    if "://" not in text:
        from agents import SQLiteSession

        SQLiteSession("approval-compaction-doctor", text).close()
        return
    from agents.extensions.memory import SQLAlchemySession

    session = SQLAlchemySession.from_url("approval-compaction-doctor", url=text, create_tables=True)
    await session.get_items()  # the SDK creates its tables on first use
    await session.engine.dispose()


async def write_sessions(
    text: str, sessions: Iterable[tuple[str, Sequence[Item]]], *, batch: int = 200
) -> int:
    """Create the tables if needed and insert the sessions; return how many were written."""
    from sqlalchemy import insert

    if "://" in text or not Path(text).exists():
        await create_tables(text)
    written = 0
    async with opened(text, write=True) as store:
        pending: list[tuple[str, Sequence[Item]]] = []

        async def flush() -> None:
            if not pending:
                return
            async with store.engine.begin() as conn:
                await conn.execute(
                    insert(store.sessions_table), [{"session_id": sid} for sid, _ in pending]
                )
                rows = [
                    {"session_id": sid, "message_data": store.dump(item)}
                    for sid, items in pending
                    for item in items
                ]
                if rows:
                    await conn.execute(insert(store.messages_table), rows)
            pending.clear()

        for session in sessions:
            pending.append(session)
            written += 1
            if len(pending) >= batch:
                await flush()
        await flush()
    return written


async def generate(text: str, count: int, length: int, mix: Sequence[str] = MIX) -> int:
    """A store of ``count`` sessions of ``length`` items, verdicts cycling through ``mix``."""
    sessions = ((sid, session_items(v, length)) for sid, v in mixed_sessions(count, length, mix))
    return await write_sessions(text, sessions)
