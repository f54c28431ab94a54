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
import sys
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


class Door:
    """A package's lazy door (PEP 562), the one every door uses (this one, the lab's, each SDK
    folder's): ``sources`` maps each module to the public names it defines, ``modules`` the
    modules taken whole to the name they are imported under (both relative to ``package``).
    ``load`` imports a name's module on first use and keeps the name in the package: a door's
    ``__getattr__`` is its ``load``, its ``__dir__`` its ``listed``, its ``__all__`` its
    ``public``."""

    def __init__(
        self,
        package: str,
        sources: Mapping[str, tuple[str, ...]],
        modules: Mapping[str, str] | None = None,
    ) -> None:
        self.package, self.modules = package, dict(modules or {})
        self.names = {name: module for module, names in sources.items() for name in names}
        self.public = sorted({*self.names, *self.modules})

    def load(self, name: str) -> Any:
        """The value of ``name``, imported from its module and kept in the package."""
        if name in self.modules:
            value = importlib.import_module(self.modules[name], self.package)
        elif name in self.names:
            value = getattr(importlib.import_module(self.names[name], self.package), name)
        else:
            raise AttributeError(f"module {self.package!r} has no attribute {name!r}")
        setattr(sys.modules[self.package], name, value)
        return value

    def listed(self) -> list[str]:
        """What ``dir`` lists of the package: what it holds and its ``__all__``."""
        package = sys.modules[self.package]
        return sorted({*vars(package), *getattr(package, "__all__", ())})


_DOOR = Door(__name__, _SOURCES, _MODULES)
__all__ = _DOOR.public
__getattr__ = _DOOR.load
__dir__ = _DOOR.listed
