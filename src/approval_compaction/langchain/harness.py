"""Harness: the LangChain driver (``driver.py``, beside this module) run by one interpreter that
has ``langchain`` installed, against the stand-in served here, its lines read back as the
study's runs.

A ``Plan`` is what varies between matrices: the compaction kind (``SummarizationMiddleware``
keeping one or two messages, or the docs' ``trim_messages`` step), the API ``ChatOpenAI``
speaks (Chat Completions, or the Responses API with ``use_responses_api``), the cases, and for
liveness the ``situations`` (each runs instead of the cases) and the ``later`` plain questions
after each. Every plan of one call runs in one process of the release's interpreter (its
``json`` cases resumed by a second process from the SQLite file), and every model request it
makes is sent over HTTP to one stand-in on 127.0.0.1, one conversation per case, and answered
or refused there by the API's rules (``wire.rules``).

A case's words, read for LangChain: ``run`` is ``agent.invoke``, ``run_streamed`` is
``agent.stream`` (``updates`` and ``messages``: the model's tokens streamed) consumed whole;
``approve``/``reject`` the human's decision in ``Command(resume={"decisions": [...]})``; ``on``
the plan's compaction step before each model call, ``off`` none; ``memory`` one
``InMemorySaver`` in one process, ``json`` a ``SqliteSaver`` on a file that a second process
opens to resume.
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
from ..study.worker import ScriptSteps, WorkerError, run_script, script_environ
from .items import read_liveness, read_run, read_step
from .words import APIS as APIS
from .words import KINDS as KINDS
from .words import STEPS as STEPS
from .words import Api as Api
from .words import Kind as Kind

DRIVER = Path(__file__).with_name("driver.py")
TIMEOUT = 3600.0  # seconds for one call's process


class DriverError(InvestigationError):
    """The LangChain driver could not run, or failed, in one line."""


@dataclass(frozen=True)
class Plan:
    """One matrix of the LangChain study: the compaction kind and the API every case of it
    shares, and the cases (or, for liveness, the situations and the later questions)."""

    kind: Kind = "keep-1"
    api: Api = "chat"
    cases: tuple[Case, ...] = field(default_factory=lambda: tuple(all_cases()))
    situations: tuple[str, ...] = ()
    later: int = 0

    @property
    def label(self) -> str:
        """The setting's name in records and tables: ``keep-1 chat``."""
        return f"{self.kind} {self.api}"

    # What a sweep record reads of any driver's plan (``lab.releases.driven.record``).
    @property
    def mode(self) -> str:
        return self.label

    response_store: None = None
    trigger: str = "every model call"
    session: str = "memory and SQLite"  # the cases cross both boundaries
    process: bool = False


def run_plans(plans: Sequence[Plan], python: Path) -> list[list[CaseRun]]:
    """Each plan's runs, with the ``langchain`` installed beside ``python``."""
    return [[read_run(line) for line in lines] for lines in run_driver(plans, python)]


def run_situations(
    plans: Sequence[Plan], python: Path, release: str | None = None
) -> list[list[LivenessRun]]:
    """Each liveness plan's situations, as the runs ``analysis.liveness`` judges (``release``
    names a patched package)."""
    return [[read_liveness(line, release) for line in lines] for lines in run_driver(plans, python)]


def run_driver(plans: Sequence[Plan], python: Path) -> list[list[dict[str, Any]]]:
    """Every plan in one process of ``python``, against one stand-in: each plan's lines."""
    from ..wire.server import running  # loads the openai client: only when a plan runs

    if not Path(python).exists():
        raise DriverError(f"no interpreter at {python}: make the release's environment first")
    with (
        tempfile.TemporaryDirectory(
            prefix="approval-compaction-langchain-", dir=paths.scratch()
        ) as scratch,
        running(conversations=True) as server,
    ):
        driver = Path(scratch) / DRIVER.name  # run from a folder holding nothing else
        shutil.copyfile(DRIVER, driver)
        specs: list[dict[str, Any]] = [
            {
                "kind": plan.kind,
                "api": plan.api,
                "cases": [case.as_dict() for case in plan.cases],
                "situations": list(plan.situations),
                "later": plan.later,
                "scratch": scratch,
                "label": f"p{number}",
                "base_url": server.base_url,
            }
            for number, plan in enumerate(plans)
        ]
        lines = _run(python, driver, specs)
    by: dict[str, list[dict[str, Any]]] = {str(spec["label"]): [] for spec in specs}
    for line in lines:
        by[str(line.pop("plan"))].append(line)
    return list(by.values())


def environ() -> dict[str, str]:
    """Variables for the release's interpreter: no inherited Python paths, no key or endpoint
    of any provider, a fixed hash seed, no tracing, bytecode cached as users' machines do."""
    return script_environ(
        ("OPENAI", "LANGCHAIN", "LANGSMITH"),
        LANGCHAIN_TRACING_V2="false",
        LANGSMITH_TRACING="false",
    )


def _run(python: Path, driver: Path, specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    try:
        return run_script(python, driver, specs, environ(), TIMEOUT)
    except WorkerError as error:
        raise DriverError(f"the LangChain driver {error}") from None


class Steps(ScriptSteps):
    """The driver taking a searched conversation one step at a time (``driver.py --steps``),
    in the release's interpreter, from a scratch folder of its own, against one stand-in served
    here (started when the first conversation starts): one process for every conversation until
    ``close``. ``study.moves.StepDriver`` is the interface; ``moves.MOVES`` the steps it takes;
    each answer is read by ``items.read_step``."""

    who, error = "the LangChain driver", DriverError

    def __init__(self, python: Path, timeout: float = TIMEOUT) -> None:
        if not Path(python).exists():
            raise DriverError(f"no interpreter at {python}: make the release's environment first")
        self.stack = ExitStack()
        scratch = self.stack.enter_context(
            tempfile.TemporaryDirectory(
                prefix="approval-compaction-langchain-steps-", dir=paths.scratch()
            )
        )
        driver = Path(scratch) / DRIVER.name
        shutil.copyfile(DRIVER, driver)
        self.base_url = ""
        super().__init__([str(python), str(driver), "--steps"], environ(), scratch, timeout)

    def start(self, settings: Mapping[str, Any]) -> str:
        if not self.base_url:
            from ..wire.server import running  # loads the openai client: only when one runs

            self.base_url = self.stack.enter_context(running(conversations=True)).base_url
        return self.open(settings, base_url=self.base_url)

    def step(self, index: int, step: Mapping[str, Any]) -> StepAnswer:
        return read_step(self.take(index, step))

    def close(self) -> None:
        self.worker.close()
        self.stack.close()
