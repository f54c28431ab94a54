"""Later turns on openai-agents: each liveness situation, and each of the sixteen cases,
continued for N turns.

The steps come from ``situations``; the one driver takes them, here or in a release's own
interpreter through a ``Worker``, and ``analysis.liveness`` judges the later turns. The runs
answer as the Responses API does (``LIVENESS_MODEL``); ``model="scripted"`` keeps the scripted
model, which accepts an output without its call. The poisoned history is a real run of the
installed release (the study's first case, its output stored alone), given to other releases as
a store an affected release wrote. ``liveness_data`` and ``command`` (``make liveness``) write
``data/liveness.json``: the installed and the newest release, each as it is and with the
workaround. What the lab reads of it (the modes, the model, ``unjudged``, the file read back)
is ``lab.releases.later_turns``'s; the lab, the probe in a release's environment and the other
SDKs' folders load this module by name (``sdks.sdk_module``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..analysis.liveness import (
    DEFAULT_TURNS,
    LivenessRun,
    liveness_records,
    liveness_run,
    session_usable,
)
from ..analysis.pairing import orphan_outputs
from ..fix.workaround import defer_compaction_while_pending as fix
from ..formats.progress import Progress
from ..formats.records import write_json
from ..lab.releases.later_turns import (
    LIVENESS_MODEL,
    LIVENESS_MODES,
    liveness_count,
    trigger_threshold,
)
from ..study.capture import sdk_version
from ..study.items import Item
from ..study.scenario import Case, all_cases
from ..study.words import Mode, Model, ResponseStore
from . import harness as _harness
from . import situations as _situations
from . import wiring as _wiring
from . import worker as _worker

SessionWrapper = Any


def _importable(module: str, name: str) -> bool:
    import importlib

    try:
        return hasattr(importlib.import_module(module), name)
    except ImportError:
        return False


def situation_lacks(name: str) -> str:
    """What the installed release lacks to run the situation ("" when it has it all): a hosted
    MCP server's approval request (``HostedMCPTool``, and the ``openai`` package's
    ``McpApprovalRequest``), and for a late resume a state kept as JSON text."""
    lacks = []
    if name in _situations.HOSTED_SITUATIONS:
        lacks += [] if _importable("agents", "HostedMCPTool") else ["agents.HostedMCPTool"]
        item = "openai.types.responses.response_output_item"
        lacks += [] if _importable(item, "McpApprovalRequest") else [f"{item}.McpApprovalRequest"]
    if name in _situations.RESUMED_SITUATIONS:
        import agents

        state = getattr(agents, "RunState", None)
        ok = all(callable(getattr(state, n, None)) for n in ("to_json", "from_json"))
        lacks += [] if ok else ["RunState.to_json/from_json"]
    return f"release lacks {', '.join(lacks)}" if lacks else ""


def poisoned_history() -> list[Item]:
    """The stored history after the resume of the study's first case, on the installed
    release: on the pinned release, an output whose call compaction summarised away."""

    run = _harness.run_case(Case())
    stage = run.stage("resume")
    if stage is None or not orphan_outputs(stage.stored):
        raise RuntimeError(
            f"openai-agents {run.sdk_version} wrote no poisoned store in {Case().label}"
        )
    return stage.stored


def _run(
    name: str,
    setup: Any,
    steps: list[Any],
    turns: int,
    worker: Any,
    workaround: bool,
    situation: bool = False,
) -> LivenessRun:

    why = "" if worker is not None else _wiring.unavailable(setup.model)
    if why:
        return LivenessRun(name, sdk_version(), setup.mode, workaround, (), why, setup.model)
    transcript, continued, error, own = _situations.run_steps(setup, steps, turns, worker)
    pairs = [(t.stage, t.outcome) for t in continued]
    version, model = transcript.sdk_version, transcript.model
    stages = [t.stage for t in own] if situation else []
    resumed = name in _situations.RESUMED_SITUATIONS
    threshold = trigger_threshold(setup.trigger)
    return liveness_run(
        name, version, setup.mode, workaround, pairs, error, model, stages, resumed, threshold
    )


def run_situation(
    name: str,
    mode: Mode,
    turns: int = DEFAULT_TURNS,
    *,
    poisoned: Sequence[Item] = (),
    wrap: SessionWrapper | None = None,
    worker: Any = None,
    model: Model = LIVENESS_MODEL,
    response_store: ResponseStore = None,
    trigger: Any = "always",
    tools: bool = True,
) -> LivenessRun:
    """One situation continued for ``turns`` later turns, with the SDK's Responses model on the
    stand-in (``responses``, the default) or the study's scripted model (``scripted``), the
    hook always saying yes (or ``trigger``: ``default``, the SDK's own), the agent with its tool
    (``tools`` false: none); on a release that lacks what it uses (checked here when no
    ``worker`` runs it: a worker's release says so in the run's error), an error run saying
    what it lacks."""

    why = "" if worker is not None else situation_lacks(name)
    if why:
        return LivenessRun(name, sdk_version(), mode, wrap is not None, (), why, model)
    setup = replace(  # the model, and the agent's ModelSettings(store=)
        _situations.situation_setup(name, mode, poisoned, wrap, trigger, tools),  # type: ignore[arg-type]
        model=model,
        response_store=response_store,
    )
    hook = True if trigger == "always" else None  # else the setup's trigger decides
    steps = [*_situations.situation_steps(name), *_situations.later(turns, hook)]  # type: ignore[arg-type]
    return _run(name, setup, steps, turns, worker, wrap is not None, situation=True)


def run_case_continued(
    case: Case,
    mode: Mode,
    turns: int = DEFAULT_TURNS,
    *,
    wrap: SessionWrapper | None = None,
    worker: Any = None,
    response_store: ResponseStore = None,
    model: Model = LIVENESS_MODEL,
) -> LivenessRun:
    """One of the sixteen cases continued for ``turns`` later turns, on ``model``."""

    setup, steps = _situations.case_continued(case, mode, turns, wrap)
    setup = replace(setup, model=model, response_store=response_store)  # ModelSettings(store=)
    return _run(case.label, setup, steps, turns, worker, wrap is not None)


def run_liveness(
    turns: int = DEFAULT_TURNS,
    *,
    modes: Sequence[Mode] = LIVENESS_MODES,
    cases: Sequence[Case] | None = None,
    poisoned: Sequence[Item] | None = None,
    wrap: SessionWrapper | None = None,
    worker: Any = None,
    model: Model = LIVENESS_MODEL,
    progress: Progress | None = None,
    response_store: ResponseStore = None,
) -> list[LivenessRun]:
    """Every situation, then every case (all sixteen by default), in each mode, on ``model``,
    with the agent's ``ModelSettings(store=response_store)`` (None: not set, the SDK's
    default); ``progress`` is told each run as it ends (``step()``)."""
    history = poisoned_history() if poisoned is None else list(poisoned)
    chosen = all_cases() if cases is None else list(cases)
    runs = []
    options = {"wrap": wrap, "worker": worker, "model": model, "response_store": response_store}

    def done(run: LivenessRun) -> LivenessRun:
        if progress is not None:
            progress.step()
        return run

    for mode in modes:
        runs += [
            done(run_situation(name, mode, turns, poisoned=history, **options))
            for name in _situations.SITUATIONS
        ]
        runs += [done(run_case_continued(c, mode, turns, **options)) for c in chosen]
    return runs


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

    from ..lab.releases import environments  # packaging: not in a release's bare environment

    newer = version or environments.newest_release()
    # The newer release's environment first: a missing one is a one-line error before any run.
    env = environments.release_environment(newer, envs or environments.default_envs(), create=False)
    history = poisoned_history()
    wraps = (None, fix)
    total = 2 * len(wraps) * liveness_count()
    with Progress("liveness", total, "runs") as bar:
        options: dict[str, Any] = {"poisoned": history, "model": model, "progress": bar}

        def newer_part(wrap: Any) -> list[LivenessRun]:
            with _worker.Worker(str(env.python), environments.isolated_environ()) as worker:
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
