"""Bench: patched SDKs judged in long-lived workers, a configuration costing what its cases cost.

A configuration is a release (the base) and the texts of the modules a patch changes. Instead
of a copied environment and a fresh interpreter per configuration (``releases.patched``), a
``Bench`` keeps workers (``bench_worker``) running in each base release's environment, each
having imported the release's dependencies but not ``agents``; per configuration a worker forks
a child that loads the patched texts in place of the installed modules and runs the cases
asked for, one step (a case, on every model the probe runs) at a time. ``Bench.run`` takes a
``stop`` rule, told the steps' runs as they come: the search stops a configuration at its first
verdict. At most ``jobs`` configurations run at once (one per core by default), from any
number of threads.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..lab.releases import environments
from ..study.fork import cores
from ..study.items import Item
from ..study.scenario import Case
from .bench_worker import MODULE, Lines

START_TIMEOUT_SECONDS = 120


@dataclass(frozen=True)
class Step:
    """One case of a plan: the case, and the reply the model pauses on with the kind of the
    tool it calls (None: the study's own ``needs_approval`` function call)."""

    case: Case
    kind: str | None = None
    pause: tuple[Item, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"case": self.case.as_dict(), "kind": self.kind, "pause": list(self.pause)}


@dataclass
class Ran:
    """What a configuration's child answered: why ``agents`` did not import, or the versions it
    resolved to and each step's runs (or why the release cannot make the step's tool), by the
    step's position; ``complete`` when every step asked for was answered."""

    unavailable: str = ""
    versions: dict[str, str] = field(default_factory=dict)
    runs: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    absent: dict[int, str] = field(default_factory=dict)
    skipped: set[int] = field(default_factory=set)
    complete: bool = False
    failure: str = ""  # the child ended without answering every step: how

    def answered(self, step: int) -> bool:
        return step in self.runs or step in self.absent or step in self.skipped


Stop = Callable[[Ran], bool]  # told the answers so far: True when no more are needed


class BenchError(environments.SweepError):
    """A worker that does not start or answer."""


class WorkerProcess:
    """One ``bench_worker`` in a release's environment."""

    def __init__(self, env: environments.Environment) -> None:
        self.env = env
        self.proc = subprocess.Popen(
            [str(env.python), "-m", MODULE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=environments.isolated_environ(),
            cwd=str(env.folder),
        )
        assert self.proc.stdout is not None
        self.lines = Lines(self.proc.stdout.fileno())
        self.next_id = 0
        first = self.readline(START_TIMEOUT_SECONDS)
        if not first or "ready" not in json.loads(first):
            self.close()
            raise BenchError(f"the bench worker of {env.version} did not start")

    def readline(self, timeout: float) -> str:
        """The next answer line, or "" when none comes within ``timeout`` seconds."""
        return self.lines.next() if self.lines.ready(max(timeout, 0)) else ""

    def send(self, request: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()

    def run(
        self, files: Mapping[str, str], steps: Sequence[Step], stop: Stop, timeout: float
    ) -> Ran:
        """One configuration: its answers until every step is answered, ``stop`` says enough,
        or a step takes more than ``timeout`` seconds (then ``failure`` says so, and the first
        step not answered is the one that hung)."""
        self.next_id += 1
        ident = self.next_id
        self.send({"run": ident, "files": dict(files), "plan": [s.to_json() for s in steps]})
        ran, stopped = Ran(), False
        deadline = time.monotonic() + timeout
        while True:
            line = self.readline(deadline - time.monotonic())
            if not line:
                if self.proc.poll() is not None:
                    raise BenchError(f"the bench worker of {self.env.version} ended")
                self.send({"stop": ident})
                stopped, deadline = True, time.monotonic() + START_TIMEOUT_SECONDS
                ran.failure = ran.failure or f"timed out after {timeout:g} s"
                continue
            answer = json.loads(line)
            if answer.get("id") != ident:
                continue  # a late answer of an earlier configuration
            if not stopped:
                deadline = time.monotonic() + timeout  # each step has its own time
            if "done" in answer:
                break
            if stopped:
                continue
            if "unavailable" in answer:
                ran.unavailable = answer["unavailable"]
            elif "versions" in answer:
                ran.versions = answer["versions"]
            elif "absent" in answer:
                ran.absent[answer["step"]] = answer["absent"]
            elif "skipped" in answer:
                ran.skipped.add(answer["step"])
            elif "runs" in answer:
                ran.runs[answer["step"]] = answer["runs"]
            if not ran.unavailable and stop(ran):
                self.send({"stop": ident})
                stopped = True
        answered = len(ran.runs) + len(ran.absent) + len(ran.skipped)
        ran.complete = bool(ran.unavailable) or answered == len(steps)
        if not ran.complete and not stopped:
            ran.failure = ran.failure or f"the run ended after {answered} of {len(steps)} cases"
        return ran

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            with contextlib.suppress(BrokenPipeError):
                self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Bench:
    """Workers per base release, at most ``jobs`` configurations at once (0: one per core)."""

    def __init__(self, envs: Path, jobs: int = 0) -> None:
        self.envs = envs
        self.jobs = jobs or cores()
        self.slots = threading.BoundedSemaphore(self.jobs)
        self.lock = threading.Lock()
        self.idle: dict[str, list[WorkerProcess]] = {}
        self.every: list[WorkerProcess] = []

    @contextlib.contextmanager
    def worker(self, base: str) -> Iterator[WorkerProcess]:
        with self.slots:
            with self.lock:
                pool = self.idle.setdefault(base, [])
                worker = pool.pop() if pool else None
            if worker is None:
                env = environments.release_environment(base, self.envs, create=False)
                worker = WorkerProcess(env)
                with self.lock:
                    self.every.append(worker)
            try:
                yield worker
            finally:
                with self.lock:
                    pool.append(worker)

    def run(
        self,
        base: str,
        files: Mapping[str, str],
        steps: Sequence[Step],
        stop: Stop = lambda ran: False,
        timeout: float = 60,
    ) -> Ran:
        """Run ``steps`` on ``base`` with ``files`` in place of its modules, each step within
        ``timeout`` seconds."""
        with self.worker(base) as worker:
            return worker.run(files, steps, stop, timeout)

    def close(self) -> None:
        with self.lock:
            for worker in self.every:
                worker.close()
            self.every, self.idle = [], {}

    def __enter__(self) -> Bench:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
