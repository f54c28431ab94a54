"""What installing the package costs a team: disk, install time, and import time, per wing.

Builds this checkout's wheel, then in fresh environments made with ``uv venv`` installs (with
``uv pip install``) and measures the ``site-packages`` size and the install's wall time of:
openai-agents alone; the core (the wheel beside openai-agents); the core with the ``[doctor]``
extra; and everything (``[lab]``: every extra). Each install runs once to fill uv's cache, and
the figure is a second, warm install into a new environment. In the core's environment it then
times, as whole processes with warm bytecode caches (``PYTHONDONTWRITEBYTECODE`` unset), the
median of ``import agents``, ``import approval_compaction``, and importing the workaround and
calling ``defer_compaction_while_pending(...)`` on a compaction session.

    python benchmarks/install_size.py [--release 0.24.0] [--rounds 7]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from approval_compaction.lab.releases import NEWEST
from approval_compaction.testing.install import (
    Env,
    build_wheel,
    fresh_env,
    site_size,
    wheel_requirement,
)

MB = 1_000_000
WORKAROUND = """
from agents import SQLiteSession
from agents.memory import OpenAIResponsesCompactionSession
from approval_compaction import defer_compaction_while_pending
session = OpenAIResponsesCompactionSession("s", SQLiteSession("s"), client=object())
defer_compaction_while_pending(session)
"""
SDK_SESSION = """
from agents import SQLiteSession
from agents.memory import OpenAIResponsesCompactionSession
OpenAIResponsesCompactionSession("s", SQLiteSession("s"), client=object())
"""


def warm_env(folder: Path, name: str, requirements: list[str]) -> Env:
    """A second install of ``requirements`` into a new environment, after one that fills uv's
    cache: the figure a team sees once the packages are downloaded."""
    fresh_env(folder / f"{name}-cold", requirements)
    return fresh_env(folder / name, requirements)


def median_seconds(env: Env, code: str, rounds: int) -> float:
    """The median wall time of ``python -c code`` in ``env`` (one unmeasured run first)."""
    times = []
    for n in range(rounds + 1):
        start = time.perf_counter()
        done = env.run("-c", code)
        if done.returncode != 0:
            raise SystemExit(f"{code!r} failed: {done.stderr.strip().splitlines()[-1]}")
        if n:
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", default=NEWEST, help="the openai-agents release")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    sdk = f"openai-agents=={args.release}"
    with tempfile.TemporaryDirectory(prefix="approval-compaction-install-") as name:
        folder = Path(name)
        wheel = build_wheel(folder / "wheel")
        print(f"wheel: {wheel.name}, {wheel.stat().st_size / 1000:,.0f} kB")
        installs = {
            "openai-agents alone": [sdk],
            "core (wheel + openai-agents)": [sdk, wheel_requirement(wheel)],
            "core + [doctor]": [sdk, wheel_requirement(wheel, "doctor")],
            "everything ([lab])": [sdk, wheel_requirement(wheel, "lab")],
        }
        envs: dict[str, Env] = {}
        print(f"{'install':<30} {'site-packages':>14} {'warm install':>13}")
        for n, (label, requirements) in enumerate(installs.items()):
            env = warm_env(folder, f"env{n}", requirements)
            envs[label] = env
            print(f"{label:<30} {site_size(env) / MB:>11,.1f} MB {env.install_seconds:>11.2f} s")
        core = envs["core (wheel + openai-agents)"]
        print(f"in the core's environment, median of {args.rounds} warm runs:")
        figures = {
            "python -c pass": "pass",
            "import agents": "import agents",
            "import approval_compaction": "import approval_compaction",
            "the SDK's compaction session": SDK_SESSION,
            "defer_compaction_while_pending(...)": WORKAROUND,
        }
        for label, code in figures.items():
            print(f"  {label:<38} {median_seconds(core, code, args.rounds):.3f} s")


if __name__ == "__main__":
    main()
