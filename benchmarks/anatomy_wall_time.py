"""Wall time of ``make fix-anatomy`` and of its parts: each approval kind's ddmin from nothing
(its sets and seconds each), the whole command (configurations and seconds each), and one
configuration judged the old way (a copied environment and a fresh interpreter) against the
bench's (a forked child loading the patched texts), the report's case first or all of them.

Needs the cached environments of 0.23.1 and 0.24.0 (``make envs``). The whole command writes
its record to a scratch file, never to ``data/``.

    python benchmarks/anatomy_wall_time.py [--no-command] [--no-search] [--kinds function,...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from approval_compaction.lab.explore.kinds import call_id
from approval_compaction.lab.mechanism.anatomy import load_anatomy
from approval_compaction.lab.releases.environments import default_envs
from approval_compaction.lab.releases.patched import Patched, patch_from_text, throwaway_environment
from approval_compaction.lab.releases.sweep import judged
from approval_compaction.openai_agents import anatomy
from approval_compaction.openai_agents.bench import Bench
from approval_compaction.openai_agents.kinds import call_item


def one_configuration(envs: Path) -> None:
    """The minimal fix on 0.23.1, judged the old way and on the bench."""
    diff = anatomy.path_diff(envs)
    fix = [h for h in diff.hunks if h.name in load_anatomy().minimal_fix]
    started = time.monotonic()
    patched = Patched(anatomy.PINNED, (patch_from_text("fix.diff", diff.on_old(fix)),))
    with throwaway_environment(patched, envs) as env:
        anatomy.outcome(judged(env, timeout=600))
    copied = time.monotonic() - started
    with Bench(envs, jobs=1) as bench:
        started = time.monotonic()
        bench.run(anatomy.PINNED, {}, anatomy.FUNCTION.steps()[:1])  # the worker started, once
        start_up = time.monotonic() - started
        times = {}
        for name, first in (("all cases", None), ("first verdict", anatomy.FUNCTION.kind)):
            lab = anatomy.Lab(envs, report=lambda _: None, bench=bench)
            started = time.monotonic()
            lab.run(anatomy.PINNED, diff.old_files(fix), "fix", first=first)
            times[name] = time.monotonic() - started
    print("one configuration (the function kind's minimal fix on 0.23.1, its 16 cases):")
    print(f"  copied environment, fresh interpreter, three modes: {copied:6.1f} s")
    print(f"  bench worker started (once per release and core):  {start_up:6.1f} s")
    for name, took in times.items():
        print(f"  bench ({name}):{' ' * (36 - len(name))}{took:6.1f} s")


def searches(envs: Path, kinds: tuple[anatomy.KindSpec, ...]) -> None:
    """Each kind's ddmin from nothing (a lab of its own, nothing kept), one after another."""
    diff = anatomy.path_diff(envs)
    print(f"ddmin from nothing over {len(diff.hunks)} hunks, per kind (both cores):")
    with Bench(envs) as bench:
        for spec in kinds:
            lab = anatomy.Lab(envs, report=lambda _: None, kinds=(spec,), bench=bench)
            minimal, tried = anatomy.search_minimal_fix(diff, lab, spec.kind)
            took, sets = lab.timings[f"ddmin {spec.kind}"]
            names = ", ".join(h.name for h in minimal)
            print(
                f"  {spec.label:12} {names:45} {sets:3} sets {took:6.1f} s "
                f"({took / max(sets, 1):.1f} s a set)"
            )


def command(kinds: str | None) -> None:
    """``python -m approval_compaction fix-anatomy`` into a scratch file, timed."""
    with tempfile.TemporaryDirectory(prefix="anatomy-bench-") as folder:
        output = Path(folder) / "fix-anatomy.json"
        argv = [sys.executable, "-m", "approval_compaction", "fix-anatomy", "--output", str(output)]
        argv += ["--kinds", kinds] if kinds else []
        started = time.monotonic()
        proc = subprocess.run(argv, capture_output=True, text=True, check=False)
        took = time.monotonic() - started
    if proc.returncode != 0:
        sys.exit(f"fix-anatomy failed: {proc.stderr.strip().splitlines()[-1:]}")
    print(f"make fix-anatomy: {took:.0f} s wall ({took / 60:.1f} min)")
    print(f"  {proc.stdout.strip()}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--no-command", action="store_true", help="skip the whole command")
    parser.add_argument("--no-search", action="store_true", help="skip the ddmin searches")
    parser.add_argument("--kinds", help="approval kinds (default: all)")
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # warm runs keep their bytecode
    envs = default_envs()
    pauses = {k: call_item(k, call_id(k, 1, 0)) for k in anatomy.OTHER_KINDS}  # type: ignore[arg-type]
    kinds = anatomy.chosen_kinds(args.kinds, pauses)
    one_configuration(envs)
    if not args.no_search:
        searches(envs, kinds)
    if not args.no_command:
        command(args.kinds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
