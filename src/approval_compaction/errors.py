"""Errors: the one-line failures a user can cause, each naming its problem.

Every error meant for a user derives from ``InvestigationError``; the command line prints its
message on one line and exits 2, so none of them ends in a traceback.
"""

from __future__ import annotations


class InvestigationError(Exception):
    """Base class: a problem with the input, stated in one line."""


class StateRestoreError(InvestigationError):
    """A RunState JSON that cannot be restored: corrupted, truncated, or for another agent."""
