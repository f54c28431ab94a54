"""Explore speed: examples per second, and examples to the report's violation from a random start.

Examples per second: one round of the search on the pinned release with every kind, every step
(the late resume's ``keep`` among them) and the memory and JSON boundaries, the seed fixed; the
tally counts each example hypothesis ran, and the late resumes among its steps.
Examples to find: for several seeds, a generate-only round that fails on the first example
whose next turn sends an orphan output (``next_turn_input_paired``); the median count.
Issue 34's goals: at least 30 examples per second, at most 50 examples to the first find (median
over seeds 0 to 9). Run it with ``PYTHONPATH`` set to another commit's ``src/`` for a before.

    python benchmarks/explore_speed.py
"""

from __future__ import annotations

import statistics
import time

from approval_compaction.lab.explore.search import Options, first_known, search

SEEDS = tuple(range(10))
BUDGET = 400


def main() -> None:
    options = Options(examples=60, seed=0, rounds=1, boundaries=("memory", "json"))
    start = time.perf_counter()
    result = search(options)
    seconds = time.perf_counter() - start
    examples, steps = result.tally["examples"], result.tally["steps"]
    print(f"search round:           {examples} examples, {steps} steps in {seconds:.1f} s")
    print(f"examples per second:    {examples / seconds:.2f}")
    print(f"steps per second:       {steps / seconds:.2f}")
    print(f"late resumes:           {result.tally.get('late resumes', 0)}")
    counts = []
    for seed in SEEDS:
        start = time.perf_counter()
        counts.append(first_known(Options(seed=seed, boundaries=("memory", "json")), BUDGET))
        print(f"  seed {seed}: {counts[-1]} in {time.perf_counter() - start:.1f} s", flush=True)
    found = [c for c in counts if c is not None]
    print(f"examples to first find: {counts} (seeds {SEEDS}; None: not within {BUDGET})")
    if found:
        print(f"median examples to find the report's violation: {statistics.median(found)}")


if __name__ == "__main__":
    main()
