"""The workaround's cost: per turn against the unwrapped session, and the items it reads.

Histories of 10, 1,000 and 10,000 stored items sit in an in-memory ``SQLiteSession`` under the
SDK's ``OpenAIResponsesCompactionSession``; plain turns run through ``Runner.run`` with a scripted
model, with and without ``defer_compaction_while_pending``, interleaved, CPU time per turn.
Two decision hooks: one that says no (the common turn: the workaround only hands the hook on),
and one that says yes with a compaction stand-in that returns its input (so the history keeps its
size and the workaround's check over the latest exchange runs every turn). Then the deferral
decision alone, on a history ending in a call awaiting approval: through the hook (the SDK's own
view, no read), and forced (a bounded read, or the history the session holds). Last, storing one
batch (``add_items``): a call with its output (no read), an output whose call is stored (a prompt
approval: one read) and a late output whose call is gone (one read, stored as text), against the
unwrapped session, with the history read from the store or from the session's own copy.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

from agents import Agent, RunConfig, Runner, SQLiteSession
from agents.memory import OpenAIResponsesCompactionSession

from approval_compaction import defer_compaction_while_pending
from approval_compaction.openai_agents.model import ScriptedModel, assistant_message

SIZES = (10, 1_000, 10_000)
TURNS = {10: 15, 1_000: 8, 10_000: 4}
CALL = {"type": "function_call", "call_id": "pending", "name": "t", "arguments": "{}"}


def history(size: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for n in range(size // 2):
        items.append({"role": "user", "content": f"question {n}"})
        items.append({"role": "assistant", "content": f"answer {n}"})
    return items[:size]


def identity_client() -> MagicMock:
    """A compaction stand-in that returns its input: the history keeps its size."""
    client = MagicMock()
    client.responses.compact = AsyncMock(
        side_effect=lambda **kw: SimpleNamespace(output=list(kw.get("input", [])), usage=None)
    )
    return client


async def session_with(size: int, wrapped: bool, compact: bool) -> Any:
    store = SQLiteSession(f"bench-{size}-{wrapped}")
    await store.add_items(history(size))
    session: Any = OpenAIResponsesCompactionSession(
        "bench",
        store,
        client=identity_client(),
        compaction_mode="input",
        should_trigger_compaction=lambda _: compact,
    )
    return defer_compaction_while_pending(session) if wrapped else session


def timed(session: Any, spent: list[float]) -> None:
    """Record the CPU time of each hook-and-deferral decision the wrapped session makes."""
    decide = session._decide

    def timed_decide(context: dict[str, Any]) -> bool:
        start = time.process_time()
        try:
            return bool(decide(context))
        finally:
            spent.append(time.process_time() - start)

    session._decide = timed_decide


async def turns(size: int, wrapped: bool, compact: bool) -> tuple[list[float], list[float], int]:
    """CPU seconds per turn (after the first), of each decision, and the items it read."""
    session = await session_with(size, wrapped, compact)
    decisions: list[float] = []
    if wrapped:
        timed(session, decisions)
    count = TURNS[size]
    steps = [[assistant_message(f"a{n}", item_id=f"m{n}")] for n in range(count)]
    agent = Agent(name="bench", model=ScriptedModel(steps=steps, capture=False))
    config = RunConfig(tracing_disabled=True)
    times = []
    for n in range(count):
        start = time.process_time()
        await Runner.run(agent, f"q{n}", session=session, run_config=config)
        times.append(time.process_time() - start)
    return times[1:], decisions, getattr(session, "items_read", 0)


async def decision(size: int, force: bool, warm: bool) -> tuple[float, int]:
    session = await session_with(size, True, compact=True)
    await session.add_items([{"role": "user", "content": "q"}, CALL])
    if warm:
        await session._ensure_compaction_candidates()  # what the SDK holds after a turn
    wrapper = SimpleNamespace(
        _session_compaction_is_automatic=True, _session_compaction_model_exchange=(("u", "c"), None)
    )
    start = time.perf_counter()
    await session._run_compaction({"response_id": "r", "force": force}, wrapper=wrapper)
    seconds = time.perf_counter() - start
    assert len(session.deferrals) == 1
    return seconds, session.deferrals[-1].items_read


OUTPUT = {"type": "function_call_output", "call_id": "pending", "output": "x"}
BATCHES = {
    "call+output": ([], [CALL, OUTPUT]),
    "approved": ([CALL], [OUTPUT]),
    "late": ([], [OUTPUT]),
}


async def store_batch(size: int, batch: str, wrapped: bool, warm: bool) -> tuple[float, int]:
    """Wall seconds of one ``add_items`` and the items the workaround read for it."""
    session = await session_with(size, wrapped, compact=False)
    before, items = BATCHES[batch]
    await session.add_items(list(before))
    if warm:
        await session._ensure_compaction_candidates()
    start = time.perf_counter()
    await session.add_items(list(items))
    seconds = time.perf_counter() - start
    late = getattr(session, "late_outputs", [])
    assert bool(late) == (wrapped and batch == "late")
    return seconds, getattr(session, "items_read", 0)


async def main() -> None:
    await turns(10, True, True)  # warm imports
    for compact, label in ((False, "hook says no"), (True, "hook says yes, identity compaction")):
        print(f"per turn, CPU ms, median over interleaved rounds ({label}):")
        print(
            f"{'items':>8} {'unwrapped':>10} {'wrapped':>9} {'added':>7} {'check':>7} {'read':>5}"
        )
        for size in SIZES:
            plain, wrapped, checks, read = [], [], [], 0
            for _ in range(3):
                plain += (await turns(size, False, compact))[0]
                times, spent, got = await turns(size, True, compact)
                wrapped, checks, read = wrapped + times, checks + spent, read + got
            a, b = statistics.median(plain) * 1e3, statistics.median(wrapped) * 1e3
            c = statistics.median(checks) * 1e3 if checks else 0.0
            print(f"{size:>8,} {a:>10.2f} {b:>9.2f} {b - a:>7.2f} {c:>7.3f} {read:>5}")
    print("deferral decision alone (wall ms, items read), history ending in a pending call:")
    print(
        f"{'items':>8} {'hook':>7} {'read':>5} {'forced':>7} {'read':>5} {'cached':>7} {'read':>5}"
    )
    for size in SIZES:
        hook, hook_read = await decision(size + 2, force=False, warm=False)
        forced, forced_read = await decision(size + 2, force=True, warm=False)
        cached, cached_read = await decision(size + 2, force=True, warm=True)
        print(
            f"{size + 2:>8,} {hook * 1e3:>7.2f} {hook_read:>5} {forced * 1e3:>7.2f} "
            f"{forced_read:>5} {cached * 1e3:>7.2f} {cached_read:>5}"
        )
    print("storing one batch (wall ms, median of 5; items read by the workaround):")
    print(f"{'items':>8} {'batch':>12} {'unwrapped':>10} {'wrapped':>9} {'read':>5} {'cached':>7}")
    for size in SIZES:
        for batch in BATCHES:
            runs = {
                (wrapped, warm): [await store_batch(size, batch, wrapped, warm) for _ in range(5)]
                for wrapped, warm in ((False, False), (True, False), (True, True))
            }
            ms = {key: statistics.median(t for t, _ in got) * 1e3 for key, got in runs.items()}
            read = runs[(True, False)][0][1]
            print(
                f"{size:>8,} {batch:>12} {ms[(False, False)]:>10.2f} {ms[(True, False)]:>9.2f} "
                f"{read:>5} {ms[(True, True)]:>7.2f}"
            )


if __name__ == "__main__":
    asyncio.run(main())
