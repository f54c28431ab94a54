"""Wall time of the two test tiers on a fresh clone with an empty cache, and their slowest tests.

Clones this checkout into a scratch folder, points ``XDG_CACHE_HOME`` at an empty folder there
(no release environment, no sdist, no uv cache made by hand), then times ``make test`` and
``CI=true make test-all`` as a new machine runs them (``make test`` first, on the clone's own
fresh ``.venv``), each with pytest's ten slowest tests. Run it from the repository root:
``python benchmarks/tiers_wall_time.py``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({proc.returncode}): {proc.stdout[-3000:]}")
    return elapsed, proc.stdout


def slowest(output: str, count: int = 10) -> list[str]:
    """The first ``count`` lines of pytest's ``--durations`` block."""
    lines = output.splitlines()
    start = next(
        (i for i, line in enumerate(lines) if "slowest" in line and "durations" in line), None
    )
    if start is None:
        return []
    found = [line for line in lines[start + 1 :] if re.match(r"^\d+\.\d+s ", line)]
    return found[:count]


def summary(output: str) -> str:
    found = [line for line in output.splitlines() if re.search(r"\d+ passed", line)]
    return found[-1].strip("= ") if found else "no summary"


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = options.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="approval-compaction-tiers-"))
    clone = scratch / "p"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(XDG_CACHE_HOME=str(scratch / "cache"), UV_CACHE_DIR=str(scratch / "cache" / "uv"))
    env.pop("CI", None)
    durations = "PYTEST_ADDOPTS=--durations=10"
    rows = []
    for label, command, extra in (
        ("make test", ["make", "test"], {}),
        ("CI=true make test-all", ["make", "test-all"], {"CI": "true"}),
    ):
        elapsed, output = timed(["env", durations, *command], clone, {**env, **extra})
        rows.append((label, elapsed, summary(output), slowest(output)))
    for label, elapsed, result, lines in rows:
        print(f"{label}: {elapsed:.0f} s wall ({result})")
        for line in lines:
            print(f"    {line}")
    if not args.keep:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
