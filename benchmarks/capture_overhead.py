"""Capture overhead: one case with full capture against the same case run bare.

Both run in this one process, interleaved, so that warm-up and machine load affect them alike.
Prints the median per-case time of each and their ratio (target: at most 1.25).
"""

from __future__ import annotations

import statistics
import time

from approval_compaction.openai_agents.harness import run_case
from approval_compaction.study.scenario import all_cases

ROUNDS = 5


def per_case_seconds(capture: bool) -> float:
    start = time.perf_counter()
    for case in all_cases():
        run_case(case, capture=capture)
    return (time.perf_counter() - start) / len(all_cases())


def main() -> None:
    per_case_seconds(True)  # warm imports, SQLite and the SDK's caches
    captured, bare = [], []
    for _ in range(ROUNDS):
        captured.append(per_case_seconds(True))
        bare.append(per_case_seconds(False))
    full, plain = statistics.median(captured), statistics.median(bare)
    print(f"cases per round:         {len(all_cases())} x {ROUNDS} rounds")
    print(f"per case, full capture:  {full * 1000:.1f} ms (median)")
    print(f"per case, bare:          {plain * 1000:.1f} ms (median)")
    print(f"ratio capture/bare:      {full / plain:.3f} (target <= 1.25)")


if __name__ == "__main__":
    main()
