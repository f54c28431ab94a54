"""SDKs: the one list of the SDKs that enter as one folder each, and what the shared code reads
of a folder, by name.

Each SDK is one folder, ``approval_compaction.<name>`` (by ``FOLDERS``), holding everything of
it (openai-agents' is ``openai_agents``, whose studies are still the lab's: docs/layout.md).
The folders sit above the core, so the shared code never imports one in code: it loads the
module it needs from here (pytest's pattern). The lab reaches a folder's plugin
(``lab.plugins``), the doctor its check and items' map (``sdk_module``), the display its words
for a table's title (``words``: the folder's ``words.WORDS``). What the doctor and the
display load imports nothing of the lab (import-linter keeps it so).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType

from .errors import InvestigationError

# Each SDK by the package of its folder, in the order the lab and the doctor list them (adding
# an SDK is a line here).
FOLDERS: dict[str, str] = {
    "python": "approval_compaction.openai_agents",
    "js": "approval_compaction.js",
    "adk": "approval_compaction.adk",
    "langchain": "approval_compaction.langchain",
}


@dataclass(frozen=True)
class Words:
    """How a table's title names a run of the SDK (``display.views.scope``): its package, its
    compaction setting (``{mode}`` replaced), and its words for the hook's answer and for the
    model where they differ from openai-agents' (``None``: the same)."""

    package: str
    mode: str = "{mode} mode"
    hooks: Mapping[str, str] | None = None
    models: Mapping[str, str] | None = None


@dataclass(frozen=True)
class Exported:
    """How the doctor names a session exported from the SDK (``doctor items --sdk NAME``):
    its package, how a team gets the items, whose they are and what tells them apart; its
    folder's ``items`` module reads them (``is_item``, ``wire_items``, ``sdk_message``)."""

    package: str
    getter: str  # the call that returns a session's items, and in which language
    owner: str  # whose items they are, as a sentence names them (``the ... SDK's``)
    tells: str  # the keys or types that tell its items from the wire's


def sdk_module(sdk: str, module: str) -> ModuleType:
    """The module ``module`` of ``sdk``'s folder (``sdk_module(name, "items")``)."""
    if sdk not in FOLDERS:
        raise InvestigationError(f"no SDK {sdk!r}: expected one of {', '.join(FOLDERS)}")
    return importlib.import_module(f"{FOLDERS[sdk]}.{module}")


def has_module(sdk: str, module: str) -> bool:
    """Whether ``sdk``'s folder holds ``module`` (found without importing it)."""
    return importlib.util.find_spec(f"{FOLDERS[sdk]}.{module}") is not None


def words(sdk: str) -> Words | None:
    """The words of the SDK registered as ``sdk`` (its folder's ``words.WORDS``); ``None`` for
    a name no folder holds."""
    if sdk not in FOLDERS:
        return None
    found = getattr(sdk_module(sdk, "words"), "WORDS", None)
    if not isinstance(found, Words):
        raise TypeError(f"{FOLDERS[sdk]}.words holds no Words named WORDS")
    return found
