"""SDKs: the doctor's one list of the SDKs it serves besides openai-agents, each by its folder.

An SDK's folder (``approval_compaction.<name>``, by ``FOLDERS``) holds its check and its items'
map among its study; it sits above the lab, so the doctor never imports it by name in code:
it loads the module it needs from here (pytest's pattern, as ``lab.plugins`` does for the lab).
The modules the doctor loads import nothing of the lab (import-linter keeps them so).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import InvestigationError

# Each SDK the doctor serves, by the package of its folder (adding an SDK is a line here).
FOLDERS: dict[str, str] = {"js": "approval_compaction.js", "adk": "approval_compaction.adk"}


def sdk_module(sdk: str, module: str) -> ModuleType:
    """The module ``module`` of ``sdk``'s folder (``sdk_module("js", "items")``)."""
    if sdk not in FOLDERS:
        raise InvestigationError(f"no SDK {sdk!r}: expected one of {', '.join(FOLDERS)}")
    return importlib.import_module(f"{FOLDERS[sdk]}.{module}")
