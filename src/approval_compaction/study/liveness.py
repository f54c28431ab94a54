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
- each of the sixteen cases (``harness.conversation``) continued for N turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Literal

from .capture import LATER_TURNS as LATER_TURNS  # the later turns, by default
from .driver import Ask, Continue, LoseOutput, SessionWrapper, Setup, Step, Transcript, converse
from .harness import PENDING_CALL, QUESTIONS, case_setup, conversation
from .items import Item
from .scenario import Case
from .words import Mode

Situation = Literal["poisoned", "abandoned", "lost", "clean"]
SITUATIONS: tuple[Situation, ...] = ("poisoned", "abandoned", "lost", "clean")


def later(turns: int) -> list[Step]:
    """N later turns, each its own stage, the hook always saying yes."""
    return [Continue(1, compact=True) for _ in range(turns)]


def situation_steps(name: Situation) -> list[Step]:
    """The steps that leave the situation behind, before the later turns."""
    pause = Ask(QUESTIONS[0], (PENDING_CALL,), stage="pause")
    steps: dict[Situation, list[Step]] = {
        "poisoned": [],
        "clean": [],
        "abandoned": [pause],
        "lost": [pause, LoseOutput()],
    }
    return steps[name]


def situation_setup(
    name: Situation,
    mode: Mode,
    poisoned: Sequence[Item] = (),
    wrap: SessionWrapper | None = None,
) -> Setup:
    """The session: the mode, a hook that always compacts, the poisoned history when asked, and
    the user going on after a refusal as a user can."""
    history = tuple(poisoned) if name == "poisoned" else ()
    return Setup(mode, "always", history=history, wrap=wrap, go_on=True)


def case_continued(
    case: Case, mode: Mode, turns: int, wrap: SessionWrapper | None = None
) -> tuple[Setup, list[Step]]:
    """One of the sixteen cases, then N later turns."""
    setup = replace(case_setup(case, wrap=wrap), mode=mode, go_on=True)
    return setup, [*conversation(case), *later(turns)]


def run_steps(
    setup: Setup, steps: Sequence[Step], turns: int, worker: Any = None
) -> tuple[Transcript, list[Any], str]:
    """Take the steps; the transcript, the later turns' ``Turn`` records (the last ``turns``),
    and the error that cut them short ("" when all ran)."""
    transcript = converse(setup, steps, worker=worker)
    done = transcript.turns[-turns:] if turns else []
    continued = [t for t in done if isinstance(t.step, Continue)]
    error = ""
    if len(continued) < turns:
        failed = next((t.error for t in transcript.turns if t.error), "")
        error = failed or f"only {len(continued)} of {turns} later turns ran"
    return transcript, continued, error
