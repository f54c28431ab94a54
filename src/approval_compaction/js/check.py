"""JS check: whether and when the bug strikes a configuration of a team's own ``@openai/agents``.

The same check as ``check`` (its ``Config``, its rows and its answers), run by the project's one
JS driver (``js.harness``) on the ``@openai/agents`` installed in the folder that holds the team's
``node_modules``: one conversation per pause position 0 to ``turns`` (that many plain turns, then
the question that pauses, the ``RunState`` string round trip, the decision, the resume and a next
question), on a ``MemorySession`` wrapped by ``OpenAIResponsesCompactionSession`` with the team's
``compactionMode``, trigger and ``store`` setting, each continued for ``later`` plain turns with
the compaction decision saying yes. The SDK's requests go over HTTP to the stand-in
(``wire``) on 127.0.0.1; its items are mapped to the wire's shapes (``js.items``) and judged as
a Python run's are. The function tool is the one the driver gives its agent: a hosted MCP tool and
an abandoned approval are the Python check's only (``--tool``, ``--decision abandon``).

It runs the team's installed code in Node (the packages in ``node_modules``, and whatever
``NODE_OPTIONS`` preloads, an APM agent say), which may print anything on stdout: the driver's
records come back in a file of its scratch folder that only the driver writes. The release it
names is ``@openai/agents``' own version, the package the team installs.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from ..analysis.liveness import DEFAULT_TURNS as LIVENESS_TURNS
from ..analysis.liveness import continued_run
from ..analysis.pairing import find_unpaired, item_key
from ..doctor.check import (
    ABANDON,
    DEFAULT_TURNS,
    CheckError,
    CheckRow,
    Config,
    Keeps,
    Sdk,
    stage_row,
)
from ..doctor.verdict import judge
from ..study.capture import CaseRun
from ..study.scenario import Case
from ..study.words import Compaction, Decision
from .harness import NodeError, Plan, run_lines
from .items import hook_counts, read_run

# The driver's conversations name their scenario ``check``, as the Python check's do.
SCENARIO = "check"
# How the doctor's answers name the JS SDK, its run call's refusal, and the heal.
JS = Sdk(
    "@openai/agents",
    "the user's `run()` at the pause throws the `openai` client's `BadRequestError`",
    "write each session's `getItems()` to a file, run `doctor items FILE --output healed.json`, "
    "then `clearSession()` and `addItems()` the healed list (docs/doctor.md)",
)


def js_plan(cfg: Config, turns: int = DEFAULT_TURNS, later: int = LIVENESS_TURNS) -> Plan:
    """The driver's plan for ``cfg``: one case (``run()``, the decision, the state through its
    string) at each pause position 0 to ``turns``, each continued for ``later`` turns."""
    if cfg.tool != "function":
        raise CheckError(
            f"--tool {cfg.tool} is checked on the Python SDK only: use --tool function"
        )
    if cfg.decision == ABANDON:
        raise CheckError("--decision abandon is checked on the Python SDK only: approve or reject")
    decision: Decision = "reject" if cfg.decision == "reject" else "approve"
    trigger = cfg.hook()
    compaction: Compaction = "off" if trigger == "never" else "on"
    return Plan(
        mode=cfg.mode,
        response_store=cfg.response_store,
        trigger=trigger if isinstance(trigger, int) or trigger == "default" else "case",
        cases=(Case("run", decision, compaction, "json"),),
        positions=tuple(range(turns + 1)),
        later=later,
    )


def _pending(run: CaseRun) -> str | None:
    """The id of the call the pause waits on: the interruption's, or (the pause refused) the
    call left open in what the pause stored."""
    pause = run.stage("pause")
    if pause is None:
        return None
    waiting = [item_key(item) for item in pause.interruptions]
    opened = [u.key for u in find_unpaired(pause.stored) if u.problem == "open call"]
    return next((key for key in [*waiting, *reversed(opened)] if key), None)


def js_row(prior: int, line: dict[str, Any]) -> tuple[CheckRow, CaseRun]:
    """One pause position's row, from the line the driver wrote for it (and the run read)."""
    run = read_run(line)
    if run.not_applicable:
        raise CheckError(run.not_applicable)
    if run.error:
        raise CheckError(f"the check's run after {prior} prior turns failed: {run.error}")
    pause, nexts = run.stage("pause"), [s for s in run.stages if s.name == "next_turn"]
    if pause is None or not nexts:
        raise CheckError(f"the check's run after {prior} prior turns asked no next question")
    resume = run.stage("resume") if pause.interruptions else None
    hook = hook_counts(line, "pause")
    return stage_row(prior, pause, hook, resume, nexts[-1], _pending(run)), run


def check_js(
    cfg: Config,
    folder: Path,
    turns: int = DEFAULT_TURNS,
    later: int = LIVENESS_TURNS,
) -> tuple[str, list[CheckRow], Keeps]:
    """The release installed in ``folder``, one row per pause position 0 to ``turns``, and the
    liveness runs of the same conversations continued for ``later`` turns."""
    plan = js_plan(cfg, turns, later)
    try:
        (lines,) = run_lines([plan], folder)
    except NodeError as error:
        raise CheckError(str(error)) from None
    read = [js_row(prior, line) for prior, line in enumerate(lines)]
    runs = [run for _, run in read]
    lives = tuple(continued_run(run, SCENARIO) for run in runs)
    last = [run.later[-1].stage if run.later else run.stages[-1] for run in runs]
    stored = tuple(judge(SCENARIO, stage.stored if stage else []).verdict for stage in last)
    release = runs[0].sdk_version if runs else ""
    return release, [row for row, _ in read], Keeps(later, lives, stored)


def command(args: argparse.Namespace, out: TextIO) -> int:
    """``doctor check --js [FOLDER]``: the doctor's check (``doctor.command.check_command``) on
    the ``@openai/agents`` in the folder, answered in the JS SDK's words (``JS``)."""
    from ..doctor.command import check_command

    folder = Path(args.js)
    return check_command(args, out, JS, lambda cfg: check_js(cfg, folder, args.turns, args.later))
