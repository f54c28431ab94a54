"""SDKs: the drivers the search runs on besides the Python SDK's own, one registry line each.

Each line names the SDK's moves (its folder's ``moves.MOVES``), how to start its driver on a
release (the release's environment made on first use: ``lab.adk.packages`` with uv), and its
pinned and newest releases as the project knows them.
An SDK that enters as one folder hands its own line through its plugin (``lab.plugins``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ...errors import InvestigationError
from ...study.moves import Driven as Driven
from ...study.moves import Moves, StepDriver


def _adk(version: str) -> StepDriver:
    from ...adk.harness import Steps
    from ..adk.packages import release_environment

    return Steps(release_environment(version).python)


def _adk_pinned() -> str:
    from ..adk.packages import pinned

    return pinned()


def _adk_newest() -> str:
    from ..adk.packages import releases

    return releases()[-1]


def _adk_patched(patch: Path) -> StepDriver:
    from ...adk.harness import Steps
    from ..adk.patched import label, patched_environment

    driver = Steps(patched_environment(patch).python)
    driver.version = label(patch)
    return driver


def _moves() -> Moves:
    from ...adk.moves import MOVES

    return MOVES


SDKS: dict[str, Callable[[], Driven]] = {
    "adk": lambda: Driven(_moves(), _adk, _adk_pinned, _adk_newest, _adk_patched),
}


def registry() -> dict[str, Callable[[], Driven]]:
    """Every driver the search can run: the lines above, then each plugin's."""
    from ..plugins import plugins

    return SDKS | {p.name: p.driven for p in plugins() if p.driven is not None}


def driven(name: str) -> Driven:
    """The registry line of ``name`` (``adk``, or a plugin's), or a one-line error."""
    lines = registry()
    if name not in lines:
        raise InvestigationError(f"no driver {name!r}: expected one of {', '.join(lines)}")
    return lines[name]()
