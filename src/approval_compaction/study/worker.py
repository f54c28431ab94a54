"""Worker: the process boundary, a fresh interpreter given only a paused state's JSON and a store.

``Worker`` starts ``python -m approval_compaction.study.worker_main`` (the process's side) and
sends it one request per line, each answered by one line, both JSON: a conversation's ``Setup``,
the store file's path, the paused state's JSON and the one kept aside, the counters and the steps
go in; their ``Transcript``, the counters, the approved tools' runs and the state kept aside come
back. The driver sends it the steps after a ``process`` boundary; a whole conversation goes the
same way when it must run on another release (the worker started with that release's
interpreter). One ``Worker`` serves many requests, so a search pays the start-up once.
"""

from __future__ import annotations

import json
import select
import subprocess
import sys
from collections.abc import Mapping, Sequence
from contextlib import suppress
from typing import Any

from ..errors import InvestigationError

MODULE = "approval_compaction.study.worker_main"
TIMEOUT_SECONDS = 600


class WorkerError(InvestigationError):
    """The worker process ended, or took too long, without an answer."""


class Worker:
    """One worker process, started on first use with ``python`` (a release's, say) and
    ``environ`` (None: this process's), and reused until ``close``. ``command`` (with ``cwd``)
    starts another program that answers the same way, one JSON line per request: a driver in
    the SDK's own runtime taking a searched conversation's steps."""

    def __init__(
        self,
        python: str = sys.executable,
        environ: Mapping[str, str] | None = None,
        command: Sequence[str] = (),
        cwd: str | None = None,
    ) -> None:
        self.python, self.environ = python, environ
        self.command = list(command) or [python, "-m", MODULE]
        self.cwd = cwd
        self.proc: subprocess.Popen[str] | None = None

    def ask(self, request: dict[str, Any], timeout: float = TIMEOUT_SECONDS) -> dict[str, Any]:
        """Send one request and wait (at most ``timeout`` seconds) for its answer."""
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=None if self.environ is None else dict(self.environ),
                cwd=self.cwd,
            )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        with suppress(BrokenPipeError):  # a worker that died says so below
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            self.proc.kill()
            self.proc.wait()
            raise WorkerError(f"the worker ({self.command[0]}) gave no answer within {timeout:g} s")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            assert self.proc.stdin is not None
            with suppress(BrokenPipeError):
                self.proc.stdin.close()
            self.proc.wait(timeout=30)
        self.proc = None

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
