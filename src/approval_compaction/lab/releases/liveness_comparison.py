"""Liveness data: the runs ``releases.liveness`` makes, on the installed release and the newest,
each as it is and with the workaround, written to ``data/liveness.json`` (``make liveness``)."""

from __future__ import annotations

from typing import Any

from ...analysis.liveness import DEFAULT_TURNS, LivenessRun, liveness_records
from ...fix.workaround import defer_compaction_while_pending as fix
from ...formats.records import write_json
from ...study.capture import sdk_version
from ...study.worker import Worker
from . import environments
from .liveness import poisoned_history, run_liveness


def liveness_data(
    turns: int = DEFAULT_TURNS, version: str | None = None, envs: Any = None
) -> dict[str, Any]:
    """The liveness runs on the installed release (as it is, and with the workaround), and on
    the newer release (as it is, and with the workaround) given the same poisoned history."""

    newer = version or environments.newest_release()
    # The newer release's environment first: a missing one is a one-line error before any run.
    env = environments.release_environment(newer, envs or environments.default_envs(), create=False)
    history = poisoned_history()
    runs = run_liveness(turns, poisoned=history)
    runs += run_liveness(turns, poisoned=history, wrap=fix)
    with Worker(str(env.python), environments.isolated_environ()) as worker:
        runs += run_liveness(turns, poisoned=history, worker=worker)
        runs += run_liveness(turns, poisoned=history, wrap=fix, worker=worker)
    return {
        "turns": turns,
        "pinned": sdk_version(),
        "newest": newer,
        "poisoned_history": history,
        "runs": [run.to_json() for run in runs],
    }


def command(args: Any) -> int:
    """``liveness``: write the runs (data/liveness.json) and print the verdicts that fail."""
    from pathlib import Path

    envs = Path(args.envs) if args.envs else None
    data = liveness_data(args.turns, args.version, envs)
    write_json(Path(args.output), data, indent=1)
    runs = [LivenessRun.from_json(r) for r in data["runs"]]
    broken = [r for r in liveness_records(runs) if r.holds is not True]
    for r in broken:
        fixed = " with the workaround" if r.workaround else ""
        print(f"{r.sdk_version} {r.mode}{fixed} {r.scenario}: {r.invariant} broken: {r.detail}")
    print(f"wrote {args.output}: {len(runs)} runs, {len(broken)} liveness verdicts broken")
    return 0
