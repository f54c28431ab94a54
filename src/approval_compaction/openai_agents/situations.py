"""Liveness scenarios: conversations that leave an unpaired item behind, then go on for N turns.

Each scenario is a list of the one driver's steps, followed by N later turns (``Continue(1)``
each, the compaction hook always saying yes), so every later turn records its own stage:

- ``poisoned``: the store holds what an affected release wrote, an output whose call is gone
  (the ``history`` of the ``Setup``, taken from a real run of the pinned release: the stored
  history after the resume of the study's first case);
- ``abandoned``: a question pauses for approval, and the user asks something else instead (the
  approval is never decided);
- ``lost``: a question pauses for approval and the worker holding the paused state dies
  (``LoseOutput``): the call is stored, its output never comes;
- ``clean``: nothing unpaired, the control;
- ``mcp_abandoned``: a question pauses on a hosted MCP server's approval request (the
  ``mcp_approval`` kind), and the user asks something else instead: nothing answers it;
- ``resumed``: the approval is abandoned, but the application keeps the paused state (``Keep``):
  the user asks ``BETWEEN`` other questions (the hook saying yes), then the application restores
  the state (``Recall``), approves it and resumes it late, and the later turns follow;
- ``mcp_resumed``: the same late resume, of the hosted MCP approval request;
- each of the sixteen cases (``harness.conversation``) continued for N turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..study.capture import LATER_TURNS as LATER_TURNS  # the later turns, by default
from ..study.items import Item
from ..study.scenario import Case, SessionWrapper
from ..study.words import SITUATIONS as SITUATIONS  # their names, shared with the other SDKs
from ..study.words import Kind, Mode, Situation
from .driver import (
    Ask,
    Continue,
    Decide,
    Keep,
    LoseOutput,
    Recall,
    Resume,
    Setup,
    Step,
    Transcript,
    Trigger,
    converse,
)
from .driver import later as later  # the later turns of every scenario
from .harness import PENDING_CALL, QUESTIONS, case_setup, conversation
from .tools import MCP_SERVER

HOSTED_SITUATIONS: tuple[Situation, ...] = ("mcp_abandoned", "mcp_resumed")  # ``mcp_approval``
RESUMED_SITUATIONS: tuple[Situation, ...] = ("resumed", "mcp_resumed")  # the late resume
BETWEEN = 3  # the questions the user asks while the application keeps the paused state
MCP_REQUEST_ID = "pending-mcpr1"
MCP_REQUEST: Item = {
    "type": "mcp_approval_request",
    "id": MCP_REQUEST_ID,
    "name": "lookup",
    "arguments": "{}",
    "server_label": MCP_SERVER,
}


def situation_steps(name: Situation) -> list[Step]:
    """The steps that leave the situation behind, before the later turns."""
    asked = MCP_REQUEST if name in HOSTED_SITUATIONS else PENDING_CALL
    pause = Ask(QUESTIONS[0], (asked,), stage="pause")
    between: list[Step] = [Continue(1, compact=True) for _ in range(BETWEEN)]
    late: list[Step] = [pause, Keep(), *between, Recall(), Decide("approve"), Resume()]
    steps: dict[Situation, list[Step]] = {
        "poisoned": [],
        "clean": [],
        "abandoned": [pause],
        "lost": [pause, LoseOutput()],
        "mcp_abandoned": [pause],
        "resumed": late,
        "mcp_resumed": late,
    }
    return steps[name]


def situation_setup(
    name: Situation,
    mode: Mode,
    poisoned: Sequence[Item] = (),
    wrap: SessionWrapper | None = None,
    trigger: Trigger = "always",
    tools: bool = True,
) -> Setup:
    """The session: the mode, a hook that always compacts (or ``trigger``), the tool that pauses
    (a hosted MCP server for the MCP situations; with ``tools`` false, a plain agent without
    any), the poisoned history when asked, and the user going on after a refusal as a user
    can."""
    history = tuple(poisoned) if name == "poisoned" else ()
    kinds: tuple[Kind, ...] = (
        ("mcp_approval",) if name in HOSTED_SITUATIONS else ("function_approval",)
    )
    chosen = kinds if tools else ()
    return Setup(mode, trigger, kinds=chosen, history=history, wrap=wrap, go_on=True)


def case_continued(
    case: Case, mode: Mode, turns: int, wrap: SessionWrapper | None = None
) -> tuple[Setup, list[Step]]:
    """One of the sixteen cases, then N later turns."""
    setup = replace(case_setup(case, wrap=wrap), mode=mode, go_on=True)
    return setup, [*conversation(case), *later(turns)]


def run_steps(
    setup: Setup, steps: Sequence[Step], turns: int, worker: Any = None
) -> tuple[Transcript, list[Any], str, list[Any]]:
    """Take the steps; the transcript, the later turns' ``Turn`` records (the last ``turns``),
    the error that cut them short ("" when all ran), and the turns before the later ones that
    recorded a stage (the pause; in a late resume, the questions asked while the state was kept,
    then the resume)."""
    transcript = converse(setup, steps, worker=worker)
    done = transcript.turns[-turns:] if turns else []
    continued = [t for t in done if isinstance(t.step, Continue)]
    error = ""
    if len(continued) < turns:
        failed = next((t.error for t in transcript.turns if t.error), "")
        error = failed or f"only {len(continued)} of {turns} later turns ran"
    own = transcript.turns[: len(transcript.turns) - len(continued)]
    return transcript, continued, error, [t for t in own if t.stage is not None]
