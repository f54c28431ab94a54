"""Start-up and the matrix as whole processes, as a user runs them, with warm bytecode caches.

Prints the median wall time of:
- ``python -m approval_compaction --help`` (target: at most 0.3 s);
- ``python -c "import approval_compaction"`` (target: at most 0.1 s);
- ``python -m approval_compaction matrix`` (16 cases, the table) and ``matrix --format json``
  against the original report's 8-case script, run the same way in the same environment,
  interleaved so that machine load affects both alike; the ratio is the median of each round's
  ratio (issue 34's target: at most 0.9 for the table).
- the CPU time of the matrix and the script (user + system, every process they start): the
  matrix spends more CPU than the script over two cores; on a loaded machine the wall ratio
  depends on what the other processes leave of the second core;
- with ``--baseline SRC`` (a ``src/`` folder of another commit, e.g. from ``git archive``), the
  same ``matrix`` run from that code in the same rounds, for a before/after.

The report's script is read from ``../shared/seed/`` beside the checkout (it is not part of this
repository); without it the ratio is skipped. ``PYTHONDONTWRITEBYTECODE`` is unset for every
command, so imports use bytecode caches as a user's do.

    python benchmarks/startup.py [--rounds N] [--baseline SRC]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from approval_compaction import paths

SEED_FOLDER = paths.ROOT.parent / "shared" / "seed"
INDENT = "   "  # the report's code block is indented by three spaces
SCRIPT = "report's script"


def seed_script(folder: Path = SEED_FOLDER) -> str | None:
    """The original report's script, from its first ``from __future__`` line to the end."""
    for report in sorted(folder.glob("*.txt")) if folder.is_dir() else []:
        lines = report.read_text().splitlines()
        start = next((i for i, line in enumerate(lines) if "from __future__" in line), None)
        if start is not None:
            return "\n".join(line.removeprefix(INDENT) for line in lines[start:]) + "\n"
    return None


CPU: dict[str, list[float]] = {}  # each command's CPU seconds (user + system), by name


def wall(command: list[str], env: dict[str, str], name: str = "") -> float:
    """The command's wall time; its CPU time (with every process it started) goes to ``CPU``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        command, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    CPU.setdefault(name, []).append(cpu)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="a src/ folder to run matrix from as well")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    python = sys.executable
    commands = {
        "--help": [python, "-m", "approval_compaction", "--help"],
        "import": [python, "-c", "import approval_compaction"],
        "matrix": [python, "-m", "approval_compaction", "matrix"],
        "matrix json": [python, "-m", "approval_compaction", "matrix", "--format", "json"],
    }
    envs = dict.fromkeys(commands, env)
    if args.baseline is not None:
        commands["baseline matrix"] = commands["matrix"]
        envs["baseline matrix"] = env | {"PYTHONPATH": str(args.baseline.resolve())}
    script = seed_script()
    with tempfile.TemporaryDirectory(prefix="startup-bench-") as folder:
        if script is not None:
            seed = Path(folder) / "seed_report.py"
            seed.write_text(script)
            commands["report's script"] = [python, str(seed)]
            envs["report's script"] = env
        for name, command in commands.items():  # warm the bytecode caches
            wall(command, envs[name])
        times: dict[str, list[float]] = {name: [] for name in commands}
        for round_ in range(args.rounds):
            order = list(commands) if round_ % 2 == 0 else list(reversed(commands))
            for name in order:
                times[name].append(wall(commands[name], envs[name], name))
    median = {name: statistics.median(values) for name, values in times.items()}
    print(f"median of {args.rounds} rounds, warm bytecode caches, {os.cpu_count()} cores")
    print(f"  --help:                      {median['--help']:.3f} s (target <= 0.3)")
    print(f"  import approval_compaction:  {median['import']:.3f} s (target <= 0.1)")
    print(f"  matrix (16, the table):      {median['matrix']:.2f} s")
    print(f"  matrix --format json (16):   {median['matrix json']:.2f} s")
    if "baseline matrix" in median:
        print(f"  baseline matrix (16):        {median['baseline matrix']:.2f} s")
    if script is None:
        print(f"  report's script: not found under {SEED_FOLDER}; ratio skipped")
        return
    script_seconds = median["report's script"]
    print(f"  report's script (8 cases):   {script_seconds:.2f} s")
    for name in ("matrix", "matrix json", "baseline matrix"):
        if name in times:
            ratio = paired_ratio(times[name], times["report's script"])
            print(f"  ratio {name + '/script:':22}{ratio:.2f} (target <= 0.9)")
    cpu = {name: statistics.median(CPU[name][-args.rounds :]) for name in times}
    print("  CPU seconds (median): " + ", ".join(f"{k} {v:.2f}" for k, v in cpu.items()))


def paired_ratio(numerators: list[float], denominators: list[float]) -> float:
    """The median of each round's ratio: load that slows one round slows both of its runs."""
    return statistics.median(n / d for n, d in zip(numerators, denominators, strict=True))


if __name__ == "__main__":
    main()
