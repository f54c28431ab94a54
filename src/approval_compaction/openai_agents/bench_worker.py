"""Bench worker: one release's interpreter, judging many patched SDKs, one forked child each.

``bench.Bench`` starts ``python -m approval_compaction.openai_agents.bench_worker`` with a
release environment's interpreter and the project's source folder on ``PYTHONPATH``. At start
it imports what the release's ``agents`` imports (found by a scout child that imports the SDK
and the study, and says which other modules came with them) but never ``agents`` itself. Then,
one JSON request per line:

- ``{"run": ID, "files": {path: text}, "plan": [step, ...]}``: a child is forked; it installs
  the patched texts in place of the installed modules (``overlay``), imports ``agents`` and
  runs each step of the plan in order, one case of the matrix on each model the probe runs,
  in the study's compaction mode, as the probe (``releases.probe``) runs it; a step names its
  case, and the reply the model pauses on with the tool kind it calls (none: the study's own
  function call). Each step's runs are one answer line as they finish, so the caller can stop
  at the first verdict it needs.
- ``{"stop": ID}``: the child running ``ID`` is killed.

Answer lines: ``{"id": ID, "unavailable": why}`` (``agents`` did not import);
``{"id": ID, "versions": {...}, "wire": why}`` (it did); ``{"id": ID, "step": N, "runs": [...]}``
or ``{"id": ID, "step": N, "absent": why}`` (the release cannot make the step's tool), or
``{"id": ID, "step": N, "skipped": true}`` (an earlier case of its kind could not be run: that
case's error is the kind's outcome, whatever the later ones would find);
``{"id": ID, "done": exit code}`` last. Anything the SDK prints goes to standard error.
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import json
import os
import select
import signal
import sys
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from ..lab.mechanism import overlay
from ..lab.releases.probe import (
    IMPORT_FAILED,
    continued,
    installed_versions,
    missing_features,
    not_applicable,
    sdk_api,
)
from ..study.capture import LATER_TURNS

MODULE = "approval_compaction.openai_agents.bench_worker"
POLL_SECONDS = 0.02
OWN = ("agents", "approval_compaction", "__main__")  # never imported ahead of a child


def site() -> Path:
    """This interpreter's ``site-packages`` (where the release's ``agents`` is installed)."""
    spec = importlib.util.find_spec("agents")
    assert spec is not None and spec.origin is not None, "no agents in this environment"
    return Path(spec.origin).parent.parent


def write(out: IO[str], answer: dict[str, Any]) -> None:
    out.write(json.dumps(answer) + "\n")
    out.flush()


def scout() -> list[str]:
    """The modules other than the SDK and the project that importing both brings in, found by
    a child (this process imports none of them itself)."""
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: import, report, and leave without any teardown
        os.close(reader)
        before = set(sys.modules)
        try:
            sdk_api()
            importlib.import_module(f"{__package__}.harness")
            importlib.import_module(f"{__package__}.wiring").unavailable("responses")
        except Exception:  # noqa: BLE001  # a release that does not import: nothing to preload
            pass
        found = [n for n in sys.modules if n not in before and not n.startswith(OWN)]
        os.write(writer, json.dumps(found).encode())
        os.close(writer)
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    names: list[str] = json.loads(data or b"[]")
    return names


def preload(names: list[str]) -> None:
    """Import the modules the scout found (each that imports alone; the rest come later)."""
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001, S112  # a module that needs its importer's context
            continue


def run_steps(request: dict[str, Any], out: IO[str]) -> None:
    """The child's work: the overlay, the SDK, then each step's runs, one line each."""
    ident = request["run"]
    overlay.install(request["files"], site())
    try:
        api = sdk_api()
    except Exception as exc:  # as the probe: a release that does not import is unavailable
        reason = " ".join(f"{type(exc).__name__}: {exc}".split())
        write(out, {"id": ident, "unavailable": f"{IMPORT_FAILED}{reason}"[:300]})
        return
    from ..study.scenario import Case
    from ..study.words import STUDY_MODE
    from .harness import DEFAULT_SCRIPT, Script, run_case
    from .tools import build_agent
    from .wiring import BACKENDS, unavailable

    why = unavailable("responses")
    models = ["scripted"] + ([] if why else ["responses"])
    write(out, {"id": ident, "versions": installed_versions(), "wire": why})
    version = installed_versions()["openai-agents"]
    gc.enable()  # the imports are done: the cases run with the collector on, as in the probe
    broken: set[str | None] = set()  # the kinds one of whose cases the harness could not run
    for index, step in enumerate(request["plan"]):
        if step["kind"] in broken:  # the kind's outcome is that case's: the rest are not needed
            write(out, {"id": ident, "step": index, "skipped": True})
            continue
        case = Case(**step["case"])
        script = DEFAULT_SCRIPT
        if step["kind"] is not None:
            script = Script(pause=tuple(step["pause"]), kinds=(step["kind"],))
            try:
                build_agent(None, script.kinds)
            except Exception as exc:  # noqa: BLE001  # the release lacks the kind's tool
                absent = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
                write(out, {"id": ident, "step": index, "absent": absent})
                continue
        missing = missing_features(case, api)
        runs = [
            not_applicable(case, version, missing, model, STUDY_MODE)  # type: ignore[arg-type]
            if missing
            else run_case(
                case,
                backend=BACKENDS[model],  # type: ignore[index]
                script=replace(script, mode=STUDY_MODE),
                later=continued(model, STUDY_MODE, LATER_TURNS),  # type: ignore[arg-type]
            )
            for model in models
        ]
        if any(run.error is not None for run in runs):
            broken.add(step["kind"])
        write(out, {"id": ident, "step": index, "runs": [run.to_json() for run in runs]})


class Lines:
    """Lines of a file descriptor, read without a hidden buffer: ``ready`` can wait on it."""

    def __init__(self, fd: int) -> None:
        self.fd, self.buffer, self.ended = fd, b"", False

    def ready(self, timeout: float) -> bool:
        """Whether a whole line (or the end) can be had within ``timeout`` seconds."""
        while b"\n" not in self.buffer and not self.ended:
            readable, _, _ = select.select([self.fd], [], [], timeout)
            if not readable:
                return False
            chunk = os.read(self.fd, 1 << 16)
            self.buffer += chunk
            self.ended = not chunk
        return True

    def next(self) -> str:
        """The next line ("" at the end), waiting for it."""
        while not self.ready(3600):
            pass
        if b"\n" not in self.buffer:
            self.buffer, rest = b"", self.buffer
            return rest.decode()
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode() + "\n"


def serve(commands: Lines, out: IO[str]) -> None:
    """Answer requests until the input ends: one child at a time, killed when told."""
    while line := commands.next():
        if not line.strip():
            continue
        request = json.loads(line)
        if "run" not in request:
            continue  # a stop for a child that has ended already
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                run_steps(request, out)
            except BaseException:  # noqa: BLE001  # the parent reports the exit code
                import traceback

                traceback.print_exc()
                code = 1
            sys.stderr.flush()
            os._exit(code)
        status = wait(pid, request["run"], commands)
        write(out, {"id": request["run"], "done": status})


def wait(pid: int, ident: int, commands: Lines) -> int:
    """The child's exit status, killing it when a stop for it (or the end of input) comes."""
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if commands.ready(POLL_SECONDS):
            line = commands.next()
            if not line or json.loads(line).get("stop") == ident:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return -signal.SIGKILL


def main() -> int:
    gc.disable()  # as the probe: the collector is off while modules import
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # what the SDK prints goes to stderr
    preload(scout())
    write(out, {"ready": True})
    serve(Lines(sys.stdin.fileno()), out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
