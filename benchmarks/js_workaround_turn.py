"""The JS workaround's cost per turn: wall time and store reads of one plain turn and of one
resume (a pause approved), on a store of 1,000, 10,000 and 100,000 items, bare and with the
session wrapped by js/workaround.mjs; the plain turn also on histories holding 500 and 10,000 dead
calls (calls the user moved on from, 50 to a model answer; 10,000 of them make a history of at
least 10,208 items); the time to store one batch of 16,000 items; and how long a compaction's
replacement leaves the store empty (the SDK's clear, then add) on a store answering 0 to 10 ms
late, and on one that offers ``applyHistoryTransaction``. ``js/workaround-turn.mjs`` runs it:
the store fuzzer's store, model and compaction endpoint, in one Node process; the hook says no
for the turns, so the store keeps its size, and yes for the replacement. Reads are store calls
per turn and the items they returned over the store's size. Bare and wrapped alternate round by
round, after a warm-up turn that loads every module; medians (of ten times the rounds at 1,000
items, three times for the batch). ``PYTHONDONTWRITEBYTECODE`` is unset, as for every benchmark.

    .venv/bin/python benchmarks/js_workaround_turn.py [rounds] [--window-only]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from approval_compaction import paths
from approval_compaction.js.harness import node_binary

SIZES = (1_000, 10_000, 100_000)
DEAD = (0, 500, 10_000)
BATCH = 16_000
WINDOW_SIZES = (1_000, 10_000)
LATENCIES = (0, 1, 3, 10)  # milliseconds the store answers late


def _node(plan: dict[str, Any]) -> list[dict[str, Any]]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(
        [node_binary(), str(paths.ROOT / "js" / "workaround-turn.mjs")],
        input=json.dumps(plan), capture_output=True, text=True, check=True, env=env,
        cwd=paths.ROOT,
    )  # fmt: skip
    return [json.loads(line) for line in done.stdout.splitlines()]


def turns(rounds: int) -> None:
    rows = _node({"sizes": list(SIZES), "dead": list(DEAD), "rounds": rounds, "batch": BATCH})
    print(f"{'stored':>8} {'dead':>6} {'what':>7} {'bare s':>8} {'wrapped s':>10} "
          f"{'bare reads':>16} {'wrapped reads':>16}")  # fmt: skip
    pairs: dict[tuple[Any, ...], dict[bool, dict[str, Any]]] = {}
    for row in rows:
        if row["kind"] != "batch":
            pairs.setdefault((row["size"], row["dead"], row["kind"]), {})[row["wrapped"]] = row
    for (size, dead, kind), side in pairs.items():
        bare, wrapped = side[False], side[True]
        reads = [f"{r['reads']} ({int(r['items_read']) / size:.2f}x)" for r in (bare, wrapped)]
        print(f"{size:>8} {dead:>6} {kind:>7} {bare['seconds']:>8.3f} {wrapped['seconds']:>10.3f} "
              f"{reads[0]:>16} {reads[1]:>16}")  # fmt: skip
    found = {r["wrapped"]: r for r in rows if r["kind"] == "batch"}
    print(f"one batch of {BATCH} items: bare {found[False]['seconds'] * 1000:.0f} ms, "
          f"wrapped {found[True]['seconds'] * 1000:.0f} ms")  # fmt: skip


def window(rounds: int) -> None:
    plan = {"window": {"sizes": list(WINDOW_SIZES), "latencies": list(LATENCIES)}, "rounds": rounds}
    rows = _node(plan)
    print("a compaction's replacement (clear, then add), ms (median): from the read of the history")
    print("it replaces to the clear (another process's write there is cleared unseen), and from")
    print("the clear to the add (the store holds no history); one transaction has neither")
    print(f"{'stored':>8} {'late ms':>8} {'bare read>clear':>16} {'bare clear>add':>15} "
          f"{'wrapped read>clear':>19} {'wrapped clear>add':>18} {'transaction':>12}")  # fmt: skip
    found = {(r["size"], r["latency"], r["transactions"], r["wrapped"]): r for r in rows}
    for size in WINDOW_SIZES:
        for late in LATENCIES:
            bare, wrapped = found[size, late, False, False], found[size, late, False, True]
            one = found[size, late, True, True]
            assert bare["compacted"] and wrapped["compacted"] and one["compacted"]
            assert one["read"] == one["empty"] == 0
            print(f"{size:>8} {late:>8} {bare['read']:>16.2f} {bare['empty']:>15.2f} "
                  f"{wrapped['read']:>19.2f} {wrapped['empty']:>18.2f} {'none':>12}")  # fmt: skip


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    count = int(args[0]) if args else 3
    if "--window-only" not in sys.argv:
        turns(count)
    window(count * 3)
