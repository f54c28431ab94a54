"""Liveness data: the runs ``releases.liveness`` makes, on the installed release and the newest,
each as it is and with the workaround, written to ``data/liveness.json`` (``make liveness``).

The runs answer as the Responses API does by default (``liveness.LIVENESS_MODEL``); ``--model
scripted`` makes the scripted model's runs, which accept what the API refuses, under the name
the file's header and each run carry (``model``). Progress goes to stderr, a run at a time.
"""

from __future__ import annotations

import sys
from typing import Any

from ...analysis.liveness import DEFAULT_TURNS, LivenessRun, liveness_records, session_usable
from ...fix.workaround import defer_compaction_while_pending as fix
from ...formats.records import write_json
from ...study.capture import sdk_version
from ...study.words import Model
from ...study.worker import Worker
from . import environments
from .liveness import LIVENESS_MODEL, liveness_count, poisoned_history, run_liveness

RELEASES_AND_WRAPS = 4  # the installed release and the newer one, each as it is and fixed


def liveness_data(
    turns: int = DEFAULT_TURNS,
    version: str | None = None,
    envs: Any = None,
    model: Model = LIVENESS_MODEL,
) -> dict[str, Any]:
    """The liveness runs on the installed release (as it is, and with the workaround), and on
    the newer release (as it is, and with the workaround) given the same poisoned history, each
    on ``model``."""
    from tqdm import tqdm  # type: ignore[import-untyped]  # tqdm ships no type information

    newer = version or environments.newest_release()
    # The newer release's environment first: a missing one is a one-line error before any run.
    env = environments.release_environment(newer, envs or environments.default_envs(), create=False)
    history = poisoned_history()
    total = RELEASES_AND_WRAPS * liveness_count()
    with tqdm(total=total, unit="run", disable=None, file=sys.stderr) as bar:
        options = {"poisoned": history, "model": model, "progress": bar}
        runs = run_liveness(turns, **options)
        runs += run_liveness(turns, wrap=fix, **options)
        with Worker(str(env.python), environments.isolated_environ()) as worker:
            runs += run_liveness(turns, worker=worker, **options)
            runs += run_liveness(turns, wrap=fix, worker=worker, **options)
    return {
        "turns": turns,
        "model": model,
        "pinned": sdk_version(),
        "newest": newer,
        "poisoned_history": history,
        "runs": [run.to_json() for run in runs],
    }


def command(args: Any) -> int:
    """``liveness``: write the runs (data/liveness.json) and print the verdicts that fail."""
    from pathlib import Path

    envs = Path(args.envs) if args.envs else None
    data = liveness_data(args.turns, args.version, envs, args.model)
    write_json(Path(args.output), data, indent=1)
    runs = [LivenessRun.from_json(r) for r in data["runs"]]
    broken = [r for r in liveness_records(runs) if r.holds is not True]
    for r in broken:
        fixed = " with the workaround" if r.workaround else ""
        print(f"{r.sdk_version} {r.mode}{fixed} {r.scenario}: {r.invariant} broken: {r.detail}")
    unusable = [r for r in runs if session_usable(r).holds is False]
    print(
        f"wrote {args.output}: {len(runs)} runs on the {data['model']} model, "
        f"{len(broken)} liveness verdicts broken, {len(unusable)} sessions not usable"
    )
    return 0
