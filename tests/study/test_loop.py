"""A coroutine run to completion from anywhere: with no loop running, and from inside one."""

from __future__ import annotations

import asyncio
import threading

from approval_compaction.study.loop import run_sync


def test_loop_run_sync_returns_the_coroutine_result() -> None:
    async def answer() -> int:
        return 42

    assert run_sync(answer()) == 42


def test_loop_run_sync_runs_inside_a_running_loop_as_a_notebook_does() -> None:
    async def outer() -> int:
        async def inner() -> int:
            return 7

        return run_sync(inner())

    assert asyncio.run(outer()) == 7


def test_loop_run_sync_runs_calls_to_threads_inline() -> None:
    """A call sent to a thread (``asyncio.to_thread``, as the SDK's ``SQLiteSession`` does) runs
    in the loop's own thread."""

    async def where() -> tuple[int, int]:
        return threading.get_ident(), await asyncio.to_thread(threading.get_ident)

    loop_thread, call_thread = run_sync(where())
    assert loop_thread == call_thread
