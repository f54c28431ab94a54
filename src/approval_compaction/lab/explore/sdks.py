"""SDKs: the drivers the search runs on besides the Python SDK's own, one registry line each.

Each line names the SDK's moves (its folder's ``moves.MOVES``), how to start its driver on a
release (the release's environment made on first use), and its pinned and newest releases as the
project knows them. Every SDK that enters as one folder hands its own line through its plugin
(``lab.plugins``): the search names none.
"""

from __future__ import annotations

from collections.abc import Callable

from ...errors import InvestigationError
from ...study.moves import Driven as Driven


def registry() -> dict[str, Callable[[], Driven]]:
    """Every driver the search can run: each plugin's line, in the registry's order."""
    from ..plugins import plugins

    return {p.name: p.driven for p in plugins() if p.driven is not None}


def driven(name: str) -> Driven:
    """The registry line of ``name`` (a plugin's), or a one-line error."""
    lines = registry()
    if name not in lines:
        raise InvestigationError(f"no driver {name!r}: expected one of {', '.join(lines)}")
    return lines[name]()
