"""The JS workaround's cost per turn: wall time and store reads of one plain turn and of one
resume (a pause approved), on a store of 1,000, 10,000 and 100,000 items, bare and with the
session wrapped by js/workaround.mjs, and the time to store one batch of 16,000 items
(``js/workaround-turn.mjs``: the store fuzzer's store, model and compaction endpoint, in one
Node process; the hook says no, so the store keeps its size). Reads are the items read over
the store's size. Bare and wrapped alternate round by round; medians (of ten times the rounds
at 1,000 items, three times for the batch). Node keeps no cache
between runs; ``PYTHONDONTWRITEBYTECODE`` is unset, as for every benchmark, for the Python side.

    .venv/bin/python benchmarks/js_workaround_turn.py [rounds]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from approval_compaction import paths
from approval_compaction.js.harness import node_binary

SIZES = (1_000, 10_000, 100_000)
BATCH = 16_000


def measure(rounds: int) -> list[dict[str, object]]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    plan = {"sizes": list(SIZES), "rounds": rounds, "batch": BATCH}
    done = subprocess.run(
        [node_binary(), str(paths.ROOT / "js" / "workaround-turn.mjs")],
        input=json.dumps(plan), capture_output=True, text=True, check=True, env=env,
        cwd=paths.ROOT,
    )  # fmt: skip
    return [json.loads(line) for line in done.stdout.splitlines()]


def main(rounds: int) -> None:
    rows = measure(rounds)
    found = {(r["size"], r["kind"], r["wrapped"]): r for r in rows}
    print(f"{'stored':>8} {'what':>7} {'bare s':>8} {'wrapped s':>10} {'bare reads':>11} "
          f"{'wrapped reads':>14}")  # fmt: skip
    for size in SIZES:
        for kind in ("turn", "resume"):
            bare, wrapped = found[size, kind, False], found[size, kind, True]
            reads = [f"{int(str(r['items_read'])) / size:.2f}x" for r in (bare, wrapped)]
            print(f"{size:>8} {kind:>7} {bare['seconds']:>8.3f} {wrapped['seconds']:>10.3f} "
                  f"{reads[0]:>11} {reads[1]:>14}")  # fmt: skip
    bare, wrapped = found[BATCH, "batch", False], found[BATCH, "batch", True]
    print(f"one batch of {BATCH} items: bare {float(str(bare['seconds'])) * 1000:.0f} ms, "
          f"wrapped {float(str(wrapped['seconds'])) * 1000:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
