"""Explore on every driver: time and memory to the first finding, and examples per second, per
SDK, against the Python search.

For each SDK, in a fresh process run with Python's default bytecode caching (warm: one run
first, not counted, fills the caches), with the seed fixed:
- to first finding: the search's first round on the pinned release until an example breaks any
  invariant (before shrinking): the wall time from the process's start (imports, the driver's
  start: Node, or the release's interpreter importing google-adk or langchain), the examples it
  took, and
  the peak resident size of the search process and of its driver process;
- examples per second: a round of ``--examples`` examples that looks for nothing (no invariant
  fails an example), so every example runs to its end: the search's own rate, start-up and the
  drivers' controls (run once per settings, in the first round) apart.
The Python search runs its conversations in-process (``lab.explore.search``, every step, the
memory and JSON boundaries); the drivers take each step in their own process (``driven``).

    python benchmarks/explore_drivers.py [--sdk python,js,adk,langchain] [--examples 60] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from typing import Any

STARTED = time.perf_counter()


def _peak(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # KiB on Linux


def _python(examples: int, seed: int) -> dict[str, Any]:
    from hypothesis import seed as seeded
    from hypothesis.stateful import run_state_machine_as_test

    from approval_compaction.analysis.invariants import INVARIANTS
    from approval_compaction.lab.explore.rules import Setup, Violation, machine
    from approval_compaction.lab.explore.search import Options, _settings, own_draws
    from approval_compaction.openai_agents.kinds import available

    kinds, _ = available()
    two = ("memory", "json")

    def run(targets: frozenset[str], budget: int) -> tuple[int, bool]:
        setup = Setup(kinds, boundaries=two, targets=targets)
        settings = _settings(Options(examples=budget, seed=seed))
        try:
            with own_draws():
                run_state_machine_as_test(seeded(seed)(machine(setup)), settings=settings)
        except Violation:
            return setup.tally["examples"], True
        return setup.tally["examples"], False

    found, hit = run(frozenset(INVARIANTS), 400)
    first = time.perf_counter() - STARTED
    started = time.perf_counter()
    ran, _ = run(frozenset(), examples)
    rate = ran / (time.perf_counter() - started)
    return {"first_s": first, "first_examples": found if hit else None, "rate": rate}


def _driver(sdk: str, examples: int, seed: int) -> dict[str, Any]:
    from hypothesis import seed as seeded
    from hypothesis.stateful import run_state_machine_as_test

    from approval_compaction.analysis.invariants import INVARIANTS
    from approval_compaction.lab.explore import driven
    from approval_compaction.lab.explore.rules import Setup, Violation
    from approval_compaction.lab.explore.sdks import driven as registry
    from approval_compaction.lab.explore.search import Options, _settings, own_draws

    line = registry(sdk)
    driver = line.open(line.pinned())
    controls: dict[Any, Any] = {}  # each settings' control runs once, as in one search
    try:

        def run(targets: frozenset[str], budget: int) -> tuple[int, bool]:
            setup = Setup(line.moves.kinds, targets=targets)  # type: ignore[arg-type]
            drive = driven.Drive(line.moves, driver, setup, controls)
            settings = _settings(Options(examples=budget, seed=seed))
            try:
                with own_draws():
                    explorer = seeded(seed)(driven.machine(drive))
                    run_state_machine_as_test(explorer, settings=settings)
            except Violation:
                return setup.tally["examples"], True
            return setup.tally["examples"], False

        found, hit = run(frozenset(INVARIANTS), 400)
        first = time.perf_counter() - STARTED
        started = time.perf_counter()
        ran, _ = run(frozenset(), examples)
        rate = ran / (time.perf_counter() - started)
    finally:
        driver.close()
    return {
        "first_s": first,
        "first_examples": found if hit else None,
        "rate": rate,
        "driver_mb": _peak(resource.RUSAGE_CHILDREN),
        "version": driver.version,
    }


def one(sdk: str, examples: int, seed: int) -> None:
    found = _python(examples, seed) if sdk == "python" else _driver(sdk, examples, seed)
    found["search_mb"] = _peak(resource.RUSAGE_SELF)
    print(json.dumps(found), flush=True)


def measure(sdk: str, examples: int, seed: int) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    command = [sys.executable, __file__, "--one", sdk]
    command += ["--examples", str(examples), "--seed", str(seed)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sdk", default="python,js,adk,langchain")
    parser.add_argument("--examples", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one(args.one, args.examples, args.seed)
        return
    rows = []
    for sdk in args.sdk.split(","):
        measure(sdk, 5, args.seed)  # warm the bytecode caches and the driver's
        rows.append((sdk, measure(sdk, args.examples, args.seed)))
    python = dict(rows).get("python")
    print(f"seed {args.seed}; examples per second over {args.examples} examples")
    print(
        f"{'sdk':8} {'to first finding':>17} {'examples':>9} {'search MB':>10} "
        f"{'driver MB':>10} {'examples/s':>11} {'vs python':>10}"
    )
    for sdk, found in rows:
        ratio = f"{found['rate'] / python['rate']:.2f}x" if python else "-"
        print(
            f"{sdk:8} {found['first_s']:>15.1f} s {found['first_examples'] or '-':>9} "
            f"{found['search_mb']:>10.0f} {found.get('driver_mb', 0):>10.0f} "
            f"{found['rate']:>11.2f} {ratio:>10}"
        )


if __name__ == "__main__":
    main()
