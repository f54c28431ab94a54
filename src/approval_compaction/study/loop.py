"""Loop: a coroutine run to completion from anywhere, a notebook's running loop included.

``run_sync`` runs it on a loop of its own (in a thread when one is already running here), whose
calls to threads run inline (``InlineExecutor``): a driver's conversation, a store's writes, a
throwaway server's start. It names no SDK; every driver, the doctor's experiments and the lab's
servers share it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")


class InlineExecutor(concurrent.futures.ThreadPoolExecutor):
    """An event loop's default executor that runs each call at once, in the loop's thread.

    The SDK's ``SQLiteSession`` sends every read and write to a thread (``asyncio.to_thread``)
    and waits for it; here nothing else runs meanwhile, so the hand-over to a thread and back
    (a wake-up of each, a third of a sweep's probe on a loaded machine) buys nothing. The calls
    run in the order they were made, with the same results."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:  # the caller awaits it, as from a thread
            future.set_exception(error)
        return future


async def inline(coro: Coroutine[Any, Any, T]) -> T:
    """Await ``coro`` with the running loop's calls to threads made inline (``InlineExecutor``)."""
    asyncio.get_running_loop().set_default_executor(InlineExecutor(max_workers=1))
    return await coro


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to completion, also from inside a running loop (a notebook), on a loop
    of its own whose calls to threads run inline."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(inline(coro))
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, inline(coro)).result()
