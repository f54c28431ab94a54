"""A pytest plugin that applies the workaround to every compaction session a test suite builds.

``upstream-suite --fix`` loads it into the SDK's own test run (``-p
approval_compaction.fix.suite_plugin``): each ``OpenAIResponsesCompactionSession(...)`` the tests
construct is passed through ``defer_compaction_while_pending`` as soon as it is built, as a user
applying the workaround would. A subclass a test defines is left as the test wrote it. Each
process writes how many sessions it upgraded to a file in ``APPROVAL_COMPACTION_SUITE_COUNTS``,
so the run can show the workaround was really in place.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

import pytest

COUNTS_VARIABLE = "APPROVAL_COMPACTION_SUITE_COUNTS"
_upgraded = [0]


def install() -> None:
    """Wrap the SDK class's ``__init__`` so each new instance is deferring once it is built."""
    from agents.memory import OpenAIResponsesCompactionSession

    from .workaround import defer_compaction_while_pending

    original = OpenAIResponsesCompactionSession.__init__
    if getattr(original, "_approval_compaction", False):
        return

    @functools.wraps(original)
    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        if type(self) is OpenAIResponsesCompactionSession:
            defer_compaction_while_pending(self)
            _upgraded[0] += 1

    init._approval_compaction = True  # type: ignore[attr-defined]
    OpenAIResponsesCompactionSession.__init__ = init  # type: ignore[method-assign]


def pytest_configure(config: pytest.Config) -> None:
    install()


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = os.environ.get(COUNTS_VARIABLE)
    if folder:
        Path(folder, f"upgraded-{os.getpid()}.txt").write_text(f"{_upgraded[0]}\n")
