"""The Python workaround's reads and time per turn, against the bare SDK, as dead calls pile up.

Histories of about 1,000, 10,000 and 100,000 items in the SDK's ``SQLiteSession`` (a file), with
0, 500 or 10,000 dead calls (abandoned 50 at a time: ``testing.pyfuzz.long_history``; 10,000 of
them alone make 10,200 items, so that history is not cut to 1,000). Each kind of turn runs
through ``Runner.run`` on the fuzzer's strict model (``testing.pyfuzz``), bare and with
``defer_compaction_while_pending``:

- ``turn``: a question, the hook saying no, on the session object of the turn before (the
  third of three: warm);
- ``request``: a question on a session object built for it (a worker per request);
- ``compact``: a question with the hook saying yes, on a new session object (the workaround
  retires the dead calls, then the SDK compacts);
- ``resume``: a call approved at once and resumed on the session that paused.

Reads are the store's ``get_items`` and snapshot reads the step made; seconds its CPU time (the
process's, SQLite's threads included: a shared machine's wall time is mostly waiting), the
median of ``--rounds`` rounds (bare and wrapped alternate; one round at 100,000 items).
``--release X`` runs the same in that release's environment (``make envs``): the newest, 0.24.0,
is the bare control. ``PYTHONDONTWRITEBYTECODE`` is unset (the script runs itself again without
it), so imports use bytecode caches as a user's do; one untimed trial runs first.

``--window`` prints instead how long the SDK's whole-history replacement (clear, then add)
leaves a ``RedisSession`` without its history, the window no transaction closes there.

    .venv/bin/python benchmarks/workaround_reads.py [--release 0.24.0] [--sizes 1000 10000]
    .venv/bin/python benchmarks/workaround_reads.py --window
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time

from approval_compaction.testing.pyfuzz import (
    Ask,
    Record,
    Resume,
    Trial,
    long_history,
    reads_per_step,
    run_in,
    run_trials,
)

SHAPES = ((1_000, 0), (1_000, 500), (10_000, 0), (10_000, 500), (10_000, 10_000),
          (100_000, 0), (100_000, 500), (100_000, 10_000))  # fmt: skip
KINDS: dict[str, tuple[Trial, int]] = {  # the trial, and which step is measured
    "turn": (Trial((Ask("a"), Ask("a"), Ask("a")), hook=False), 2),
    "request": (Trial((Ask("a"), Ask("a")), hook=False, handles="per_request"), 1),
    "compact": (Trial((Ask("a"),), hook=True, handles="per_request"), 0),
    "resume": (Trial((Ask("a", pause=True), Resume("a")), hook=False), 1),
}


def trials(size: int, dead: int) -> list[Trial]:
    history = long_history(size, dead)
    return [
        Trial(t.steps, hook=t.hook, handles=t.handles, history=history, ledger=False)
        for t, _ in KINDS.values()
    ]


def measure(
    size: int, dead: int, python: str | None, rounds: int = 1
) -> dict[tuple[str, bool], tuple[int, float]]:
    """Each kind's reads and CPU seconds at its measured step, bare and wrapped (alternating
    round by round; the median time)."""
    chosen = trials(size, dead)
    reads: dict[tuple[str, bool], int] = {}
    times: dict[tuple[str, bool], list[float]] = {}
    for _ in range(rounds):
        for wrapped in (False, True):
            records: list[Record] = (
                run_trials(chosen, (wrapped,))
                if python is None
                else run_in(python, chosen, (wrapped,))
            )
            for (kind, (_, step)), record in zip(KINDS.items(), records, strict=True):
                reads[kind, wrapped] = reads_per_step(record)[step]
                times.setdefault((kind, wrapped), []).append(record["cpu"][step])
    return {key: (reads[key], statistics.median(times[key])) for key in reads}


async def _window(url: str, size: int) -> float:
    """Seconds the SDK's whole-history replacement leaves a ``RedisSession`` without its
    history: from the clear's return to the add's (``_replace_underlying_session_items``
    before 0.24.0, and a compaction's on a store without a snapshot)."""
    import redis.asyncio
    from agents.extensions.memory import RedisSession

    client = redis.asyncio.from_url(url)
    store = RedisSession(f"window-{size}", redis_client=client)
    items = list(long_history(size, 0))
    try:
        await store.add_items(items)
        await store.clear_session()
        start = time.perf_counter()
        await store.add_items(items)
        return time.perf_counter() - start
    finally:
        await store.clear_session()
        await client.aclose()


def replacement_window() -> None:
    """The window printed for 1,000 and 10,000 items on a throwaway Redis (median of 5)."""
    from approval_compaction.lab.stores import redis

    if redis.available() is not None:
        print(f"no Redis here ({redis.available()}): the replacement window is not measured")
        return
    with redis.ThrowawayRedis() as server:
        for size in (1_000, 10_000):
            times = [asyncio.run(_window(server.url(0), size)) for _ in range(5)]
            print(f"Redis, {size:,} items: the history is absent "
                  f"{statistics.median(times) * 1e3:.1f} ms between clear and add")  # fmt: skip


def main() -> None:
    if "PYTHONDONTWRITEBYTECODE" in os.environ:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        os.execve(sys.executable, [sys.executable, *sys.argv], env)
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--release", help="run in this release's environment (make envs)")
    parser.add_argument("--sizes", type=int, nargs="*", help="only these history sizes")
    parser.add_argument("--rounds", type=int, default=3, help="rounds below 100,000 items")
    parser.add_argument(
        "--window", action="store_true", help="only the SDK's replacement window on Redis"
    )
    options = parser.parse_args()
    if options.window:
        replacement_window()
        return
    python = None
    if options.release:
        from approval_compaction.lab.releases import environments

        python = str(environments.cached_environment(options.release).python)
    measure(1_000, 0, python)  # warm: imports, the SDK's first run
    shapes = [s for s in SHAPES if not options.sizes or s[0] in options.sizes]
    print(f"{'items':>8} {'dead':>6} {'kind':>8} {'reads bare':>10} {'wrapped':>8} "
          f"{'cpu s bare':>10} {'wrapped':>8}")  # fmt: skip
    for size, dead in shapes:
        found = measure(size, dead, python, options.rounds if size < 100_000 else 1)
        stored = len(long_history(size, dead))
        for kind in KINDS:
            (bare_reads, bare_s), (reads, seconds) = found[kind, False], found[kind, True]
            print(f"{stored:>8,} {dead:>6,} {kind:>8} {bare_reads:>10} {reads:>8} "
                  f"{bare_s:>10.3f} {seconds:>8.3f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
