"""Worker: the openai-agents driver's process boundary, the shared ``study.worker.Worker``
started on this folder's ``worker_main`` with ``python`` (this interpreter, or a release's).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from ..study import worker

MODULE = "approval_compaction.openai_agents.worker_main"


class Worker(worker.Worker):
    """One ``worker_main`` process, started on first use with ``python`` and ``environ`` (None:
    this process's), and reused until ``close``."""

    def __init__(
        self, python: str = sys.executable, environ: Mapping[str, str] | None = None
    ) -> None:
        super().__init__([python, "-m", MODULE], environ)
