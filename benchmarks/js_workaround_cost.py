"""The JS workaround's cost: the 16-case matrix in the four plans on the pinned @openai/agents,
bare and with the session wrapped by js/workaround.mjs, interleaved, wall time per round (one
stand-in, one Node process per plan, as the sweep runs them), and the patched package's.

    .venv/bin/python benchmarks/js_workaround_cost.py [rounds]
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

from approval_compaction import paths
from approval_compaction.js.harness import run_plans
from approval_compaction.js.patched import patched_folder
from approval_compaction.js.sweep import PLANS


def timed(workaround: bool, package: Path) -> float:
    plans = [replace(plan, workaround=workaround) for plan in PLANS]
    started = time.perf_counter()
    run_plans(plans, package)
    return time.perf_counter() - started


def main(rounds: int) -> None:
    patched = patched_folder()
    timed(False, paths.ROOT)  # warm: node's and the stand-in's first start
    bare: list[float] = []
    wrapped: list[float] = []
    fixed: list[float] = []
    for _ in range(rounds):
        bare.append(timed(False, paths.ROOT))
        wrapped.append(timed(True, paths.ROOT))
        fixed.append(timed(False, patched))
    for name, times in (("bare", bare), ("workaround", wrapped), ("patched", fixed)):
        print(f"{name:>10}: median {statistics.median(times):.2f} s over {rounds} rounds")
    ratio = statistics.median(w / b for w, b in zip(wrapped, bare, strict=True))
    print(f"workaround / bare: {ratio:.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
