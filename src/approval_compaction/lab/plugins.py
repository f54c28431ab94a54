"""Plugins: the SDKs that enter as one folder each, named here as data and loaded by name.

pytest's pattern: the core holds one hook specification and a list of plugins, and never
imports a plugin by its own name. Each entry of ``REGISTRY`` names the module of one SDK's
folder that holds its ``PLUGIN``, an ``SdkPlugin``: its commands, the README and docs blocks it
writes (by marker name), its notebook's answer line, and its line of the driver search's
registry (``lab.explore.sdks``). The lab's command line, its README
writer and its notebooks' headlines read every plugin through ``plugins()``; the SDK's folder
imports the lab, the lab reaches it only through this list (import-linter keeps it so).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..formats.arguments import AddCommand, Lazy

if TYPE_CHECKING:
    from ..study.moves import Driven

# Each SDK's folder, by the module that holds its PLUGIN (adding an SDK is a line here).
REGISTRY: dict[str, str] = {
    "adk": "approval_compaction.adk.plugin",
    "langchain": "approval_compaction.langchain.plugin",
}


@dataclass(frozen=True)
class SdkPlugin:
    """What one SDK's folder hands the shared code: its package's name, its notebook's number,
    a function declaring its commands, the blocks it writes from a data folder (by marker
    name), its notebook's answer line from a data folder, and the names of its result files
    under ``data/`` (``lab.paths`` names the shared ones)."""

    name: str
    notebook: str
    register: Callable[[AddCommand, Lazy], None]
    blocks: Mapping[str, Callable[[Path], str]] = field(default_factory=dict)
    answer: Callable[[Path], str] | None = None
    files: tuple[str, ...] = ()  # its result files under data/ (a matrix set by its JSON)
    driven: Callable[[], Driven] | None = None  # its driver's line of the search's registry


def plugins(registry: Mapping[str, str] = REGISTRY) -> list[SdkPlugin]:
    """Every registered SDK's plugin, in the registry's order."""
    found = []
    for module in registry.values():
        plugin = getattr(importlib.import_module(module), "PLUGIN", None)
        if not isinstance(plugin, SdkPlugin):
            raise TypeError(f"{module} holds no SdkPlugin named PLUGIN")
        found.append(plugin)
    return found
