"""Harness: the Node harness (``driver.mjs``, beside this module) run on one installed
``@openai/agents``, against the stand-in on 127.0.0.1, its captures read back as the study's runs.

A ``Plan`` is what varies between matrices: the compaction mode, the agent's
``ModelSettings.store`` (None: unset), the trigger (``case``: the case's on/off, ``default``:
the SDK's own, or a number: compact at that many candidate items), the underlying session
(``memory``: ``MemorySession``; ``file``: a JSON file, with ``process`` a json boundary crosses
to a second Node process), ``workaround`` (the session wrapped by ``js/workaround.mjs``), the
cases, the pause positions (each case runs once per number of plain turns stored before its
pause, in order: ``positions`` varies fastest), ``tool`` (the kind of tool that pauses:
``function``, a hosted ``mcp`` server, ``shell``, ``apply_patch`` or ``computer``), ``abandon``
(nobody decides: each pause is followed by the next question), ``history`` (items the session
holds before each case, in the JS SDK's protocol: a session a team stored) and ``later`` (plain
questions after each case, the compaction decision saying yes: the run's ``later`` turns); or,
for liveness,
``situations`` (each runs instead of the cases, then ``later`` plain questions: the Python
study's liveness situations the JS SDK can express), on the plan's ``runner``, the agent with
its tool or none (``tools``). ``shape`` is what the stand-in's compaction endpoint answers with
(``keeps_users``, as documented; ``summary_only`` by name). The stand-in gives each conversation its
own numbering (``Conversations``), so every case meets the same ids, and it checks every
request Node sends by the same rules as a Python one's.

The SDK can be in any folder that holds a ``node_modules`` (``package``): the harness is copied
into a scratch folder whose ``node_modules`` is a link to that folder's, so Node resolves
``@openai/agents``, ``openai`` and ``zod`` there and nothing is written beside the SDK. That runs
the folder's installed code (and whatever ``NODE_OPTIONS`` preloads), which may print on stdout:
the harness's records come back in a file of the scratch folder that only the harness writes
(``results``), never over stdout.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, cast

from .. import paths
from ..analysis.liveness import SDK_DEFAULT_THRESHOLD, LivenessRun
from ..errors import InvestigationError
from ..study.capture import CaseRun
from ..study.items import Item
from ..study.moves import StepAnswer
from ..study.scenario import Case, all_cases
from ..study.words import Mode, ResponseStore, ToolKind
from ..study.worker import ScriptSteps
from ..wire.rules import KEEPS_USERS, CompactShape
from ..wire.server import Running, running
from .items import STORE_SUFFIX, read_liveness, read_run, read_step

Trigger = Literal["case", "default"] | int
Runner = Literal["run", "run_streamed"]
SessionKind = Literal["memory", "file"]
DRIVER = Path(__file__).with_name("driver.mjs")
# The JS workaround a team copies (the repository's file; the plans wrap sessions with it).
WORKAROUND = paths.ROOT / "js" / "workaround.mjs"
# What the harness imports from the folder's node_modules: the SDK, its client, the tool's schema.
NEEDS = ("@openai/agents", "openai", "zod")
TIMEOUT = 600.0  # seconds for one Node process's cases


class NodeError(InvestigationError):
    """Node, or the harness's package, cannot be run here, in one line."""


@dataclass(frozen=True)
class Plan:
    """One matrix of the JS study: the settings every case of it shares, and the cases."""

    mode: Mode = "input"
    response_store: ResponseStore = None
    trigger: Trigger = "case"
    session: SessionKind = "memory"
    process: bool = False
    workaround: bool = False
    cases: tuple[Case, ...] = field(default_factory=lambda: tuple(all_cases()))
    positions: tuple[int, ...] = (0,)  # plain turns stored before the pause: each case at each
    tool: ToolKind = "function"  # the kind of tool the cases' agent pauses on
    abandon: bool = False  # nobody decides: each case's pause, then the next question
    situations: tuple[str, ...] = ()  # liveness situations, run instead of the cases
    later: int = 0  # the plain questions after each situation, or each case
    history: tuple[Item, ...] = ()  # what the session holds before each case, as the SDK stores it
    runner: Runner = "run"  # the situations' runner (a case names its own)
    tools: bool = True  # the situations' agent has its tool (False: none, a plain agent)
    shape: CompactShape = KEEPS_USERS  # what the stand-in's compaction endpoint answers

    @property
    def label(self) -> str:
        store = STORE_SUFFIX[self.response_store]
        where = "-process" if self.process else ("-file" if self.session == "file" else "")
        trigger = {"case": "", "default": "-default-trigger"}.get(
            str(self.trigger), f"-trigger-{self.trigger}"
        )
        fix = "-workaround" if self.workaround else ""
        streamed = "-streamed" if self.runner == "run_streamed" else ""
        shape = "" if self.shape == KEEPS_USERS else f"-{self.shape.replace('_', '-')}"
        tool = "" if self.tool == "function" else f"-{self.tool.replace('_', '-')}"
        tool += "-abandon" if self.abandon else ""
        return f"{self.mode}{store}{where}{trigger}{streamed}{shape}{tool}{fix}"

    @property
    def threshold(self) -> int | None:
        """The trigger's threshold, as the liveness judge reads it (None: the hook says yes)."""
        if self.trigger == "default":
            return SDK_DEFAULT_THRESHOLD
        return self.trigger if isinstance(self.trigger, int) else None


def node_binary() -> str:
    found = shutil.which("node")
    if found is None:
        raise NodeError("node not found on PATH: install Node.js (make setup installs Debian's)")
    return found


def missing(package: Path = paths.ROOT) -> list[str]:
    """The packages of ``NEEDS`` that ``package/node_modules`` does not hold."""
    return [n for n in NEEDS if not (package / "node_modules" / n / "package.json").is_file()]


def installed(package: Path = paths.ROOT) -> bool:
    """Whether ``package`` holds an installed ``@openai/agents`` and what the harness imports
    beside it (``npm ci`` ran there)."""
    return not missing(package)


def run_plans(plans: Sequence[Plan], package: Path = paths.ROOT) -> list[list[CaseRun]]:
    """Each plan's runs, on the ``@openai/agents`` installed in ``package``: one stand-in
    serves them all, one Node process runs each plan."""
    return [[read_run(line) for line in lines] for lines in run_lines(plans, package)]


def run_situations(
    plans: Sequence[Plan], package: Path = paths.ROOT, release: str | None = None
) -> list[list[LivenessRun]]:
    """Each liveness plan's situations, as the runs ``analysis.liveness`` judges (``release``
    names the package when it is not an installed release as it is)."""
    ran = run_lines(plans, package)
    return [
        [read_liveness(line, release, plan.threshold) for line in lines]
        for plan, lines in zip(plans, ran, strict=True)
    ]


def run_lines(plans: Sequence[Plan], package: Path = paths.ROOT) -> list[list[dict[str, Any]]]:
    """Each plan's lines as the harness wrote them (``items`` reads them), on the
    ``@openai/agents`` installed in ``package``."""
    lacking = missing(package)
    if lacking:
        raise NodeError(
            f"{package} has no node_modules/{lacking[0]}: pass the folder that holds your "
            "node_modules, or install the packages there (npm ci)"
        )
    node = node_binary()
    results = []
    servers: dict[CompactShape, Running] = {}  # one stand-in per compaction shape, started once
    with (
        ExitStack() as stack,
        tempfile.TemporaryDirectory(
            prefix="approval-compaction-js-", dir=paths.scratch()
        ) as scratch,
    ):
        harness = _beside(Path(scratch), package, any(plan.workaround for plan in plans))
        for number, plan in enumerate(plans):
            if plan.shape not in servers:
                servers[plan.shape] = stack.enter_context(
                    running(conversations=True, compact_shape=plan.shape)
                )
            server = servers[plan.shape]
            written = Path(scratch) / f"p{number}.jsonl"
            spec = {
                **{k: v for k, v in asdict(plan).items() if k != "cases"},
                "cases": [case.as_dict() for case in plan.cases],
                "base_url": server.base_url,
                "scratch": scratch,
                "label": f"p{number}",
                "results": str(written),
            }
            results.append(_run_node(node, harness, spec, written))
    return results


def _beside(scratch: Path, package: Path, workaround: bool) -> Path:
    """The driver copied into ``scratch`` (with ``js/workaround.mjs`` when a plan wraps the
    session), and ``scratch/node_modules`` a link to ``package``'s: what Node runs."""
    driver = scratch / DRIVER.name
    shutil.copyfile(DRIVER, driver)
    if workaround:
        shutil.copyfile(WORKAROUND, scratch / WORKAROUND.name)
    (scratch / "node_modules").symlink_to((package / "node_modules").resolve())
    return driver


def run_plan(plan: Plan, package: Path = paths.ROOT) -> list[CaseRun]:
    (runs,) = run_plans([plan], package)
    return runs


def _run_node(
    node: str, harness: Path, spec: dict[str, object], written: Path
) -> list[dict[str, Any]]:
    """The records the harness appended to ``written``, one JSON line each (what Node printed
    on stdout, the team's packages or a preloaded agent say, is not read)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI")}
    env["NODE_NO_WARNINGS"] = "1"
    try:
        done = subprocess.run(
            [node, str(harness)],
            input=json.dumps(spec),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=TIMEOUT,
            env=env,
            cwd=harness.parent,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise NodeError(f"the JS harness did not finish in {TIMEOUT:.0f} s") from None
    if done.returncode != 0:
        raise NodeError(f"the JS harness exited with {done.returncode}: {_said(done.stderr)}")
    try:
        text = written.read_text(encoding="utf-8") if written.exists() else ""
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    except (UnicodeDecodeError, ValueError) as error:
        raise NodeError(f"the JS harness's records cannot be read: {error}") from None


def _said(stderr: str) -> str:
    """The line of Node's stderr that names the problem: the error's own line, not its stack
    or the ``Node.js v20...`` trailer."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    named = [line for line in lines if "Error" in line.split(":", 1)[0]]
    return (named or lines or ["no output"])[-1]


class Steps(ScriptSteps):
    """The harness taking a searched conversation one step at a time (``driver.mjs --steps``),
    on the ``@openai/agents`` installed in ``package``, against a stand-in per compaction shape
    served here (started when a conversation first asks for its shape): one Node process for
    every conversation until ``close`` (a ``process`` boundary starts a second one).
    ``study.moves.StepDriver`` is the interface; ``moves.MOVES`` the steps it takes."""

    who, error = "the JS harness", NodeError

    def __init__(self, package: Path = paths.ROOT, timeout: float = TIMEOUT) -> None:
        lacking = missing(package)
        if lacking:
            raise NodeError(f"{package} has no node_modules/{lacking[0]}: run npm ci there")
        self.stack = ExitStack()
        scratch = self.stack.enter_context(
            tempfile.TemporaryDirectory(prefix="approval-compaction-js-steps-", dir=paths.scratch())
        )
        harness = _beside(Path(scratch), package, workaround=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI")}
        env["NODE_NO_WARNINGS"] = "1"
        self.servers: dict[str, Running] = {}
        super().__init__([node_binary(), str(harness), "--steps"], env, scratch, timeout)

    def start(self, settings: Mapping[str, Any]) -> str:
        shape = str(settings.get("shape", KEEPS_USERS))
        if shape not in self.servers:
            self.servers[shape] = self.stack.enter_context(
                running(conversations=True, compact_shape=cast(CompactShape, shape))
            )
        return self.open(settings, base_url=self.servers[shape].base_url)

    def step(self, index: int, step: Mapping[str, Any]) -> StepAnswer:
        return read_step(self.take(index, step))

    def close(self) -> None:
        self.worker.close()
        self.stack.close()
