"""The store fuzzer and a repair against a competing writer (issue 42).

Prints the store fuzzer's speed (``testing.storefuzz``: examples per second, each a random
SQLite store scanned, repaired and restored) and what it found (each broken promise, counted),
then ``repair --apply`` throughput on a store of poisoned sessions: alone, and while another
connection takes the write lock in bursts (``--burst`` ms held, ``--gap`` ms free), as an
application in WAL mode does, and while it holds the lock longer than the doctor waits
(``stores.LOCK_WAIT``: the repair stops in one line). Every figure is of warm runs: one untimed
run first, then the median of ``--rounds``. ``PYTHONDONTWRITEBYTECODE`` is unset (the script
runs itself again without it), so imports use bytecode caches as a user's do.

    python benchmarks/doctor_fuzz.py [--examples N] [--sessions N] [--burst MS] [--gap MS]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from approval_compaction.doctor.repair import RepairResult, apply
from approval_compaction.doctor.stores import LOCK_WAIT, WriteStopped
from approval_compaction.doctor.verdict import POISONED
from approval_compaction.lab.stores import synthetic
from approval_compaction.testing.storefuzz import StoreCase, run_case, store_cases


def fuzz(examples: int) -> tuple[float, Counter[str], int]:
    """Run ``examples`` generated stores: seconds, the broken promises, examples that wrote a
    backup (reached a repair's writes)."""
    found: Counter[str] = Counter()
    backups = 0

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(store_cases())
    def one(case: StoreCase) -> None:
        nonlocal backups
        with tempfile.TemporaryDirectory() as folder:
            for problem in run_case(case, Path(folder)):
                found[problem.replace(folder, "<folder>")[:120]] += 1
            backups += (Path(folder) / "b.jsonl").exists()

    start = time.perf_counter()
    one()
    return time.perf_counter() - start, found, backups


class Bursts(threading.Thread):
    """Another connection that holds the store's write lock ``burst`` s, then frees it ``gap`` s."""

    def __init__(self, path: Path, burst: float, gap: float) -> None:
        super().__init__(daemon=True)
        self.path, self.burst, self.gap = path, burst, gap
        self.stop, self.held = threading.Event(), 0

    def run(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        while not self.stop.is_set():
            conn.execute("BEGIN IMMEDIATE")
            self.held += 1
            self.stop.wait(self.burst)
            conn.execute("COMMIT")
            self.stop.wait(self.gap)
        conn.close()


def repair_once(sessions: int, items: int, writer: tuple[float, float] | None) -> tuple[float, str]:
    """One repair of a fresh store of poisoned sessions: seconds, and what it did."""
    with tempfile.TemporaryDirectory(prefix="doctor-fuzz-") as name:
        path = Path(name) / "store.db"
        asyncio.run(synthetic.generate(str(path), sessions, items, (POISONED,)))
        bursts = Bursts(path, *writer) if writer else None
        if bursts is not None:
            bursts.start()
        start = time.perf_counter()
        try:
            result: RepairResult | None = asyncio.run(apply(str(path), Path(name) / "b.jsonl"))
            said = ""
        except WriteStopped as stop:
            result, said = None, f"stopped: {stop}"
        seconds = time.perf_counter() - start
        if bursts is not None:
            bursts.stop.set()
            bursts.join()
    if result is not None:
        said = f"{result.count('repaired')} repaired"
        said += f", lock taken {bursts.held} times by the writer" if bursts else ""
    return seconds, said


def main() -> None:
    if "PYTHONDONTWRITEBYTECODE" in os.environ:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        os.execve(sys.executable, [sys.executable, *sys.argv], env)
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=200)
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--items", type=int, default=12)
    parser.add_argument("--burst", type=float, default=50.0, help="ms the writer holds the lock")
    parser.add_argument("--gap", type=float, default=50.0, help="ms the writer leaves it free")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    fuzz(3)  # warm: imports, the SDK, hypothesis
    seconds, found, backups = fuzz(args.examples)
    print(f"store fuzzer: {args.examples} examples in {seconds:.1f} s "
          f"({args.examples / seconds:.1f} per second), {backups} reached a repair's writes; "
          f"found: {sum(found.values()) or 'nothing'}")  # fmt: skip
    for problem, count in found.most_common():
        print(f"  {count} x {problem}")
    writers = [("alone", None), ("competing writer", (args.burst / 1000, args.gap / 1000)),
               ("writer holding past the wait", (LOCK_WAIT + 1, args.gap / 1000))]  # fmt: skip
    for label, competing in writers:
        repair_once(args.sessions, args.items, competing)  # warm
        runs = [repair_once(args.sessions, args.items, competing) for _ in range(args.rounds)]
        median = statistics.median(s for s, _ in runs)
        held = competing[0] * 1000 if competing else 0
        bursts = f" (lock held {held:g} ms of every {held + args.gap:g} ms)"
        said = runs[-1][1]
        rate = f" ({args.sessions / median:.0f} sessions/s)" if "stopped" not in said else ""
        print(f"repair --apply, {label}{bursts if competing else ''}: {args.sessions} sessions, "
              f"{median:.2f} s median of {args.rounds}{rate}; lock wait {LOCK_WAIT:g} s; "
              f"{said}")  # fmt: skip


if __name__ == "__main__":
    main()
