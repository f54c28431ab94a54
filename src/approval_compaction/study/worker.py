"""Worker: the process boundary, a fresh interpreter given only a paused state's JSON and a store.

``python -m approval_compaction.study.worker`` reads one request per line on stdin and writes one
answer per line on stdout, both JSON. A request is a conversation's ``Setup``, the store file's
path, the paused state's JSON text (or none) and that of a state kept aside (``Keep``), the counters
the model wiring's ids go on from, and the steps to take; the answer is the ``Transcript`` of those
steps (the state they leave paused included), the counters, the approved tools' runs and the state
kept aside. The driver sends it the steps after a ``process`` boundary; a whole conversation goes
the same way when it must run on another release (the worker started with that release's
interpreter). It imports only the study and the SDK, so a release's own interpreter runs it with the
project's source folder on ``PYTHONPATH``. One ``Worker`` serves many requests, so a search pays the
start-up once.
"""

from __future__ import annotations

import asyncio
import json
import select
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path
from typing import Any

from ..errors import InvestigationError

MODULE = "approval_compaction.study.worker"
TIMEOUT_SECONDS = 600


class WorkerError(InvestigationError):
    """The worker process ended, or took too long, without an answer."""


class Worker:
    """One worker process, started on first use with ``python`` (a release's, say) and
    ``environ`` (None: this process's), and reused until ``close``."""

    def __init__(
        self, python: str = sys.executable, environ: Mapping[str, str] | None = None
    ) -> None:
        self.python, self.environ = python, environ
        self.proc: subprocess.Popen[str] | None = None

    def ask(self, request: dict[str, Any], timeout: float = TIMEOUT_SECONDS) -> dict[str, Any]:
        """Send one request and wait (at most ``timeout`` seconds) for its answer."""
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [self.python, "-m", MODULE],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=None if self.environ is None else dict(self.environ),
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
            raise WorkerError(f"the worker ({self.python}) gave no answer within {timeout:g} s")
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


async def answer(request: dict[str, Any]) -> dict[str, Any]:
    """Take one request's steps in a fresh driver on its store (only JSON and the file cross);
    a request with ``branches`` (steps) and ``positions`` takes them from each position of a
    trunk of plain turns instead (``driver.take_branches``), in a folder of its own."""
    from .driver import Driver, Setup, step_from_json, take_branches  # the driver starts
    # workers: import late

    setup = Setup.from_json(request["setup"])
    if "branches" in request:
        rest = [step_from_json(s) for s in request["branches"]]
        with tempfile.TemporaryDirectory(prefix="approval-compaction-branches-") as folder:
            done = await take_branches(setup, rest, request["positions"], Path(folder))
        return {"transcripts": [t.to_json() for t in done]}
    state, kept = request["state"], request["kept"]
    async with Driver(setup, Path(request["path"]), state=state, kept=kept) as driver:
        if request["counters"] is not None:
            driver.counters = request["counters"]
        transcript = await driver.transcript([step_from_json(s) for s in request["steps"]])
        approved = driver.dispatches.approved
        return {
            "transcript": transcript.to_json(),
            "counters": driver.counters,
            "dispatched": approved,
            "kept": driver.kept,
        }


def serve() -> None:
    """The worker loop: one JSON request per line in, one JSON answer per line out."""
    for line in sys.stdin:
        sys.stdout.write(json.dumps(asyncio.run(answer(json.loads(line)))) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve()
