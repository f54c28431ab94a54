"""Plugins: the SDKs that enter as one folder each, named here as data and loaded by name.

pytest's pattern: the core holds one hook specification and a list of plugins, and never
imports a plugin by its own name. Each entry of ``REGISTRY`` (one per folder of
``sdks.FOLDERS`` with a plugin) names the module of one SDK's folder that holds its ``PLUGIN``, an
``SdkPlugin``: its commands, the README and docs blocks it writes (by marker name), its
notebook's answer line, its line of the driver search's registry (``lab.explore.sdks``), and,
where it has them, what ``data`` writes of it, its part of the front page's answers
(``FrontPage``) and its reports as comments (``share``). The lab's command line, its README
writer and its notebooks' headlines read every plugin through ``plugins()`` (one by its name
through ``plugin``); the SDK's folder imports the lab, the lab reaches it only through this list
(import-linter keeps it so).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..formats.arguments import AddCommand, Lazy
from ..sdks import FOLDERS, has_module

if TYPE_CHECKING:
    import pandas as pd

    from ..study.moves import Driven
    from .affected.exports import ExportRecord

# Each SDK's folder (``sdks.FOLDERS``, the one list) that holds a PLUGIN, by that module. The
# Python SDK's folder holds none yet: it sits above the lab with the others, which reaches it by
# name (``sdks.sdk_module``), but its studies are still the lab's (docs/layout.md).
REGISTRY: dict[str, str] = {
    name: f"{folder}.plugin" for name, folder in FOLDERS.items() if has_module(name, "plugin")
}


@dataclass(frozen=True)
class FrontPage:
    """An SDK's part of the front page's answers (``share.readme.answers_block``), beside the
    Python SDK's: the releases and errors tables with its rows below Python's, the files those
    rows come from, its workaround's paragraph, and its closing paragraphs (each list of lines
    as the block joins them)."""

    releases: pd.DataFrame
    errors: pd.DataFrame
    sources: tuple[str, ...] = ()
    workaround: tuple[str, ...] = ()
    closing: tuple[str, ...] = ()


# The comment ``share --NAME WHICH`` gives for an SDK: its text, and the files to attach.
Comment = tuple[str, tuple[Path, ...]]


@dataclass(frozen=True)
class Share:
    """How ``share --NAME [WHICH]`` is declared for an SDK with reports to share: the reports
    it gives by name (the first when none is named) and the option's help."""

    reports: tuple[str, ...]
    help: str


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
    # What ``data`` writes of it on its pinned release (into a data folder; the paths written).
    data: Callable[[Path], list[Path]] | None = None
    # Its part of the front page's answers, from a data folder and Python's two tables.
    front: Callable[[Path, pd.DataFrame, pd.DataFrame], FrontPage] | None = None
    # Its reports as paste-ready comments (``share --NAME WHICH``), from a data folder, and
    # how that option is declared (both or neither).
    comment: Callable[[Path, str], Comment] | None = None
    share: Share | None = None
    # The doctor's test data from its runner (``doctor exports``): each record and its items.
    exports: Callable[[], list[tuple[ExportRecord, Any]]] | None = None
    # The driver's function each run of a notebook returns through (module, function) and the
    # package's name, for the notebooks' provenance (``share.provenance``): its lines are counted
    # as that package's runs.
    runs: tuple[str, str, str] | None = None
    # A regular expression matching a statement that names its package (``findings.verdict``
    # reads its releases' verdicts from those, openai-agents' from statements naming none).
    mentions: str | None = None
    # How a team stops its new sessions breaking: the notebook whose action says it.
    stop: str | None = None


def sharing(registry: Mapping[str, str] = REGISTRY) -> list[tuple[SdkPlugin, Share]]:
    """Every plugin with reports to share (``share --NAME``), with how its option reads."""
    return [(p, p.share) for p in plugins(registry) if p.comment is not None and p.share]


def plugin(name: str, registry: Mapping[str, str] = REGISTRY) -> SdkPlugin:
    """The plugin registered as ``name``."""
    (found,) = plugins({name: registry[name]})
    return found


def plugins(registry: Mapping[str, str] = REGISTRY) -> list[SdkPlugin]:
    """Every registered SDK's plugin, in the registry's order."""
    found = []
    for module in registry.values():
        plugin = getattr(importlib.import_module(module), "PLUGIN", None)
        if not isinstance(plugin, SdkPlugin):
            raise TypeError(f"{module} holds no SdkPlugin named PLUGIN")
        found.append(plugin)
    return found
