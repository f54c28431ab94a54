"""Doctor throughput on every backend: scan against a raw read, the in-database scan, repair,
and peak memory as the store grows.

For each backend (a SQLite file; databases on a throwaway PostgreSQL and MariaDB with durable
commits; a throwaway Redis; a SQLite file of ``EncryptedSession`` envelopes):

- the scan of a store of ``--sessions`` sessions of ``--items`` items (a third each healthy,
  poisoned and pending), in items/s, against a *raw read* of the same rows in the same order
  with nothing judged: through SQLAlchemy's async engine, the way ``SQLAlchemySession`` and the
  doctor before issue 22 read (the issue's baseline), and through the doctor's own reader
  (``sqlite3`` for a file, SQLAlchemy for a URL, pipelined ``LRANGE`` for Redis); each the
  median of ``--rounds`` warm runs;
- the in-database scan (``doctor scan --in-database``: the SQL query ``doctor sql`` prints) on
  the same store, against the Python scan;
- peak Python memory of a scan (tracemalloc, a separate pass) on stores of 10%, 30% and 100% of
  that many sessions: it must stay flat as the number of sessions grows (the scan streams);
- ``doctor repair --apply`` of ``--repair`` poisoned sessions of the same length (backup, one
  transaction per session judged again inside its lock, read back through the SDK): sessions/s.

``python benchmarks/doctor_throughput.py`` runs the issue's sizes (10,000 x 50; 1,000 repaired);
``--sessions 1000 --repair 100`` is a quick look; ``--backends sqlite,redis`` picks backends.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from approval_compaction.doctor import indb, repair
from approval_compaction.doctor.scan import reports
from approval_compaction.doctor.stores import MESSAGES_TABLE, SESSIONS_TABLE, opened
from approval_compaction.doctor.verdict import POISONED
from approval_compaction.lab.stores import mariadb, postgres, redis, synthetic

NewStore = Callable[[str], str]
KEY = "q2H3pO4J0m3S6u7Yc8bC9dE0fG1hI2jK3lM4nO5pQ6r="  # a benchmark's key, made for it


async def scan_once(text: str) -> int:
    items = 0
    async with opened(text) as store:
        async for report in reports(store):
            items += report.items + report.unreadable
    return items


async def own_reader(text: str) -> int:
    """The doctor's reader with nothing judged: every text of every session, in read order."""
    items = 0
    async with opened(text) as store:
        async for unit in store.units():
            items += len(unit.texts)
    return items


async def sqlalchemy_read(text: str) -> int:
    """The same rows in the same order through SQLAlchemy's async engine, nothing parsed."""
    from sqlalchemy import text as sql
    from sqlalchemy.ext.asyncio import create_async_engine

    url = text if "://" in text else f"sqlite+aiosqlite:///{text}"
    order = "m.id" if "://" not in text else "m.created_at, m.id"
    query = sql(
        f"SELECT s.session_id, m.message_data FROM {SESSIONS_TABLE} s LEFT JOIN {MESSAGES_TABLE} m "
        f"ON m.session_id = s.session_id ORDER BY s.session_id, {order}"
    ).execution_options(yield_per=2000)
    engine = create_async_engine(url)
    items = 0
    try:
        async with engine.connect() as conn:
            result = await conn.stream(query)
            async for batch in result.partitions():
                items += sum(1 for row in batch if row[1] is not None)
    finally:
        await engine.dispose()
    return items


async def in_database(text: str) -> int:
    async with opened(text) as store:
        return len(await indb.find(store))


def median_seconds(
    run: Callable[[str], Awaitable[int]], text: str, rounds: int
) -> tuple[int, float]:
    """The count and the median wall seconds of ``rounds`` runs, after one warm-up run."""
    count = asyncio.run(run(text))
    walls = []
    for _ in range(rounds):
        start = time.perf_counter()
        asyncio.run(run(text))
        walls.append(time.perf_counter() - start)
    return count, statistics.median(walls)


def peak_scan_memory(text: str) -> float:
    tracemalloc.start()
    tracemalloc.reset_peak()
    asyncio.run(scan_once(text))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def generate(new_store: NewStore, name: str, count: int, length: int, mix: tuple[str, ...],
             key: str | None) -> str:  # fmt: skip
    text = new_store(name)
    start = time.perf_counter()
    asyncio.run(synthetic.generate(text, count, length, mix, key=key))
    print(f"  generated {name}: {count:,} x {length} in {time.perf_counter() - start:.1f} s")
    return text


def bench(backend: str, new_store: NewStore, args: argparse.Namespace, folder: Path) -> None:
    key = KEY if backend.startswith("encrypted") else None
    print(f"{backend}:", flush=True)
    big = generate(new_store, "scan_full", args.sessions, args.items, synthetic.MIX, key)
    items, scan_s = median_seconds(scan_once, big, args.rounds)
    print(f"  scan: {items:,} items in {scan_s:.2f} s = {items / scan_s:,.0f} items/s "
          f"(median of {args.rounds})")  # fmt: skip
    baselines = [("the doctor's own reader", own_reader)]
    if backend in ("sqlite", "postgresql", "mariadb", "encrypted-sqlite"):
        baselines.insert(0, ("SQLAlchemy's async engine", sqlalchemy_read))
    for name, reader in baselines:
        _, raw_s = median_seconds(reader, big, args.rounds)
        print(f"  raw read through {name}: {items / raw_s:,.0f} items/s; "
              f"scan/raw time ratio {scan_s / raw_s:.2f}")  # fmt: skip
    if backend in ("sqlite", "postgresql", "mariadb"):
        found, db_s = median_seconds(in_database, big, args.rounds)
        ratio = db_s / scan_s
        print(f"  in-database scan: {found:,} sessions to repair in {db_s:.2f} s = "
              f"{items / db_s:,.0f} items/s; in-database/Python time {ratio:.2f}")  # fmt: skip
    sizes = sorted({max(1, args.sessions // 10), max(1, args.sessions * 3 // 10)})
    stores = {n: generate(new_store, f"scan_{n}", n, args.items, synthetic.MIX, key) for n in sizes}
    stores[args.sessions] = big
    for count, text in sorted(stores.items()):
        print(
            f"  peak Python memory, scan of {count:>6,} sessions: {peak_scan_memory(text):6.2f} MiB"
        )
    poisoned = generate(new_store, "repair", args.repair, args.items, (POISONED,), key)
    start = time.perf_counter()
    result = asyncio.run(repair.apply(poisoned, folder / f"{backend}-backup.jsonl"))
    seconds = time.perf_counter() - start
    print(
        f"  repair --apply of {args.repair:,} poisoned sessions: {seconds:.1f} s wall "
        f"({result.count('repaired'):,} repaired, {args.repair / seconds:,.0f} sessions/s; "
        f"backup {(folder / f'{backend}-backup.jsonl').stat().st_size / 2**20:.1f} MiB)",
        flush=True,
    )


@contextmanager
def servers(wanted: list[str]) -> Iterator[dict[str, NewStore]]:
    """A way to make a new store on each wanted backend whose server is installed."""
    made: dict[str, NewStore] = {}
    with ExitStack() as stack:
        if {"postgresql"} & set(wanted):
            if (reason := postgres.available()) is None:
                made["postgresql"] = stack.enter_context(
                    postgres.ThrowawayPostgres(fsync=True)
                ).create_database
            else:
                print(f"postgresql: skipped ({reason})")
        if "mariadb" in wanted:
            if (reason := mariadb.available()) is None:
                made["mariadb"] = stack.enter_context(
                    mariadb.ThrowawayMariaDB(durable=True)
                ).create_database
            else:
                print(f"mariadb: skipped ({reason})")
        if "redis" in wanted:
            if (reason := redis.available()) is None:
                server = stack.enter_context(redis.ThrowawayRedis())
                numbers = iter(range(1, 256))
                made["redis"] = lambda _name: server.url(next(numbers))
            else:
                print(f"redis: skipped ({reason})")
        yield made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--items", type=int, default=50)
    parser.add_argument("--repair", type=int, default=1_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--backends", default="sqlite,postgresql,mariadb,redis,encrypted-sqlite")
    args = parser.parse_args()
    os.environ["SESSION_ENCRYPTION_KEY"] = KEY  # how the doctor finds the benchmark's key
    wanted = args.backends.split(",")
    with tempfile.TemporaryDirectory(prefix="doctor-bench-") as name, servers(wanted) as made:
        folder = Path(name)
        files = iter(range(10**6))
        made["sqlite"] = made["encrypted-sqlite"] = lambda store: str(
            folder / f"{store}-{next(files)}.db"
        )
        for backend in wanted:
            if backend in made:
                bench(backend, made[backend], args, folder)


if __name__ == "__main__":
    main()
