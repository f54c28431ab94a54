"""The workaround's cost: per turn against the unwrapped session, and the items it reads.

For histories of 10, 1,000 and 10,000 stored items (an in-memory ``SQLiteSession`` under the
SDK's ``OpenAIResponsesCompactionSession``, the decision hook saying no so that no compaction
request is timed), one plain turn through ``Runner.run`` is timed with and without
``defer_compaction_while_pending``, interleaved. Then the deferral decision alone, on a history
that ends in a call awaiting approval: once on a fresh session (a bounded read) and once on a
session that already holds its history in memory. Prints medians and the items read.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from types import SimpleNamespace
from typing import Any

from agents import Agent, RunConfig, Runner, SQLiteSession
from agents.memory import OpenAIResponsesCompactionSession

from approval_compaction import defer_compaction_while_pending
from approval_compaction.study.model import ScriptedModel, assistant_message

SIZES = (10, 1_000, 10_000)
TURNS = 15
CALL = {"type": "function_call", "call_id": "pending", "name": "t", "arguments": "{}"}


def history(size: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for n in range(size // 2):
        items.append({"role": "user", "content": f"question {n}"})
        items.append({"role": "assistant", "content": f"answer {n}"})
    return items[:size]


async def session_with(size: int, wrapped: bool) -> Any:
    store = SQLiteSession(f"bench-{size}-{wrapped}")
    await store.add_items(history(size))
    session: Any = OpenAIResponsesCompactionSession(
        "bench",
        store,
        client=object(),
        compaction_mode="input",  # type: ignore[arg-type]
        should_trigger_compaction=lambda _: False,
    )
    return defer_compaction_while_pending(session) if wrapped else session


async def turn_seconds(size: int, wrapped: bool) -> tuple[list[float], int]:
    session = await session_with(size, wrapped)
    steps = [[assistant_message(f"a{n}", item_id=f"m{n}")] for n in range(TURNS)]
    agent = Agent(name="bench", model=ScriptedModel(steps=steps, capture=False))
    times = []
    for n in range(TURNS):
        start = time.perf_counter()
        await Runner.run(
            agent, f"q{n}", session=session, run_config=RunConfig(tracing_disabled=True)
        )
        times.append(time.perf_counter() - start)
    return times[1:], getattr(session, "items_read", 0)  # the first turn loads the SDK's cache


async def decision(size: int, warm: bool) -> tuple[float, int]:
    session = await session_with(size, True)
    await session.add_items([{"role": "user", "content": "q"}, CALL])
    if warm:
        await session._ensure_compaction_candidates()  # what the SDK holds after its first turn
    wrapper = SimpleNamespace(
        _session_compaction_is_automatic=True, _session_compaction_model_exchange=(("u", "c"), None)
    )
    start = time.perf_counter()
    await session._run_compaction({"response_id": "r"}, wrapper=wrapper)
    seconds = time.perf_counter() - start
    assert len(session.deferrals) == 1
    return seconds, session.items_read


async def main() -> None:
    await turn_seconds(10, True)  # warm imports
    print(f"per turn, CPU ms (median of turns 2..{TURNS}, 3 interleaved rounds; hook says no):")
    header = f"{'items':>8} {'unwrapped':>10} {'wrapped':>9} {'decision':>9} {'read/turn':>10}"
    print(header)
    for size in SIZES:
        plain, wrapped, decided = [], [], []
        read = 0
        for _ in range(3):  # interleaved rounds
            plain += (await turn_seconds(size, False))[0]
            times, spent, read = await turn_seconds(size, True)
            wrapped += times
            decided += spent
        a, b = statistics.median(plain) * 1e3, statistics.median(wrapped) * 1e3
        d = statistics.median(decided) * 1e3
        print(f"{size:>8,} {a:>10.2f} {b:>9.2f} {d:>9.3f} {read / (TURNS - 1):>10.1f}")
    print("deferral decision alone (wall ms), history ending in a call awaiting approval:")
    print(f"{'items':>8} {'fresh ms':>9} {'read':>5} {'cached ms':>10} {'read':>5}")
    for size in SIZES:
        fresh, fresh_read = await decision(size + 2, warm=False)
        cached, cached_read = await decision(size + 2, warm=True)
        print(
            f"{size + 2:>8,} {fresh * 1e3:>9.2f} {fresh_read:>5} {cached * 1e3:>10.2f} "
            f"{cached_read:>5}"
        )


if __name__ == "__main__":
    asyncio.run(main())
