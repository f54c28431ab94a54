"""Explore's memory: the peak resident size of an ``explore`` command, as a user runs it.

Runs ``python -m approval_compaction explore --examples 150 --seed 1`` (issue 34's 27-round
search; ``--rounds`` bounds it) into a scratch folder, echoes its progress lines, and prints its
wall time, rounds and the child's peak RSS (goal: under 500 MB). Run it with ``PYTHONPATH`` set to
another commit's ``src/`` for a before.

    python benchmarks/explore_memory.py [--rounds N] [--examples N] [--seed N]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--examples", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="explore-memory-") as folder:
        command = [sys.executable, "-m", "approval_compaction", "explore"]
        command += ["--examples", str(args.examples), "--seed", str(args.seed)]
        command += ["--rounds", str(args.rounds), "--folder", folder]
        start = time.perf_counter()
        done = subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True, check=True)
        seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux
    print(done.stdout.splitlines()[0])
    print(f"wall {seconds:.0f} s, peak RSS {peak:.0f} MB (goal < 500)")


if __name__ == "__main__":
    main()
