"""Liveness data: the runs ``releases.liveness`` makes, on the installed release and the newest,
each as it is and with the workaround, written to ``data/liveness.json`` (``make liveness``).

The runs answer as the Responses API does by default (``liveness.LIVENESS_MODEL``); ``--model
scripted`` makes the scripted model's runs, which accept what the API refuses, under the name
the file's header and each run carry (``model``). Progress goes to stderr, a run at a time.
"""

from __future__ import annotations

from typing import Any

from ...analysis.liveness import DEFAULT_TURNS, LivenessRun, liveness_records, session_usable
from ...fix.workaround import defer_compaction_while_pending as fix
from ...formats.progress import Progress
from ...formats.records import write_json
from ...study.capture import sdk_version
from ...study.words import Model
from ...study.worker import Worker
from . import environments
from .liveness import LIVENESS_MODEL, liveness_count, poisoned_history, run_liveness


def liveness_data(
    turns: int = DEFAULT_TURNS,
    version: str | None = None,
    envs: Any = None,
    model: Model = LIVENESS_MODEL,
) -> dict[str, Any]:
    """The liveness runs on the installed release (as it is, and with the workaround), and on
    the newer release (as it is, and with the workaround) given the same poisoned history, each
    on ``model``. The newer release's two parts run in two ``Worker`` processes of its own
    while the installed release's run here, so three interpreters share the cores; the runs
    come back in the parts' order, whatever order they end in."""
    from concurrent.futures import ThreadPoolExecutor

    newer = version or environments.newest_release()
    # The newer release's environment first: a missing one is a one-line error before any run.
    env = environments.release_environment(newer, envs or environments.default_envs(), create=False)
    history = poisoned_history()
    wraps = (None, fix)
    total = 2 * len(wraps) * liveness_count()
    with Progress("liveness", total, "runs") as bar:
        options: dict[str, Any] = {"poisoned": history, "model": model, "progress": bar}

        def newer_part(wrap: Any) -> list[LivenessRun]:
            with Worker(str(env.python), environments.isolated_environ()) as worker:
                return run_liveness(turns, wrap=wrap, worker=worker, **options)

        with ThreadPoolExecutor(max_workers=len(wraps)) as pool:
            there = [pool.submit(newer_part, wrap) for wrap in wraps]
            runs = [run for wrap in wraps for run in run_liveness(turns, wrap=wrap, **options)]
            runs += [run for part in there for run in part.result()]
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
    for run in unusable:
        fixed = " with the workaround" if run.workaround else ""
        said = session_usable(run).text
        print(f"{run.sdk_version} {run.mode}{fixed} {run.scenario}: not usable: {said}")
    print(
        f"wrote {args.output}: {len(runs)} runs on the {data['model']} model, "
        f"{len(broken)} liveness verdicts broken, {len(unusable)} sessions not usable"
    )
    return 0
