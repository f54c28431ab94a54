"""Explore speed: examples per second, and examples to the report's violation from a random start.

Examples per second: one round of the search on the pinned release with every kind, every step
(the late resume's ``keep`` among them) and the memory and JSON boundaries, the seed fixed; the
tally counts each example hypothesis ran, and the late resumes among its steps.
Examples to find: for several seeds, a generate-only round that fails on the first example
whose next turn sends an orphan output (``next_turn_input_paired``), with the steps of the first
round ``explore`` takes (``Options.first``); the median count.
Issue 34's goals: at least 30 examples per second, at most 50 examples to the first find (median
over seeds 0 to 9). Run it with ``PYTHONPATH`` set to another commit's ``src/`` for a before.

    python benchmarks/explore_speed.py
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from approval_compaction.lab.explore import search as search_module
from approval_compaction.lab.explore.search import Options, first_known, search

SEEDS = tuple(range(10))
BUDGET = 400
TWO = ("memory", "json")


def staged(**options: Any) -> Options:
    """Options with the first round ``explore`` takes (a commit without stages: every step)."""
    first = {"first": search_module.REPORT_STEPS} if hasattr(search_module, "REPORT_STEPS") else {}
    return Options(**options, **first)


def one_round(label: str, options: Options) -> None:
    start = time.perf_counter()
    result = search(options)
    seconds = time.perf_counter() - start
    examples, steps = result.tally["examples"], result.tally["steps"]
    print(f"{label}: {examples} examples, {steps} steps in {seconds:.1f} s", flush=True)
    print(f"  examples per second:  {examples / seconds:.2f}  (goal >= 30)")
    print(f"  late resumes:         {result.tally.get('late resumes', 0)}")


def main() -> None:
    one_round("one round, every step", Options(examples=60, seed=0, rounds=1, boundaries=TWO))
    one_round("one round, every step, with process", Options(examples=60, seed=0, rounds=1))
    one_round("explore's first round", staged(examples=60, seed=0, rounds=1, boundaries=TWO))
    counts, total, spent = [], 0, 0.0
    for seed in SEEDS:
        start = time.perf_counter()
        counts.append(first_known(staged(seed=seed, boundaries=TWO), BUDGET))
        seconds = time.perf_counter() - start
        total, spent = total + (counts[-1] or BUDGET), spent + seconds
        print(f"  seed {seed}: {counts[-1]} in {seconds:.1f} s", flush=True)
    found = [c for c in counts if c is not None]
    print(f"examples to first find: {counts} (seeds {SEEDS}; None: not within {BUDGET})")
    print(f"  examples per second while finding: {total / spent:.2f}")
    if found:
        print(f"median examples to first find: {statistics.median(found)} (goal <= 50)")


if __name__ == "__main__":
    main()
