"""Probe: run the cases inside one release's environment and write the runs as JSON.

The sweep starts this module with each release's own interpreter, which has ``openai-agents``
and its dependencies but not pandas or matplotlib, as ``python -m
approval_compaction.lab.releases.probe`` with the project's source folder on ``PYTHONPATH``: the
package's front door is lazy and the study imports neither, so nothing else is needed.

The cases run on the ``scripted`` model, then again on the ``responses`` model (the SDK's
``OpenAIResponsesModel`` over HTTP to the stand-in, in-process) when the wire's dependencies
import in the release's environment (the ``openai`` client brings its HTTP library, and the
SDK's ``mcp`` dependency brings starlette); when they do not, ``wire`` says why. On each model
they run in every compaction mode the SDK offers (``input``, the study's own, first; then
``previous_response_id`` and the SDK's default ``auto``), the compaction endpoint answering by
its rules (``faithful``).

The scripted model's runs in the study's mode are continued for N later turns after the next
one (``--later``, 10 by default; the hook always saying yes), which the liveness invariants
judge. Given a poisoned history (``--situations FILE``, the stored history an affected release
wrote), it also runs the liveness situations (``study.words.SITUATIONS``) in every mode,
each continued N turns, into ``liveness``: on the ``responses`` model by default, so a later
turn the API would refuse raises as it does for a user (``--liveness-model scripted``: the
scripted model, which accepts an output without its call).

With ``--lean`` (the sweep's), the scripted model runs only in the study's mode where the
responses model runs too: the sweep keeps nothing else of it there (``plan``).

Before running, it checks by feature, not by version number, that the release has what the
scenario uses. A case whose release lacks something is recorded as not applicable, with the
missing features as the reason; a release whose ``agents`` does not import is unavailable.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.metadata
import inspect
import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypedDict, cast

from ...study.capture import LATER_TURNS, CaseRun
from ...study.items import Item
from ...study.scenario import Case, select_cases
from ...study.words import MODELS, MODES, STUDY_FIRST, STUDY_MODE, Mode, Model

MODULE = "approval_compaction.lab.releases.probe"

# What the probe writes: the resolved versions and every run, or why the release is unavailable.
ProbeResult = TypedDict(
    "ProbeResult",
    {
        "openai-agents": str,
        "openai": str,
        "pydantic": str,
        "runs": list[dict[str, Any]],
        "unavailable": str,
        "wire": str,
        "liveness": list[dict[str, Any]],
    },
    total=False,
)

DEPENDENCIES = ("openai-agents", "openai", "pydantic")
IMPORT_FAILED = "import agents failed: "  # an unavailable release's reason starts so


def _accepts(func: Any, *names: str) -> bool:
    """Whether a callable takes every named keyword argument."""
    try:
        params = inspect.signature(func).parameters
    except (TypeError, ValueError):
        return False
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return True
    return all(name in params for name in names)


def _has(obj: Any, *names: str) -> bool:
    return obj is not None and all(callable(getattr(obj, n, None)) for n in names)


Check = Callable[[Any], bool]
RELEASE_FEATURES: dict[str, Check] = {
    "function_tool(needs_approval=...)": lambda api: (
        _has(api, "function_tool") and _accepts(api.function_tool, "needs_approval")
    ),
    "OpenAIResponsesCompactionSession(client, compaction_mode, should_trigger_compaction)": (
        lambda api: (
            callable(api.OpenAIResponsesCompactionSession)
            and _accepts(
                api.OpenAIResponsesCompactionSession,
                "client",
                "compaction_mode",
                "should_trigger_compaction",
            )
        )
    ),
    "SQLiteSession": lambda api: callable(api.SQLiteSession),
    "RunState.approve/reject/get_interruptions": lambda api: _has(
        api.RunState, "approve", "reject", "get_interruptions"
    ),
}
CASE_FEATURES: dict[tuple[str, str], tuple[str, Check]] = {
    ("runner", "run_streamed"): (
        "Runner.run_streamed",
        lambda api: _has(api.Runner, "run_streamed"),
    ),
    ("state_boundary", "json"): (
        "RunState.to_json/from_json",
        lambda api: _has(api.RunState, "to_json", "from_json"),
    ),
}
API_NAMES = ("function_tool", "SQLiteSession", "RunState", "Runner")


def sdk_api() -> Any:
    """The SDK names the scenario uses, each None where the installed release lacks it."""
    agents = importlib.import_module("agents")
    api = {name: getattr(agents, name, None) for name in API_NAMES}
    try:
        memory = importlib.import_module("agents.memory")
    except ImportError:
        memory = None
    api["OpenAIResponsesCompactionSession"] = getattr(
        memory, "OpenAIResponsesCompactionSession", None
    )
    return argparse.Namespace(**api)


def release_lacks(api: Any) -> list[str]:
    """What every case needs that the release lacks, by feature; empty when it has it all."""
    return [name for name, check in RELEASE_FEATURES.items() if not check(api)]


def missing_features(case: Case, api: Any) -> list[str]:
    """What the case needs that the release lacks, by feature; empty when it can run."""
    missing = release_lacks(api)
    for (field, value), (name, check) in CASE_FEATURES.items():
        if getattr(case, field) == value and not check(api):
            missing.append(name)
    return missing


PROBE_MODES = STUDY_FIRST  # the matrix's own mode first: the others follow it
OBSERVED: Model = "responses"  # the model over HTTP: what the user meets


def not_applicable(
    case: Case,
    version: str,
    missing: Sequence[str],
    model: Model = "scripted",
    mode: Mode = STUDY_MODE,
    later: int = 0,
) -> CaseRun:
    approvals = 1 if case.decision == "approve" else 0
    return CaseRun(
        case,
        version,
        [],
        approvals,
        0,
        not_applicable="release lacks " + ", ".join(missing),
        model=model,
        mode=mode,
        continued=later,
    )


def continued(model: Model, mode: Mode, later: int) -> int:
    """The later turns a run of the probe goes on for: the scripted model's in the study's mode
    (the sweep's matrix records), none for the others."""
    return later if model == "scripted" and mode == STUDY_MODE else 0


def situations(
    poisoned: Sequence[Item],
    missing: Sequence[str],
    version: str,
    later: int,
    model: Model = "responses",
    jobs: int = 0,
) -> list[dict[str, Any]]:
    """Each liveness situation in each of its modes, continued ``later`` turns on ``model`` (by
    default the SDK's Responses model on the stand-in, which answers by the API's rules), as
    JSON, shared between ``jobs`` forked copies of this process (0: one per core; the runs
    share nothing); on a release that lacks what they use, or cannot run the model's wiring,
    each one an error run naming what is missing."""
    from ...analysis.liveness import LivenessRun
    from ...sdks import sdk_module
    from ...study.fork import fork_map
    from ...study.words import SITUATIONS
    from .later_turns import LIVENESS_MODES, unjudged

    wiring = sdk_module("python", "wiring")  # the Python SDK's folder, by name (sdks)
    run_situation = sdk_module("python", "later_turns").run_situation
    why = "release lacks " + ", ".join(missing) if missing else wiring.unavailable(model)
    if why:
        return [run.to_json() for run in unjudged(version, why, model)]

    def one(where: tuple[Mode, str]) -> dict[str, Any]:
        mode, name = where
        run: LivenessRun = run_situation(name, mode, later, poisoned=poisoned, model=model)
        return run.to_json()

    return fork_map(one, [(mode, name) for mode in LIVENESS_MODES for name in SITUATIONS], jobs)


def plan(runnable: Sequence[Model], modes: Sequence[Mode], lean: bool) -> list[tuple[Model, Mode]]:
    """Each model and mode the cases run in, in order: every mode on every model that can run;
    ``lean``, the scripted model in the study's mode alone where the responses model runs too.

    The sweep keeps no more than that: its matrix records are of the study's mode, and what the
    user meets comes from the runs over HTTP, from the scripted model's other modes only on a
    release that cannot run the responses model (``sweep.release_meetings``)."""
    over_http = OBSERVED in runnable
    return [
        (model, mode)
        for model in runnable
        for mode in modes
        if not (lean and over_http and model != OBSERVED and mode != STUDY_MODE)
    ]


def installed_versions() -> dict[str, str]:
    return {name: importlib.metadata.version(name) for name in DEPENDENCIES}


def probe(
    cases: Sequence[Case],
    api: Callable[[], Any] = sdk_api,
    modes: Sequence[Mode] = PROBE_MODES,
    models: Sequence[Model] = MODELS,
    later: int = LATER_TURNS,
    poisoned: Sequence[Item] | None = None,
    lean: bool = False,
    liveness_model: Model = "responses",
) -> ProbeResult:
    """Run the cases on the installed release, on each of ``models`` (those it can run) in each
    of ``modes``, the scripted model's in the study's mode continued ``later`` turns; and, given
    a ``poisoned`` history, the liveness situations; a release that does not import is
    unavailable.

    ``api`` looks up the SDK's names (a test passes a stand-in for a release that lacks some);
    ``lean`` leaves out the runs the sweep does not keep (``plan``).
    """
    try:
        names = api()
    except Exception as exc:  # any import failure makes the release unavailable, not a crash
        reason = " ".join(f"{type(exc).__name__}: {exc}".split())
        return {"unavailable": f"{IMPORT_FAILED}{reason}"[:300]}
    versions = installed_versions()
    missing = {case: missing_features(case, names) for case in cases}
    runnable: list[Model] = [m for m in models if m == "scripted"]
    why = ""
    if not all(missing.values()):  # the harness only once the release is known to have it all
        from ...sdks import sdk_module

        # the Python SDK's folder, by name (sdks)
        harness, wiring = sdk_module("python", "harness"), sdk_module("python", "wiring")
        why = wiring.unavailable("responses") if "responses" in models else ""
        runnable += [] if why or "responses" not in models else ["responses"]
    gc.freeze()  # the imports are done: what they made is left out of every collection,
    gc.enable()  # and the cases run with the collector on, as in ``matrix``
    version = versions["openai-agents"]
    runs = [
        not_applicable(case, version, missing[case], model, mode, continued(model, mode, later))
        if missing[case]
        else harness.run_case(
            case,
            backend=wiring.BACKENDS[model],
            script=replace(harness.DEFAULT_SCRIPT, mode=mode),
            later=continued(model, mode, later),
        )
        for model, mode in plan(runnable, modes, lean)  # each case once per model and mode
        for case in cases
    ]
    result: ProbeResult = {
        "openai-agents": version,
        "openai": versions["openai"],
        "pydantic": versions["pydantic"],
        "runs": [run.to_json() for run in runs],
        "wire": f"scripted model: {why}"[:300] if why else "",
    }
    if poisoned is not None:
        missed = release_lacks(names)
        result["liveness"] = situations(poisoned, missed, version, later, liveness_model)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="probe", description=__doc__)
    parser.add_argument("--case", help="case filter, e.g. decision=reject")
    parser.add_argument("--modes", default=",".join(PROBE_MODES), help="compaction modes, in order")
    parser.add_argument("--output", required=True, help="write the JSON result here")
    parser.add_argument(
        "--later", type=int, default=LATER_TURNS, help="later turns after each case's next one"
    )
    parser.add_argument(
        "--situations", help="a poisoned history (JSON): also run the liveness situations"
    )
    parser.add_argument(
        "--lean", action="store_true", help="only the runs the sweep keeps (see ``plan``)"
    )
    parser.add_argument(
        "--liveness-model",
        choices=MODELS,
        default="responses",
        help="the model the liveness situations answer with (default: responses)",
    )
    args = parser.parse_args(argv)
    modes = tuple(args.modes.split(","))
    if not set(modes) <= set(MODES):
        parser.error(f"--modes: each one of {', '.join(MODES)}")
    if args.later < 0:
        parser.error("--later: at least 0")
    poisoned = json.loads(Path(args.situations).read_text()) if args.situations else None
    result = probe(
        select_cases(args.case),
        modes=cast(tuple[Mode, ...], modes),
        later=args.later,
        poisoned=poisoned,
        lean=args.lean,
        liveness_model=args.liveness_model,
    )
    Path(args.output).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    # Start-up and exit are made cheap, since they recur once per release: the garbage
    # collector is off while the SDK imports (``probe`` turns it back on before any case runs),
    # and the process ends with ``os._exit`` once its output is written, skipping the teardown.
    import os
    import sys

    gc.disable()
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
