"""The live store of issue 22: ``doctor repair --apply`` on a 300-session SQLite store while
another process keeps appending to the same sessions through ``SQLiteSession``.

Prints how many appends the application made and how many are still in the store, and how many
sessions were repaired, left alone as changed since the scan, or failed verification. The
writer runs for the whole repair and ``--extra`` seconds after it.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from approval_compaction.doctor.repair import apply
from approval_compaction.doctor.stores import opened
from approval_compaction.doctor.verdict import POISONED
from approval_compaction.lab.stores import synthetic


async def app_rows(text: str) -> int:
    found = 0
    async with opened(text) as store:
        async for session in store.sessions():
            items, _ = session.items()
            found += sum(1 for i in items if str(i.get("content", "")).startswith("app-"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--items", type=int, default=12)
    parser.add_argument("--extra", type=float, default=1.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="doctor-live-") as name:
        folder = Path(name)
        text = str(folder / "store.db")
        asyncio.run(synthetic.generate(text, args.sessions, args.items, (POISONED,)))
        stop = folder / "stop"
        command = [sys.executable, "-m", "approval_compaction.testing.writer", text, str(stop)]
        writer = subprocess.Popen([*command, str(args.sessions)], stdout=subprocess.PIPE, text=True)
        assert writer.stdout is not None
        writer.stdout.readline()  # ready: the application is appending
        start = time.perf_counter()
        result = asyncio.run(apply(text, folder / "backup.jsonl"))
        seconds = time.perf_counter() - start
        time.sleep(args.extra)
        stop.touch()
        appended = int(writer.stdout.read().split()[-1])
        writer.wait(timeout=60)
        kept = asyncio.run(app_rows(text))
    print(f"repair --apply of {args.sessions} poisoned sessions in {seconds:.1f} s while the "
          f"application appended: {result.count('repaired')} repaired, "
          f"{result.count('changed since scan')} changed since the scan (left alone), "
          f"{result.count('verify failed')} failed verification; "
          f"{kept:,} of {appended:,} appends kept")  # fmt: skip


if __name__ == "__main__":
    main()
