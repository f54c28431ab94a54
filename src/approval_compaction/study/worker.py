"""Worker: the process boundary, a fresh interpreter given only a paused state's JSON and a store.

``Worker`` starts a driver's process side (a program that answers one JSON line per request, in
a release's interpreter, say) and sends it one request per line, each answered by one line: the
Python driver's (its ``worker.Worker``) takes a conversation's ``Setup``, the store file's path,
the paused state's JSON and the steps, and gives back their ``Transcript``. The driver sends it
the steps after a ``process`` boundary; a whole conversation goes the same way when it must run
on another release. One ``Worker`` serves many requests, so a search pays the start-up once.

Another SDK's driver script, run by its release's interpreter, crosses the same boundary:
``script_environ`` is what that interpreter is given of this process's variables, and
``run_script`` runs the script once on one JSON input and reads its JSON lines back, and
``ask_driver`` asks a script a ``Worker`` runs, its failures in the SDK's own error.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
from collections.abc import Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any, Self

from ..errors import InvestigationError

TIMEOUT_SECONDS = 600


class WorkerError(InvestigationError):
    """The worker process ended, or took too long, without an answer."""


class Worker:
    """One worker process, started on first use with ``command`` (in ``cwd``) and ``environ``
    (None: this process's), and reused until ``close``: a program that answers one JSON line per
    request, a driver in the SDK's own runtime (a release's interpreter, say) taking a
    conversation's steps."""

    def __init__(
        self,
        command: Sequence[str],
        environ: Mapping[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        self.command, self.environ, self.cwd = list(command), environ, cwd
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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def script_environ(drop: Sequence[str] = (), **given: str) -> dict[str, str]:
    """Variables for a release's interpreter running a driver script: none of this process's
    Python paths (``PYTHON*``, ``VIRTUAL_ENV``) nor any variable starting with one of ``drop``
    (a provider's key or endpoint), no user site, a fixed hash seed (set orders come out the
    same on every run), no warnings; then ``given``."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", *drop))
    }
    env.update(PYTHONNOUSERSITE="1", PYTHONHASHSEED="0", PYTHONWARNINGS="ignore", **given)
    return env


def run_script(
    python: Path, script: Path, given: Any, environ: Mapping[str, str], timeout: float
) -> list[dict[str, Any]]:
    """Run ``script`` once in ``python`` from its own folder, ``given`` as JSON on its standard
    input: its JSON lines. A script that fails or takes longer than ``timeout`` seconds is a
    ``WorkerError`` saying so in one line (its last line on stderr)."""
    try:
        done = subprocess.run(
            [str(python), str(script)],
            input=json.dumps(given),
            capture_output=True,
            text=True,
            timeout=timeout,
            env=dict(environ),
            cwd=script.parent,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise WorkerError(f"did not finish in {timeout:.0f} s") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise WorkerError(f"exited with {done.returncode}: {last}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def ask_driver(
    worker: Worker,
    request: dict[str, Any],
    timeout: float,
    who: str,
    error: type[InvestigationError],
) -> dict[str, Any]:
    """One request to a driver script ``worker`` runs: its answer, or ``error`` in one line
    naming ``who`` when the script gives none in time or answers that it failed."""
    try:
        answer = worker.ask(request, timeout=timeout)
    except WorkerError as failed:
        raise error(f"{who}: {failed}") from None
    if answer.get("error"):
        raise error(f"{who} failed: {answer['error']}")
    return answer


class ScriptSteps:
    """What every SDK's ``Steps`` shares (``moves.StepDriver``): a driver script that a
    ``Worker`` runs from ``scratch`` (``command``), asked its release's version at once, then a
    conversation opened per ``open`` (numbered ``c1``, ``c2``, ...) and its steps taken per
    ``take``; every answer through ``ask_driver``, a failure ``error`` in one line naming
    ``who``. An SDK's ``Steps`` adds its settings and maps its answers."""

    who = "the driver"
    error: type[InvestigationError] = InvestigationError

    def __init__(
        self, command: Sequence[str], environ: Mapping[str, str], scratch: str, timeout: float
    ) -> None:
        self.worker = Worker(command=command, environ=environ, cwd=scratch)
        self.scratch, self.timeout, self.started = scratch, timeout, 0
        self.version = str(self.ask({"op": "version"})["sdk_version"])

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send one request, and wait (at most ``timeout`` seconds) for its answer."""
        return ask_driver(self.worker, request, self.timeout, self.who, self.error)

    def open(self, settings: Mapping[str, Any], **given: Any) -> str:
        """Open the next conversation (``settings``, its label, then ``given``): "" when it
        started, else why the release cannot run it."""
        self.started += 1
        spec = {**settings, "label": f"c{self.started}", **given}
        answer = self.ask({"op": "start", "settings": spec, "scratch": self.scratch})
        return str(answer.get("not_applicable", ""))

    def take(self, index: int, step: Mapping[str, Any]) -> dict[str, Any]:
        """Take one step (its JSON) of the open conversation: the driver's answer."""
        return self.ask({"op": "step", "index": index, "step": dict(step)})
