"""Harness: the ADK driver (``driver.py``, beside this module) run by one interpreter that has
``google-adk`` installed, its captures read back as the study's runs.

A ``Plan`` is what varies between matrices: the compaction kind (``EventsCompactionConfig``'s
sliding window with overlap 0 or 1, or its token threshold keeping 0 or 2 raw events), the
cases, and for liveness the ``situations`` (each runs instead of the cases) and the ``later``
plain questions after each. The driver runs in the release's interpreter, one process per plan
(and a second one for the plan's ``json`` cases, which resume from the database); it judges
nothing. The model is the driver's scripted ``BaseLlm``: nothing goes over HTTP, so the model's
requests are judged by the stand-in's rules applied to each ``LlmRequest.contents``
(``analysis.invariants``, the ``scripted`` model). A plan whose ``model`` is ``responses`` runs
ADK's own ``OpenAIResponsesLlm`` instead, against the stand-in served here on 127.0.0.1 (one
conversation per case): every model request is sent over HTTP and judged there.

A case's words are the study's, read for ADK: ``run`` is ``Runner.run_async``, ``run_streamed``
the same with ``RunConfig(streaming_mode=SSE)``; ``approve``/``reject`` the user's
``ToolConfirmation(confirmed=...)``; ``on`` an ``App`` with the plan's compaction, ``off`` one
without; ``memory`` one ``InMemorySessionService`` in one process, ``json`` a
``DatabaseSessionService`` on a SQLite file that a second process reads to resume.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import paths
from ..analysis.liveness import LivenessRun
from ..errors import InvestigationError
from ..study.capture import CaseRun
from ..study.moves import StepAnswer
from ..study.scenario import Case, all_cases
from ..study.words import Model
from ..study.worker import ScriptSteps, WorkerError, run_script, script_environ
from .items import Ids, read_liveness, read_run, read_step
from .words import Kind as AdkKind

DRIVER = Path(__file__).with_name("driver.py")
OVER_HTTP = "over HTTP"  # what a plan's (and a release's) label adds when its model is the API's
TIMEOUT = 1800.0  # seconds for one plan's process
# The liveness situations ADK can express: a confirmation never answered, a worker that dies
# once the model's call is stored, a confirmation answered late, a long-running tool whose
# result arrives late, and the control.
SITUATIONS: tuple[str, ...] = ("abandoned", "lost", "resumed", "long_running", "clean")


class DriverError(InvestigationError):
    """The ADK driver could not run, or failed, in one line."""


@dataclass(frozen=True)
class Plan:
    """One matrix of the ADK study: the compaction kind every case of it shares, and the cases
    (or, for liveness, the situations and the later questions after each)."""

    kind: AdkKind = "window-0"
    cases: tuple[Case, ...] = field(default_factory=lambda: tuple(all_cases()))
    situations: tuple[str, ...] = ()
    later: int = 0
    model: Model = "scripted"  # or "responses": ADK's OpenAIResponsesLlm on the stand-in

    @property
    def label(self) -> str:
        return self.kind if self.model == "scripted" else f"{self.kind} {OVER_HTTP}"

    # What a sweep record reads of any driver's plan (``lab.releases.driven.record``).
    @property
    def mode(self) -> str:
        return self.kind

    response_store: None = None
    trigger: str = "case"
    session: str = "memory and database"  # the cases cross both boundaries
    process: bool = False


def run_plans(plans: Sequence[Plan], python: Path) -> list[list[CaseRun]]:
    """Each plan's runs, with the ``google-adk`` installed beside ``python``."""
    return [[read_run(line) for line in lines] for lines in _run_driver(plans, python)]


def run_plan(plan: Plan, python: Path) -> list[CaseRun]:
    (runs,) = run_plans([plan], python)
    return runs


def run_situations(
    plans: Sequence[Plan], python: Path, release: str | None = None
) -> list[list[LivenessRun]]:
    """Each liveness plan's situations, as the runs ``analysis.liveness`` judges (``release``
    names a patched package)."""
    return [
        [read_liveness(line, release) for line in lines] for lines in _run_driver(plans, python)
    ]


def _run_driver(plans: Sequence[Plan], python: Path) -> list[list[dict[str, Any]]]:
    if not Path(python).exists():
        raise DriverError(f"no interpreter at {python}: make the release's environment first")
    results = []
    with (
        ExitStack() as stack,
        tempfile.TemporaryDirectory(
            prefix="approval-compaction-adk-", dir=paths.scratch()
        ) as scratch,
    ):
        driver = Path(scratch) / DRIVER.name  # run from a folder holding nothing else
        shutil.copyfile(DRIVER, driver)
        server = None  # the stand-in, served once a plan sends its model requests over HTTP
        for number, plan in enumerate(plans):
            spec: dict[str, Any] = {
                "kind": plan.kind,
                "cases": [case.as_dict() for case in plan.cases],
                "situations": list(plan.situations),
                "later": plan.later,
                "model": plan.model,
                "scratch": scratch,
                "label": f"p{number}",
            }
            if plan.model == "responses":
                from ..wire.server import running  # loads the openai client: only when asked

                server = server or stack.enter_context(running(conversations=True))
                spec["base_url"] = server.base_url
            results.append(_run(python, driver, spec))
    return results


def environ() -> dict[str, str]:
    """Variables for the release's interpreter: no inherited Python paths, no key to any
    provider, a fixed hash seed (set orders come out the same on every run)."""
    return script_environ(("OPENAI", "GOOGLE", "GEMINI"))


def _run(python: Path, driver: Path, spec: dict[str, Any]) -> list[dict[str, Any]]:
    try:
        return run_script(python, driver, spec, environ(), TIMEOUT)
    except WorkerError as error:
        raise DriverError(f"the ADK driver {error}") from None


class Steps(ScriptSteps):
    """The driver taking a searched conversation one step at a time (``driver.py --steps``),
    in the release's interpreter, from a scratch folder of its own (its SQLite files too): one
    process for every conversation until ``close`` (a ``process`` boundary is its fork).
    ``study.moves.StepDriver`` is the interface; ``moves.MOVES`` the steps it takes."""

    who, error = "the ADK driver", DriverError

    def __init__(self, python: Path, timeout: float = TIMEOUT) -> None:
        if not Path(python).exists():
            raise DriverError(f"no interpreter at {python}: make the release's environment first")
        scratch = tempfile.mkdtemp(prefix="approval-compaction-adk-steps-", dir=paths.scratch())
        driver = Path(scratch) / DRIVER.name
        shutil.copyfile(DRIVER, driver)
        self.ids = Ids()
        super().__init__([str(python), str(driver), "--steps"], environ(), scratch, timeout)

    def start(self, settings: Mapping[str, Any]) -> str:
        self.ids = Ids()
        return self.open(settings)

    def step(self, index: int, step: Mapping[str, Any]) -> StepAnswer:
        return read_step(self.take(index, step), self.ids)

    def close(self) -> None:
        self.worker.close()
        shutil.rmtree(self.scratch, ignore_errors=True)
