"""Probe: run the cases inside one release's environment and write the runs as JSON.

The sweep starts this module with each release's own interpreter, which has ``openai-agents``
and its dependencies but not pandas or matplotlib; so it imports only the harness and what the
harness needs, and is loaded through ``BOOTSTRAP``, which skips the package's ``__init__``.

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
from dataclasses import fields
from pathlib import Path
from typing import Any

from .capture import CaseRun, Stage
from .scenario import Case, select_cases

# Run with ``python -c BOOTSTRAP PACKAGE_DIR ARGS...``: register the package folder as an empty
# package (so ``__init__`` and its pandas imports are skipped), then hand over to ``main``.
# Start-up and exit are made cheap, since they recur once per release: the garbage collector
# is off while the SDK imports (``probe`` turns it back on before any case runs), and the
# process ends with ``os._exit`` once its output is written, skipping the interpreter teardown.
BOOTSTRAP = (
    "import gc, os, sys, types; gc.disable(); "
    "package = types.ModuleType('approval_compaction'); "
    "package.__path__ = [sys.argv[1]]; sys.modules['approval_compaction'] = package; "
    "from approval_compaction.probe import main; code = main(sys.argv[2:]); "
    "sys.stdout.flush(); sys.stderr.flush(); os._exit(code)"
)
DEPENDENCIES = ("openai-agents", "openai", "pydantic")


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


def missing_features(case: Case, api: Any) -> list[str]:
    """What the case needs that the release lacks, by feature; empty when it can run."""
    missing = [name for name, check in RELEASE_FEATURES.items() if not check(api)]
    for (field, value), (name, check) in CASE_FEATURES.items():
        if getattr(case, field) == value and not check(api):
            missing.append(name)
    return missing


def not_applicable(case: Case, version: str, missing: Sequence[str]) -> CaseRun:
    approvals = 1 if case.decision == "approve" else 0
    reason = "release lacks " + ", ".join(missing)
    return CaseRun(case, version, [], approvals, 0, not_applicable=reason)


def installed_versions() -> dict[str, str]:
    return {name: importlib.metadata.version(name) for name in DEPENDENCIES}


def probe(cases: Sequence[Case]) -> dict[str, Any]:
    """Run the cases on the installed release; a release that does not import is unavailable."""
    try:
        api = sdk_api()
    except Exception as exc:  # any import failure makes the release unavailable, not a crash
        return {"unavailable": f"import agents failed: {type(exc).__name__}: {exc}"[:300]}
    versions = installed_versions()
    missing = {case: missing_features(case, api) for case in cases}
    if not all(missing.values()):
        from .harness import run_case  # only once the release is known to have what it needs
    gc.enable()  # the imports are done: the cases run with the collector on, as in ``matrix``
    runs = [
        not_applicable(case, versions["openai-agents"], missing[case])
        if missing[case]
        else run_case(case)
        for case in cases
    ]
    return {**versions, "runs": [plain(run) for run in runs]}


def plain(run: CaseRun) -> dict[str, Any]:
    """A run as JSON-ready dicts, like ``asdict`` without its deep copy (items are plain)."""
    stages = [{f.name: getattr(stage, f.name) for f in fields(Stage)} for stage in run.stages]
    top = {f.name: getattr(run, f.name) for f in fields(CaseRun)}
    return {**top, "case": run.case.as_dict(), "stages": stages}


def case_run_from_json(data: dict[str, Any]) -> CaseRun:
    """Rebuild a CaseRun from its ``asdict`` form."""
    stages = [Stage(**stage) for stage in data["stages"]]
    return CaseRun(**{**data, "case": Case(**data["case"]), "stages": stages})


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="probe", description=__doc__)
    parser.add_argument("--case", help="case filter, e.g. decision=reject")
    parser.add_argument("--output", required=True, help="write the JSON result here")
    args = parser.parse_args(argv)
    result = probe(select_cases(args.case))
    Path(args.output).write_text(json.dumps(result))
    return 0
