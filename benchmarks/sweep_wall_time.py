"""Wall time of the full release sweep with a warm cache, against its floors; optionally cold.

Two floors, both in CPU time (user + system, every process counted):

- the import floor, releases x the CPU of a bare ``python -c "import agents"`` in one
  release's environment (warm bytecode, after one untimed import): what a sweep that only
  imported the SDK once per release would cost;
- the probe floor, the sum over releases of the CPU of that release's probe run alone, one at
  a time, exactly as the sweep starts it (``sweep.run_probe``, the liveness situations
  included): one interpreter per release importing the SDK and running every case, model,
  mode and situation, with nothing of the sweep around it (no threads, no judging, no merged
  files, no second release beside it). The difference between the two is the runs
  themselves; the difference between the sweep and the probe floor is the sweep's own cost.

The target (``TARGET_RATIO``) is for the sweep against the probe floor. The import floor
leaves out the runs, which cost more than the import (the SDK's runner, its sessions, the
``openai`` client's request transform): no sweep that runs them all can come near it, and its
ratio is printed for comparison only.

The warm sweep re-runs every release (``--refresh``) in the cached environments, writing to a
temporary file so ``data/sweep.json`` is left alone. ``--cold`` also times a sweep from an empty
uv cache and no environments (it downloads every release's dependencies from the index).

With ``--baseline SRC`` (the ``src/`` folder of another commit, e.g. from ``git archive``), the
same sweep also runs from that code, the two alternating ``--sweeps`` times each, so that the
machine's load (it is shared) falls on both alike; the figures are medians. CPU time is the
fairer measure on a loaded machine: wall time waits for other people's processes, CPU time does
not. On a subset of releases (``--versions``) the floors are of those releases.

    python benchmarks/sweep_wall_time.py [--versions SPEC] [--cold] [--repeat N]
        [--baseline SRC] [--sweeps N]
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

from approval_compaction.lab import paths
from approval_compaction.lab.releases.environments import (
    Environment,
    default_envs,
    install,
    uv_binary,
)
from approval_compaction.lab.releases.sweep import poisoned_file, run_probe
from approval_compaction.lab.releases.versions import load_releases, parse_versions
from approval_compaction.study.capture import sdk_version

TARGET_RATIO = 1.5


def timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall time and CPU time (user + system, the command and all it started) of a command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def sweep_seconds(
    versions: str | None, output: Path, env: dict[str, str], *extra: str
) -> tuple[float, float]:
    """Wall and CPU time of ``python -m approval_compaction sweep`` as a user runs it."""
    command = [sys.executable, "-m", "approval_compaction", "sweep", "--output", str(output)]
    command += [*(["--versions", versions] if versions else []), *extra]
    return timed(command, env)


def import_seconds(python: Path, repeat: int, env: dict[str, str]) -> tuple[float, float]:
    """Median wall and CPU time of a bare ``import agents`` in one release's environment, its
    bytecode written by one untimed import first (a user's environment has it)."""
    command = [str(python), "-c", "import agents"]
    timed(command, env)
    runs = [timed(command, env) for _ in range(repeat)]
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def parallel_import_seconds(python: Path, cores: int, repeat: int, env: dict[str, str]) -> float:
    """Median wall time of ``cores`` bare imports started at once: what the cores really give."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        procs = [
            subprocess.Popen([str(python), "-c", "import agents"], env=env) for _ in range(cores)
        ]
        if any(proc.wait() for proc in procs):
            raise RuntimeError("import agents failed")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def probe_seconds(envs: list[Environment], situations: Path) -> tuple[float, list[str]]:
    """CPU time of each release's probe run alone, one after another, as the sweep runs it
    (its liveness situations' forked workers included); and the releases it was unavailable on."""
    total, down = 0.0, []
    for env in envs:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        result = run_probe(env, situations=situations, lean=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        total += (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if "unavailable" in result:
            down.append(env.version)
    return total, down


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versions", help="releases to sweep (default: every one cached)")
    parser.add_argument("--cold", action="store_true", help="also time a cold-cache sweep")
    parser.add_argument("--repeat", type=int, default=5, help="import timings for the floor")
    parser.add_argument("--baseline", type=Path, help="a src/ folder to sweep from as well")
    parser.add_argument("--sweeps", type=int, default=1, help="warm sweeps of each code")
    args = parser.parse_args()
    cutoffs = load_releases(paths.DATA_FILES.release_dates)
    versions = parse_versions(args.versions, list(cutoffs))
    cores = os.cpu_count() or 1
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="sweep-bench-") as folder:
        # Warm: every environment built first (untimed, instant when cached), then a timed re-run.
        uv = uv_binary()
        releases = [Environment(default_envs() / v, v, cutoffs[v]) for v in versions]
        for release in releases:
            install(release, uv)
        pinned = Environment(default_envs() / sdk_version(), sdk_version(), cutoffs[sdk_version()])
        install(pinned, uv)
        load = os.getloadavg()[0]
        bare, bare_cpu = import_seconds(pinned.python, args.repeat, env)
        codes = {"this code": env}
        if args.baseline is not None:
            codes["baseline"] = env | {"PYTHONPATH": str(args.baseline.resolve())}
        timings: dict[str, list[tuple[float, float]]] = {name: [] for name in codes}
        for _ in range(args.sweeps):
            for name, code_env in codes.items():
                out = Path(folder) / f"{name.replace(' ', '-')}.json"
                timings[name].append(sweep_seconds(args.versions, out, code_env, "--refresh"))
        warm = statistics.median(w for w, _ in timings["this code"])
        warm_cpu = statistics.median(c for _, c in timings["this code"])
        together = parallel_import_seconds(pinned.python, cores, args.repeat, env)
        floor, floor_cpu = len(versions) * bare / cores, len(versions) * bare_cpu
        shared = len(versions) * together / cores
        probes_cpu, down = probe_seconds(releases, poisoned_file(Path(folder)))
        runs_cpu = probes_cpu - floor_cpu
        lines = [
            f"releases            {len(versions)}  (cores: {cores}, jobs: {cores})",
            f"load before         {load:.2f}  (1-minute load average; the machine is shared)",
            f"bare import agents  {bare:6.2f} s wall, {bare_cpu:.2f} s CPU"
            f"  (median of {args.repeat}, in {pinned.version}, warm bytecode)",
            f"warm-cache sweep    {warm:6.1f} s wall, {warm_cpu:.1f} s CPU",
            f"probe floor (CPU)   {probes_cpu:6.1f} s  (ratio {warm_cpu / probes_cpu:.2f},"
            f" target {TARGET_RATIO}; each release's probe alone, one at a time)",
            f"  its import, runs  {floor_cpu:6.1f} s, {runs_cpu:.1f} s"
            f"  (the runs: {runs_cpu / probes_cpu:.0%} of the probes' CPU)",
            f"import floor (CPU)  {floor_cpu:6.1f} s  (ratio {warm_cpu / floor_cpu:.2f};"
            " releases x import CPU, no runs: for comparison)",
            f"wall: import floor  {floor:6.1f} s  (ratio {warm / floor:.2f}; releases x import"
            f" wall / cores); {cores} at once {shared:.1f} s (ratio {warm / shared:.2f};"
            f" {cores} imports together took {together:.2f} s)",
        ]
        if down:
            lines.append(f"probe unavailable   {', '.join(down)}  (their probes end early)")
        if args.baseline is not None:
            base = statistics.median(w for w, _ in timings["baseline"])
            base_cpu = statistics.median(c for _, c in timings["baseline"])
            lines += [
                f"baseline sweep      {base:6.1f} s wall (ratio {base / floor:.2f}),"
                f" {base_cpu:.1f} s CPU (ratio {base_cpu / floor_cpu:.2f})",
            ]
            same = (Path(folder) / "this-code.json").read_bytes() == (
                Path(folder) / "baseline.json"
            ).read_bytes()
            lines.append(
                f"results             {'identical to' if same else 'DIFFER from'} the baseline's"
            )
        lines.append(f"sweeps              {args.sweeps} of each code, medians")
        print("\n".join(lines))
        if args.cold:
            cold_env = {**env, "UV_CACHE_DIR": str(Path(folder) / "uv-cache")}
            envs = Path(folder) / "envs"
            cold, _ = sweep_seconds(
                args.versions, Path(folder) / "cold.json", cold_env, "--envs", str(envs)
            )
            print(f"cold-cache sweep    {cold:6.1f} s  (empty uv cache, no environments)")
            same = (Path(folder) / "cold.json").read_bytes() == (
                Path(folder) / "this-code.json"
            ).read_bytes()
            print(
                f"cold results        {'identical to' if same else 'DIFFER from'} the warm sweep's"
            )


if __name__ == "__main__":
    main()
