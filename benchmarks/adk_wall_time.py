"""The ADK study's costs, with warm bytecode caches, on the pinned release's environment.

Prints the median wall time of:
- a bare start: the driver's interpreter importing ``google.adk``'s runner, agents and database
  service, plus one scripted run (one case, in memory), as one process: the floor;
- the 16-case matrix in one kind (``adk-matrix``'s work: one driver process for the cases and a
  second one for the eight that resume from the database); its ratio to the floor (goal: at
  most 2x);
and the size of the release environments in the cache (``approval-compaction/py3.X/adk``), and
the lines the ADK work adds outside its driver (``git diff --numstat`` against ``--base``;
``adk/`` (top level and its folder ``src/approval_compaction/adk/``), ``tests/adk/``, notebook 13
and ``data/`` left out), file by file.

    python benchmarks/adk_wall_time.py [--rounds N] [--base main]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from approval_compaction.adk.harness import DRIVER, Plan, environ, run_plan
from approval_compaction.adk.packages import cache_folder, pinned, release_environment
from approval_compaction.lab import paths
from approval_compaction.study.scenario import Case

ONE = Case("run", "approve", "on", "memory")
DRIVER_OWN = (
    "adk/",
    "src/approval_compaction/adk/",
    "tests/adk/",
    "notebooks/13-",
    "data/",
)


def _floor(python: Path) -> float:
    plan = {"kind": "window-0", "cases": [ONE.as_dict()], "label": "b", "situations": []}
    with tempfile.TemporaryDirectory() as scratch:
        spec = json.dumps({**plan, "scratch": scratch})
        started = time.perf_counter()
        subprocess.run(
            [str(python), str(DRIVER)],
            input=spec, capture_output=True, text=True, check=True, env=environ(), cwd=scratch,
        )  # fmt: skip
        return time.perf_counter() - started


def _matrix(python: Path) -> float:
    started = time.perf_counter()
    run_plan(Plan("window-0"), python)
    return time.perf_counter() - started


def _size(folder: Path) -> int:
    done = subprocess.run(["du", "-sk", str(folder)], capture_output=True, text=True, check=False)
    return int(done.stdout.split()[0]) * 1024 if done.stdout else 0


def _outside(base: str) -> list[tuple[str, int]]:
    done = subprocess.run(
        ["git", "diff", "--numstat", f"{base}...HEAD"],
        cwd=paths.ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    rows = []
    for line in done.stdout.splitlines():
        added, _, name = line.split("\t")
        if added != "-" and not name.startswith(DRIVER_OWN):
            rows.append((name, int(added)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--base", default="main")
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    python = release_environment(pinned()).python
    _floor(python)  # warm the bytecode caches
    floors, matrices = [], []
    for _ in range(args.rounds):
        floors.append(_floor(python))
        matrices.append(_matrix(python))
    floor, matrix = statistics.median(floors), statistics.median(matrices)
    print(f"import google.adk + one scripted run: {floor:.2f} s")
    print(f"16-case matrix (window-0): {matrix:.2f} s, {matrix / floor:.1f}x the floor (goal 2x)")
    envs = sorted(p for p in cache_folder().iterdir() if p.is_dir() and p.name[0].isdigit())
    total = _size(cache_folder())  # one du: files uv linked into several count once
    print(f"release environments: {len(envs)}, {total / 2**20:.0f} MiB in {cache_folder()}")
    rows = _outside(args.base)
    print(f"lines added outside the ADK driver: {sum(n for _, n in rows)} in {len(rows)} files")
    for name, added in rows:
        print(f"  {added:5d}  {name}")


if __name__ == "__main__":
    main()
