"""Errors: the one-line failures a user can cause, each naming its problem.

Every error meant for a user derives from ``InvestigationError``; the command line prints its
message on one line and exits 2, so none of them ends in a traceback.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence


class InvestigationError(Exception):
    """Base class: a problem with the input, stated in one line."""


def printable(text: str) -> str:
    """``text`` as one line of a terminal: each control character (a newline, a carriage
    return, an escape) written as its escape (``\\r``), so input quoted in a message can
    neither break the line nor move the cursor."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


class StateRestoreError(InvestigationError):
    """A RunState JSON that cannot be restored: corrupted, truncated, or for another agent."""


class MissingExtra(InvestigationError):
    """What a step needs is not installed: one line naming the extra that installs it."""

    def __init__(self, what: str, missing: Sequence[str], extra: str) -> None:
        super().__init__(f"{what} needs {', '.join(missing)}: install approval-compaction[{extra}]")
        self.missing, self.extra = tuple(missing), extra


def require(what: str, modules: Sequence[str], extra: str) -> None:
    """Raise ``MissingExtra`` for the top-level ``modules`` that cannot be imported here."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise MissingExtra(what, missing, extra)
