"""Fork: independent calls shared out to forked copies of this process, results in order.

A forked copy starts with everything this process has imported, so the SDK's second of imports
is paid once, not once per core. Copy ``k`` of ``jobs`` runs items ``k, k + jobs, ...`` and sends
its results back pickled through a pipe while this process runs its own share (``0, jobs, ...``);
the results come back in the items' order. Where ``os.fork`` is missing, or one job suffices,
the items run here, one after another. An item's result must not depend on the items run before
it in the same process: a case of the matrix shares nothing with the next one.
"""

from __future__ import annotations

import os
import pickle
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def cores() -> int:
    """The cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def fork_map(function: Callable[[T], R], items: Sequence[T], jobs: int = 0) -> list[R]:
    """``[function(item) for item in items]``, shared between ``jobs`` processes (0: one per
    core); an exception in a copy is raised here as a ``RuntimeError`` with its traceback."""
    jobs = min(jobs or cores(), len(items))
    if jobs <= 1 or not hasattr(os, "fork"):
        return [function(item) for item in items]
    sys.stdout.flush()
    sys.stderr.flush()
    children = [_start(function, items, k, jobs) for k in range(1, jobs)]
    results: list[R | None] = [None] * len(items)
    failures = []
    try:
        results[0::jobs] = [function(item) for item in items[0::jobs]]
    finally:
        for k, (pid, reader) in enumerate(children, start=1):  # every copy is waited for
            with os.fdopen(reader, "rb") as pipe:
                ok, payload = pickle.load(pipe)
            os.waitpid(pid, 0)
            if ok:
                results[k::jobs] = payload
            else:
                failures.append(payload)
    if failures:
        raise RuntimeError(f"a forked job failed:\n{failures[0]}")
    return results  # type: ignore[return-value]  # every slot is filled by one of the shares


def _start(function: Callable[[T], R], items: Sequence[T], k: int, jobs: int) -> tuple[int, int]:
    """Fork a copy that runs share ``k`` and pickles ``(ok, results or traceback)`` to a pipe."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid:
        os.close(writer)
        return pid, reader
    os.close(reader)  # the copy: never returns from here
    code = 0
    try:
        answer: tuple[bool, object] = (True, [function(item) for item in items[k::jobs]])
    except BaseException:  # noqa: BLE001  # anything a job raises goes back to the parent
        answer, code = (False, traceback.format_exc()), 1
    try:
        with os.fdopen(writer, "wb") as pipe:
            pickle.dump(answer, pipe)
    finally:
        os._exit(code)
