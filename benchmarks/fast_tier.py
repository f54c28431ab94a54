"""What ``make test`` costs, step by step, in CPU seconds and wall seconds (target: about 3 min).

Runs the steps of ``make test`` in this checkout as its Makefile does (``ruff check``, ``ruff
format --check``, ``mypy``, ``lint-imports``, then ``pytest``: the fast tier), ``--runs`` times,
and prints for each run each step's wall time and CPU time (user + system, with every process it
started). The CPU time is the figure to compare between two commits: on a machine shared with
other work the wall time grows with the load, the CPU time barely. Then, from the last run, the
CPU time of pytest's collection, of each test directory, and of the slowest tests (the plugin
``benchmarks/cpu_per_test.py`` times each test in CPU seconds).

Caches are warm, as on a developer's machine: ``PYTHONDONTWRITEBYTECODE`` is unset and mypy,
ruff and import-linter keep their caches; ``--cold-mypy`` adds a mypy run on an empty cache (a
fresh clone's first ``make test``). Run it from the repository root after ``make setup``:

    python benchmarks/fast_tier.py [--runs 2] [--top 25] [--cold-mypy]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
LINT = {
    "ruff check": [str(BIN / "ruff"), "check", "."],
    "ruff format": [str(BIN / "ruff"), "format", "--check", "."],
    "mypy": [str(BIN / "mypy")],
    "lint-imports": [str(BIN / "lint-imports")],
}


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """The command's wall and CPU seconds (it and every process it started)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({proc.returncode}):\n{proc.stdout[-3000:]}")
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, used


def directory(nodeid: str) -> str:
    """``tests/<subpackage>`` for a test in one, else its file."""
    parts = nodeid.split("::")[0].split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else "/".join(parts)


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--runs", type=int, default=2)
    options.add_argument("--top", type=int, default=25, help="how many of the slowest tests")
    options.add_argument("--cold-mypy", action="store_true", help="also mypy on an empty cache")
    args = options.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # each line as its step ends
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.pop("CI", None)
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(ROOT / "benchmarks"), env.get("PYTHONPATH")])
    )
    scratch = Path(tempfile.mkdtemp(prefix="fast-tier-"))
    record = scratch / "cpu.json"
    env["CPU_PER_TEST"] = str(record)
    pytest = [str(BIN / "python"), "-m", "pytest", "-q", "-p", "cpu_per_test"]
    if args.cold_mypy:
        wall, used = timed([*LINT["mypy"], "--cache-dir", str(scratch / "mypy")], env)
        print(f"mypy on an empty cache: {wall:.1f} s wall, {used:.1f} s CPU")
    timed(LINT["mypy"], env)  # warm its cache, as a developer's is
    for run in range(1, args.runs + 1):
        total_wall = total_cpu = 0.0
        for name, command in [*LINT.items(), ("pytest", pytest)]:
            wall, used = timed(command, env)
            total_wall, total_cpu = total_wall + wall, total_cpu + used
            print(f"run {run}: {name:<13} {wall:6.1f} s wall {used:6.1f} s CPU")
        print(f"run {run}: {'make test':<13} {total_wall:6.1f} s wall {total_cpu:6.1f} s CPU")
    found = json.loads(record.read_text())
    tests: dict[str, float] = found["tests"]
    print(f"\npytest: {len(tests)} tests, {sum(tests.values()):.1f} s CPU in tests, ", end="")
    print(f"{found['collection']:.1f} s CPU collecting")
    by_directory: Counter[str] = Counter()
    for nodeid, used in tests.items():
        by_directory[directory(nodeid)] += used
    print("CPU seconds by directory:")
    for name, used in by_directory.most_common(15):
        print(f"  {used:6.1f}  {name}")
    print(f"the {args.top} slowest tests, CPU seconds:")
    for nodeid, used in sorted(tests.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"  {used:6.1f}  {nodeid}")
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
