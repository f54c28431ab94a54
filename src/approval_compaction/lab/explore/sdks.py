"""SDKs: the drivers the search runs on besides the Python SDK's own, one registry line each.

Each line names the SDK's moves (its folder's ``moves.MOVES``), how to start its driver on a
release (the release's environment made on first use: ``lab.js.packages`` with npm), and its
pinned and newest releases as the project knows them. An SDK that enters as one folder hands
its own line through its plugin (``lab.plugins``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ...errors import InvestigationError
from ...study.moves import Driven as Driven
from ...study.moves import Moves, StepDriver


def _js(version: str) -> StepDriver:
    from ... import paths
    from ...js.harness import Steps
    from ..js.packages import package_folder, pinned

    return Steps(paths.ROOT if version == pinned() else package_folder(version))


def _js_pinned() -> str:
    from ..js.packages import pinned

    return pinned()


def _js_newest() -> str:
    from ..js.packages import releases

    return releases()[-1]


def _js_patched(patch: Path) -> StepDriver:
    from ...js.harness import Steps
    from ..js.packages import pinned
    from ..js.patched import patched_folder

    driver = Steps(patched_folder(patch))
    driver.version = f"{pinned()}+{patch.name}"
    return driver


def _moves() -> Moves:
    from ...js import moves as js

    return js.MOVES


SDKS: dict[str, Callable[[], Driven]] = {
    "js": lambda: Driven(_moves(), _js, _js_pinned, _js_newest, _js_patched),
}


def registry() -> dict[str, Callable[[], Driven]]:
    """Every driver the search can run: the lines above, then each plugin's."""
    from ..plugins import plugins

    return SDKS | {p.name: p.driven for p in plugins() if p.driven is not None}


def driven(name: str) -> Driven:
    """The registry line of ``name`` (``js``, or a plugin's), or a one-line error."""
    lines = registry()
    if name not in lines:
        raise InvestigationError(f"no driver {name!r}: expected one of {', '.join(lines)}")
    return lines[name]()
