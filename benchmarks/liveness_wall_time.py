"""Liveness wall time: ``doctor check`` and the liveness runs against N, and explore's speed.

``doctor check`` (the SDK's defaults, pinned release) at N = 10, 20, 50, 100 pause positions:
as the CLI runs it (``--later 10``: each position continued for ten later turns, the liveness
answer) and without later turns (``--later 0``: the rows only); the plain turns are taken once and
each position forks the store, so the time per position should stay flat. For contrast, the
rows replayed from the start at every position (what ``doctor check`` did before), at N = 10 and
20 only: it grows with N squared. The liveness runs: one situation continued for N later turns
(``clean``, the control; ``abandoned``, stuck on the pinned release; ``abandoned`` with the
workaround), input mode. Each figure is the median wall time of ``ROUNDS`` warm runs for
N <= 20 and one warm run above (one run of each kind first, untimed), with
``PYTHONDONTWRITEBYTECODE`` unset (the script re-executes itself without it, so imports read
cached bytecode).

Explore: one round of the search on the pinned release, seed 0, every kind, the memory and JSON
boundaries, 60 examples, measured as ``benchmarks/explore_speed.py`` measures it (the examples
hypothesis ran, shrinking included, over the round's wall time), with the liveness steps (the
default) and without them (``actions=("ask", "decide")``, the search before them).

The liveness data (``--data``, alone): ``make liveness`` as a user runs it (the command in a
fresh interpreter, 276 runs on the pinned and the newest release, its wall time and the CPU
time of it and its workers), and the sweep's liveness part on the pinned release (the probe's
``situations``: every situation in every mode, 10 later turns), each the median of ``ROUNDS``
warm runs, on the default model and on the scripted one. With ``PYTHONPATH`` naming another
checkout's ``src`` it times that checkout's code (whose defaults may differ), so one script
measures before and after.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace

if os.environ.get("PYTHONDONTWRITEBYTECODE"):  # time imports as a user's process makes them
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    os.execve(sys.executable, [sys.executable, *sys.argv], env)

from approval_compaction.doctor.check import (  # noqa: E402
    check_config,
    check_liveness,
    replayed_check,
    run_check,
)
from approval_compaction.fix.workaround import defer_compaction_while_pending  # noqa: E402
from approval_compaction.lab.explore.search import Options, search  # noqa: E402
from approval_compaction.openai_agents.later_turns import run_situation  # noqa: E402

SIZES = (10, 20, 50, 100)
REPLAYED = (10, 20)
ROUNDS = 3


def median_seconds(run: Callable[[int], object], n: int, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run(n)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def rounds_for(n: int) -> int:
    """``ROUNDS`` for the small sizes; one run of the large ones (each takes tens of seconds)."""
    return ROUNDS if n <= 20 else 1


def row(label: str, seconds: dict[int, float]) -> None:
    cells = "  ".join(f"N={n}: {s:6.2f} s ({1000 * s / n:5.0f} ms/N)" for n, s in seconds.items())
    first, last = min(seconds), max(seconds)
    growth = seconds[last] / seconds[first]
    print(f"{label:<34} {cells}  ×{growth:.1f} for ×{last / first:g} in N")


def liveness_command(rounds: int = ROUNDS) -> tuple[float, float]:
    """``python -m approval_compaction liveness`` into a scratch file: the median wall time
    and CPU time (its own and its workers') of ``rounds`` runs."""
    import resource
    import subprocess
    import tempfile

    walls, cpus = [], []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(rounds):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            command = [sys.executable, "-m", "approval_compaction", "liveness"]
            subprocess.run(
                [*command, "--output", f"{folder}/liveness.json"],
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            walls.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def sweep_part(model: str | None, rounds: int = ROUNDS) -> float:
    """The probe's liveness situations on the installed release (``model`` None: the default),
    the median wall time of ``rounds`` warm runs."""
    from approval_compaction.lab.releases.probe import situations
    from approval_compaction.openai_agents.later_turns import poisoned_history

    history = poisoned_history()
    extra = () if model is None else (model,)
    situations(history, [], "pinned", 2, *extra)  # warm
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        situations(history, [], "pinned", 10, *extra)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def data() -> None:
    import approval_compaction

    print(f"the liveness data, median of {ROUNDS} warm runs, code: {approval_compaction.__file__}")
    wall, cpu = liveness_command()
    print(f"{'make liveness (276 runs)':<40} {wall:6.1f} s wall, {cpu:6.1f} s CPU")
    print(f"{'sweep liveness part, default model':<40} {sweep_part(None):6.2f} s wall")
    try:
        print(f"{'sweep liveness part, scripted model':<40} {sweep_part('scripted'):6.2f} s wall")
    except TypeError:  # a checkout whose probe takes no model: its default is the scripted one
        print(f"{'sweep liveness part, scripted model':<40} (the default above)")


def main() -> None:
    if "--data" in sys.argv[1:]:
        data()
        return
    cfg = check_config()
    kinds: dict[str, Callable[[int], object]] = {
        "doctor check --later 10": lambda n: check_liveness(cfg, n, 10),
        "doctor check --later 0": lambda n: run_check(cfg, n),
        "liveness: clean": lambda n: run_situation("clean", "input", n),
        "liveness: abandoned": lambda n: run_situation("abandoned", "input", n),
        "liveness: abandoned + workaround": lambda n: run_situation(
            "abandoned", "input", n, wrap=defer_compaction_while_pending
        ),
    }
    for run in kinds.values():  # warm: imports, the SDK's first run, caches
        run(2)
    replayed_check(cfg, 2)
    print(
        f"wall time, median of {ROUNDS} warm runs for N <= 20, one warm run above "
        "(2 cores shared with other work)"
    )
    for label, run in kinds.items():
        row(label, {n: median_seconds(run, n, rounds_for(n)) for n in SIZES})
    replayed = {n: median_seconds(lambda n: replayed_check(cfg, n), n, 1) for n in REPLAYED}
    row("replayed from the start (before)", replayed)
    base = Options(examples=60, seed=0, rounds=1, boundaries=("memory", "json"))
    for label, options in (
        ("explore with the liveness steps", base),
        ("explore with ask and decide only", replace(base, actions=("ask", "decide"))),
    ):
        start = time.perf_counter()
        result = search(options)
        seconds = time.perf_counter() - start
        examples, steps = result.tally["examples"], result.tally["steps"]
        print(
            f"{label:<34} {examples} examples, {steps} steps in {seconds:.1f} s: "
            f"{examples / seconds:.2f} examples/s, {steps / seconds:.2f} steps/s"
        )


if __name__ == "__main__":
    main()
