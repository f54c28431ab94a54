"""Wall time of a patched matrix run, cold (its scratch environment made) and warm, and of the
delta-debugging search for 0.24.0's minimal fix (wall time and patched runs).

The patch is the committed minimal fix (``data/fix-anatomy.json``); the cold run first removes
its scratch environment (this benchmark's own, under the cache's ``_patched`` folder), the warm
runs reuse it. The search runs ddmin from nothing (no results kept from an earlier run), as
``make fix-anatomy`` does. Needs the cached environments of 0.23.1 and 0.24.0 (``make sweep``).

    python benchmarks/patch_lab.py [--repeat N] [--no-search]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time

from approval_compaction.lab.mechanism.anatomy import load_anatomy
from approval_compaction.lab.mechanism.catalogue import PINNED
from approval_compaction.lab.releases.environments import default_envs
from approval_compaction.lab.releases.patched import (
    Patched,
    patch_from_text,
    patched_matrix,
    patched_root,
)
from approval_compaction.openai_agents.anatomy import Lab, path_diff, search_minimal_fix


def timed_matrix(patched: Patched) -> float:
    started = time.monotonic()
    rows = patched_matrix(patched)
    took = time.monotonic() - started
    broken = [r for r in rows if r.holds is not True]
    if broken:
        sys.exit(f"the minimal fix left {len(broken)} verdicts not holding: is the data stale?")
    return took


def patch_size(patch: str) -> tuple[int, int]:
    """A unified diff's added and removed lines (not its file headers)."""
    lines = [line for line in patch.splitlines() if not line.startswith(("+++ ", "--- "))]
    return sum(line.startswith("+") for line in lines), sum(line.startswith("-") for line in lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3, help="warm runs")
    parser.add_argument("--no-search", action="store_true", help="skip the ddmin search")
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # warm runs keep their bytecode
    envs = default_envs()
    fix = patch_from_text("minimal-fix.diff", load_anatomy().minimal_patch)
    patched = Patched(PINNED, (fix,))
    shutil.rmtree(patched_root(envs) / patched.key, ignore_errors=True)
    cold = timed_matrix(patched)
    warm = [timed_matrix(patched) for _ in range(args.repeat)]
    print(f"patched matrix ({patched.describe()}), 16 cases on both models:")
    print(f"  cold (scratch environment made): {cold:6.1f} s")
    print(f"  warm (median of {args.repeat}):             {statistics.median(warm):6.1f} s")
    if args.no_search:
        return 0
    lab = Lab(envs, report=lambda _: None)
    diff = path_diff(envs)
    minimal, tried = search_minimal_fix(diff, lab)
    took, runs = lab.timings["ddmin function_approval"]
    names = ", ".join(h.name for h in minimal)
    patch = diff.on_old(minimal)
    added, removed = patch_size(patch)
    files = len({h.path for h in minimal})
    print(f"ddmin over {len(diff.hunks)} hunks: {names}")
    print(
        f"  the minimal fix: {len(minimal)} hunk(s) in {files} file(s), +{added} -{removed} lines"
    )
    print(f"  {len(tried)} sets tried, {runs} patched runs, {took:.0f} s wall time")
    print(f"  {took / max(runs, 1):.1f} s per patched run (throwaway environment and probe)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
