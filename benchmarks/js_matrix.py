"""The JS study's cost: the 16-case matrix against its floor, the Python matrix, and the sweep.

Prints the median wall time (and CPU seconds, every process included) of:
- the floor: ``node -e "await import('@openai/agents')"``, a bare import of the pinned release;
- the Node harness alone running the 16 cases over HTTP, the stand-in already serving
  (``harness``): the issue's goal is within 2x the floor;
- ``python -m approval_compaction js-matrix`` as a user runs it (Python, the stand-in, Node);
- ``python -m approval_compaction matrix --model responses``, the Python SDK's 16 cases over
  the same stand-in (in process);
and, with ``--sweep``, ``js-sweep`` over ``--releases`` releases with an empty cache of the
project's installs (npm's own download cache as it is) and then warm, against a floor of one
bare import per release.

``PYTHONDONTWRITEBYTECODE`` is unset, so Python imports use bytecode caches as a user's do.

    python benchmarks/js_matrix.py [--rounds N] [--sweep] [--releases N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from approval_compaction import paths
from approval_compaction.js.harness import DRIVER, Plan
from approval_compaction.wire.server import running


def timed(command: list[str], env: dict[str, str], stdin: str | None = None) -> tuple[float, float]:
    """The command's wall and CPU seconds (its children included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        command, input=stdin, text=True, check=True, env=env, cwd=paths.ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def report(name: str, samples: list[tuple[float, float]], floor: float | None = None) -> float:
    wall = statistics.median(s[0] for s in samples)
    cpu = statistics.median(s[1] for s in samples)
    ratio = f"  {wall / floor:4.1f}x the floor" if floor else ""
    print(f"{name:<34} {wall:6.2f} s wall  {cpu:6.2f} s CPU{ratio}")
    return wall


def matrices(rounds: int, env: dict[str, str]) -> None:
    node = ["node", "--input-type=module", "-e", "await import('@openai/agents')"]
    py = [sys.executable, "-m", "approval_compaction"]
    results: dict[str, list[tuple[float, float]]] = {}
    with running(conversations=True) as server:
        spec = {
            **{k: v for k, v in Plan().__dict__.items() if k != "cases"},
            "positions": [0],
            "cases": [c.as_dict() for c in Plan().cases],
            "base_url": server.base_url,
            "scratch": tempfile.gettempdir(),
            "label": "bench",
            "results": str(Path(tempfile.gettempdir()) / "js-matrix-bench.jsonl"),
        }
        timed(node, env)  # warm the file cache once, untimed
        for _ in range(rounds):  # interleaved: load on the machine touches each alike
            results.setdefault("floor: node import", []).append(timed(node, env))
            harness = ["node", str(DRIVER)]
            results.setdefault("harness: 16 cases", []).append(
                timed(harness, env, json.dumps(spec))
            )
            results.setdefault("js-matrix (whole command)", []).append(
                timed([*py, "js-matrix", "--format", "json"], env)
            )
            results.setdefault("Python matrix --model responses", []).append(
                timed([*py, "matrix", "--model", "responses", "--format", "json"], env)
            )
    floor = report("floor: node import", results.pop("floor: node import"))
    for name, samples in results.items():
        report(name, samples, floor)


def sweep(releases: int, env: dict[str, str]) -> None:
    from approval_compaction.js.packages import releases as all_releases

    chosen = all_releases()[-releases:]
    node = ["node", "--input-type=module", "-e", "await import('@openai/agents')"]
    floor = sum(timed(node, env)[1] for _ in chosen)
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        cold_env = {**env, "XDG_CACHE_HOME": cache}
        command = [sys.executable, "-c", (
            "import sys; from pathlib import Path; "
            "from approval_compaction.js.sweep import sweep;"
            f"sweep({chosen!r}, Path({out!r}))"
        )]  # fmt: skip
        cold = timed(command, cold_env)
        warm = timed(command, cold_env)
    print(f"js-sweep, {len(chosen)} releases: cold {cold[0]:.0f} s wall ({cold[1]:.0f} s CPU), "
          f"warm {warm[0]:.0f} s wall ({warm[1]:.0f} s CPU); floor {floor:.0f} s CPU "
          f"({len(chosen)} bare imports): warm CPU {warm[1] / floor:.1f}x")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sweep", action="store_true")
    parser.add_argument("--releases", type=int, default=64)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    matrices(args.rounds, env)
    if args.sweep:
        sweep(args.releases, env)


if __name__ == "__main__":
    main()
