"""approval-compaction: how automatic compaction orphans a tool call awaiting approval.

The core's front door, curated and lazy (PEP 562): it names what the notebooks and the README use
of the core (``study``, ``analysis``, ``wire``, ``display``, ``fix``, ``formats``) and the
``doctor``, each once with the module that defines it. ``import approval_compaction`` loads
nothing but this file; ``approval_compaction.run_case`` imports the study, and the SDK, on first
use. No name here leads into the lab: its names are behind its own door,
``approval_compaction.lab``, which needs the ``[lab]`` extra; an SDK's folder has a door of its
own. Everything else is imported from its module.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

# What the notebooks and the README use of the core and the doctor, and nothing else (a test
# reads them and checks this); everything else stays importable from its module.
_SOURCES: dict[str, tuple[str, ...]] = {
    # the scenario and its runner
    ".study.scenario": ("Case", "select_cases"),
    ".study.capture": ("sdk_version",),
    ".openai_agents.harness": ("run_case", "run_matrix"),
    ".openai_agents.wiring": ("backend_for",),
    # judging the runs
    ".analysis.matrix": ("records",),
    ".analysis.table": ("pivot", "to_frame"),
    # the notebooks' answer lines
    # the frames the notebooks show
    ".display.frames": ("diff_frame", "items_frame", "requests_frame"),
    ".display.details": ("titled",),
    ".display.views": (
        "invariants_frame",
        "scope",
        "stage_diff",
        "stage_summary",
        "stage_table",
    ),
    ".formats.markdown": ("fence",),
    ".formats.records": ("read_json",),
    # the workaround
    ".fix.workaround": ("DeferCompactionWhilePending", "defer_compaction_while_pending"),
    # the Responses API stand-in
    ".wire.app": ("standin_client", "standin_log"),
    # am I affected: the doctor's verdict, check, scan and repair
    ".doctor.check": ("check_config", "load_check", "run_check"),
}
# Modules the notebooks use as a whole (``paths.DATA``), by the name they are imported under.
_MODULES: dict[str, str] = {"paths": ".paths"}
_MODULE_OF: dict[str, str] = {name: module for module, names in _SOURCES.items() for name in names}

__all__ = sorted({*_MODULE_OF, *_MODULES})


def _resolve(
    name: str, sources: Mapping[str, str], modules: Mapping[str, str], package: str
) -> Any:
    """What a lazy door's ``name`` is: the attribute of its module, or a whole module."""
    if name in modules:
        return importlib.import_module(modules[name], package)
    module = sources.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, package), name)


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` on first use, and keep the name here."""
    value = _resolve(name, _MODULE_OF, _MODULES, __name__)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
