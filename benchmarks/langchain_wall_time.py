"""The LangChain study's costs, with warm bytecode caches, on the pinned release's environment.

Prints the median wall time of:
- a bare start: the driver's interpreter importing ``langchain``'s agent, its middleware,
  ``ChatOpenAI`` and the checkpointers, plus one run of one case (in memory, its model requests
  to a stand-in already serving), as one process: the floor;
- the 16-case matrix in one setting (``langchain-matrix``'s work: the stand-in started, one
  driver process for the cases and a second interpreter for the eight that resume from the
  SQLite file); its ratio to the floor (goal: at most 2x);
and the sweep's time per release (from ``--sweep-log``, a ``langchain-sweep`` progress log), the
size of the release environments in the cache (``approval-compaction/py3.X/langchain``), and
the lines the LangChain work adds outside its folder (``git diff --numstat`` against ``--base``;
``langchain/`` (top level and the package's), ``tests/langchain/``, notebook 14 and ``data/``
left out), file by file.

    python benchmarks/langchain_wall_time.py [--rounds N] [--base main] [--sweep-log FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from approval_compaction.lab import paths
from approval_compaction.langchain.harness import DRIVER, Plan, environ, run_plans
from approval_compaction.langchain.packages import cache_folder, pinned, release_environment
from approval_compaction.study.scenario import Case
from approval_compaction.wire.server import running

ONE = Case("run", "approve", "on", "memory")
FOLDER_OWN = (
    "langchain/",
    "src/approval_compaction/langchain/",
    "tests/langchain/",
    "notebooks/14-",
    "data/",
)


def _floor(python: Path, base_url: str) -> float:
    plan = {"kind": "keep-1", "api": "chat", "cases": [ONE.as_dict()], "label": "b"}
    with tempfile.TemporaryDirectory() as scratch:
        spec = json.dumps([{**plan, "scratch": scratch, "base_url": base_url}])
        started = time.perf_counter()
        subprocess.run(
            [str(python), str(DRIVER)],
            input=spec, capture_output=True, text=True, check=True, env=environ(), cwd=scratch,
        )  # fmt: skip
        return time.perf_counter() - started


def _matrix(python: Path) -> float:
    started = time.perf_counter()
    run_plans([Plan("keep-1", "chat")], python)
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
        if added != "-" and not name.startswith(FOLDER_OWN):
            rows.append((name, int(added)))
    return rows


def _sweep(log: Path) -> str:
    """The sweep's releases and seconds, from its progress lines (``N/M releases, S s``)."""
    found = re.findall(r"(\d+)/\d+ releases, (\d+) s", log.read_text())
    if not found:
        return "no progress line"
    done, seconds = map(int, found[-1])
    return f"{done} releases in {seconds} s, {seconds / done:.0f} s a release"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--base", default="main")
    parser.add_argument("--sweep-log", type=Path, help="a langchain-sweep progress log")
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    python = release_environment(pinned()).python
    floors, matrices = [], []
    with running(conversations=True) as server:
        _floor(python, server.base_url)  # warm the bytecode caches
        for _ in range(args.rounds):
            floors.append(_floor(python, server.base_url))
    for _ in range(args.rounds):
        matrices.append(_matrix(python))
    floor, matrix = statistics.median(floors), statistics.median(matrices)
    print(f"import langchain + one run of one case: {floor:.2f} s")
    print(
        f"16-case matrix (keep-1 chat): {matrix:.2f} s, {matrix / floor:.1f}x the floor (goal 2x)"
    )
    if args.sweep_log is not None:
        print(f"sweep: {_sweep(args.sweep_log)}")
    envs = sorted(p for p in cache_folder().iterdir() if p.is_dir() and p.name[0].isdigit())
    total = _size(cache_folder())  # one du: files uv linked into several count once
    print(f"release environments: {len(envs)}, {total / 2**20:.0f} MiB in {cache_folder()}")
    rows = _outside(args.base)
    print(
        f"lines added outside the LangChain folder: {sum(n for _, n in rows)} in {len(rows)} files"
    )
    for name, added in rows:
        print(f"  {added:5d}  {name}")


if __name__ == "__main__":
    main()
