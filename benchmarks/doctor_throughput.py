"""Doctor throughput: scan and repair on generated stores, on SQLite and on PostgreSQL.

For each backend (a SQLite file; a database on a throwaway PostgreSQL server with fsync on):

- scan throughput on a store of ``--sessions`` sessions of ``--items`` items (a third each
  healthy, poisoned and pending): sessions/s and items/s, the median of ``--rounds`` scans;
- peak Python memory of a scan (tracemalloc, a separate pass) on stores of 10%, 30% and 100% of
  that many sessions: it must stay flat as the number of sessions grows (the scan streams);
- repair of ``--repair`` poisoned sessions of the same length: the wall time of
  ``doctor repair --apply`` (backup, one transaction per session, read back through the SDK).

``python benchmarks/doctor_throughput.py`` runs the issue's sizes (10,000 x 50; 1,000 repaired);
``--sessions 1000 --repair 100`` is a quick look.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from approval_compaction.doctor import repair
from approval_compaction.doctor.scan import reports
from approval_compaction.doctor.stores import opened
from approval_compaction.doctor.verdict import POISONED
from approval_compaction.testing import synthetic
from approval_compaction.testing.postgres import ThrowawayPostgres, available

NewStore = Callable[[str], str]


async def scan_once(text: str) -> tuple[int, int]:
    sessions = items = 0
    async with opened(text) as store:
        async for report in reports(store):
            sessions += 1
            items += report.items + report.unreadable
    return sessions, items


def timed_scan(text: str, rounds: int) -> tuple[int, int, float, float]:
    """Sessions, items, and the median wall and CPU seconds (CPU: this process only)."""
    walls, cpus = [], []
    for _ in range(rounds):
        start, cpu = time.perf_counter(), time.process_time()
        sessions, items = asyncio.run(scan_once(text))
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return sessions, items, statistics.median(walls), statistics.median(cpus)


def peak_scan_memory(text: str) -> float:
    tracemalloc.start()
    tracemalloc.reset_peak()
    asyncio.run(scan_once(text))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def generate(new_store: NewStore, name: str, count: int, length: int, mix: tuple[str, ...]) -> str:
    text = new_store(name)
    start = time.perf_counter()
    asyncio.run(synthetic.generate(text, count, length, mix))
    print(f"  generated {name}: {count:,} x {length} in {time.perf_counter() - start:.1f} s")
    return text


def bench(backend: str, new_store: NewStore, args: argparse.Namespace, folder: Path) -> None:
    print(f"{backend}:")
    big = generate(new_store, "scan_full", args.sessions, args.items, synthetic.MIX)
    sessions, items, seconds, cpu = timed_scan(big, args.rounds)
    print(
        f"  scan {sessions:,} sessions / {items:,} items: {seconds:.2f} s wall (median of "
        f"{args.rounds}) = {sessions / seconds:,.0f} sessions/s, {items / seconds:,.0f} items/s; "
        f"{cpu:.2f} s CPU = {sessions / cpu:,.0f} sessions/s per core"
    )
    sizes = sorted({max(1, args.sessions // 10), max(1, args.sessions * 3 // 10)})
    stores = {n: generate(new_store, f"scan_{n}", n, args.items, synthetic.MIX) for n in sizes}
    stores[args.sessions] = big
    for count, text in sorted(stores.items()):
        print(
            f"  peak Python memory, scan of {count:>6,} sessions: {peak_scan_memory(text):6.2f} MiB"
        )
    poisoned = generate(new_store, "repair", args.repair, args.items, (POISONED,))
    start = time.perf_counter()
    result = asyncio.run(repair.apply(poisoned, folder / f"{backend}-backup.jsonl"))
    seconds = time.perf_counter() - start
    print(
        f"  repair --apply of {args.repair:,} poisoned sessions: {seconds:.1f} s wall "
        f"({result.count('repaired'):,} repaired, {args.repair / seconds:,.0f} sessions/s; "
        f"backup {(folder / f'{backend}-backup.jsonl').stat().st_size / 2**20:.1f} MiB)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--items", type=int, default=50)
    parser.add_argument("--repair", type=int, default=1_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--backends", default="sqlite,postgresql")
    args = parser.parse_args()
    wanted = args.backends.split(",")
    with tempfile.TemporaryDirectory(prefix="doctor-bench-") as name:
        folder = Path(name)
        if "sqlite" in wanted:
            bench("sqlite", lambda store: str(folder / f"{store}.db"), args, folder)
        if "postgresql" in wanted:
            reason = available()
            if reason is not None:
                print(f"postgresql: skipped ({reason})")
                return
            with ThrowawayPostgres(fsync=True) as server:
                bench("postgresql", server.create_database, args, folder)


if __name__ == "__main__":
    main()
