"""Properties: each invariant defined once, as a value: its name, its meaning in a sentence, and
its rule (the stages and field it reads, and the check that finds the offending items). The
ten safety ones are judged by ``invariants`` from a case's stages; the two liveness ones by
``liveness`` over the later turns of a case continued after its next turn. ``SESSION_USABLE``
is judged by ``liveness`` too, beside them: whether the user can still use the session at all.

Every input a case sends is judged both ways: ``*_paired`` finds an output without its call,
``*_complete`` a call without its output. Model inputs: ``pause_input_paired``,
``resumed_input_paired`` and ``next_turn_input_paired`` by stage, ``model_input_complete`` at
every stage (a call waiting for a decision is stored, never sent: the Responses API answers a
request whose input holds a function call without its output with HTTP 400, ``wire.rules``'
``OPEN_CALL``). Compaction inputs: ``compaction_input_complete`` and ``compaction_input_paired``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..errors import InvestigationError
from ..study.capture import STAGES, StageName
from ..study.items import Item
from .pairing import open_calls, orphan_outputs

Check = Callable[[list[Item]], list[str]]


@dataclass(frozen=True)
class Invariant:
    """One property a case must keep: its name, its meaning in a sentence a reader understands,
    and its rule: the stages it reads, the field it reads there and the check that finds the
    offending items in each item list. ``decision_enforced`` compares the tool's dispatches with
    the approvals, and ``next_turn_accepted`` reads the next turn's outcome: neither has a check.
    """

    name: str
    meaning: str
    stages: tuple[StageName, ...]
    field: str
    check: Check | None = None


DEFINITIONS: tuple[Invariant, ...] = (
    Invariant(
        "next_turn_input_paired",
        "the next turn's model input holds no output without its call",
        ("next_turn",),
        "model_inputs",
        orphan_outputs,
    ),
    Invariant(
        "resumed_input_paired",
        "the resumed turn's model input holds no output without its call",
        ("resume",),
        "model_inputs",
        orphan_outputs,
    ),
    Invariant(
        "pause_input_paired",
        "the pausing turn's model input holds no output without its call",
        ("pause",),
        "model_inputs",
        orphan_outputs,
    ),
    Invariant(
        "model_input_complete",
        "no model request, at any stage, holds a call without its output",
        STAGES,
        "model_inputs",
        open_calls,
    ),
    Invariant(
        "compaction_input_complete",
        "no compaction request holds a call without its output",
        STAGES,
        "compaction_inputs",
        open_calls,
    ),
    Invariant(
        "compaction_input_paired",
        "no compaction request holds an output without its call",
        STAGES,
        "compaction_inputs",
        orphan_outputs,
    ),
    Invariant(
        "stored_history_paired",
        "the history stored after the resume holds no output without its call",
        ("resume",),
        "stored",
        orphan_outputs,
    ),
    Invariant(
        "decision_enforced",
        "the tool ran exactly as many times as it was approved",
        STAGES,
        "dispatches",
    ),
    Invariant(
        "pause_accepted",
        "the turn that pauses for approval hands back the call to approve: no request at the pause "
        "is refused (compaction included), so there is a state for the human to approve or reject",
        ("pause",),
        "outcome",
    ),
    Invariant(
        "next_turn_accepted",
        "the next turn is answered: no request it makes is refused (compaction included); on "
        "the scripted model the stand-in's rules accept its model input",
        ("next_turn",),
        "outcome",
    ),
)
# The two liveness invariants, judged over the later turns of a case continued after its next
# turn (``analysis.liveness`` judges them): in the matrix beside the ten safety ones.
LIVENESS: tuple[Invariant, ...] = (
    Invariant(
        "compaction_runs",
        "over N later turns with the hook always saying yes, every turn that ends with nothing "
        "waiting for a decision makes the compaction request the hook asks for",
        ("next_turn",),
        "compaction_inputs",
    ),
    Invariant(
        "history_bounded",
        "over N later turns with the hook always saying yes, the stored history after each "
        "turn's compaction is no longer than after the previous one (the user's own messages, "
        "which compaction keeps as they are, not counted)",
        ("next_turn",),
        "stored",
    ),
)
LIVENESS_NAMES: tuple[str, ...] = tuple(i.name for i in LIVENESS)
# What the user meets over those later turns: a session whose every turn raises cannot be used,
# whatever its compaction does. Judged on each liveness run (not a matrix record).
SESSION_USABLE = Invariant(
    "session_usable",
    "over N later turns, every turn is answered: none raises (over HTTP, the API refuses none "
    "of its requests), so the user can still use the session",
    ("next_turn",),
    "outcome",
)
ACCEPTED = ("pause_accepted", "next_turn_accepted")  # what the user sees: read from outcomes
SAFETY: tuple[str, ...] = tuple(i.name for i in DEFINITIONS)
INVARIANTS: tuple[str, ...] = (*SAFETY, *LIVENESS_NAMES)  # every one a matrix record names


class UnknownInvariantError(InvestigationError, ValueError):
    """An invariant name that is not one of INVARIANTS."""


def invariant(name: str) -> Invariant:
    """The invariant of that name, or a one-line ``UnknownInvariantError``."""
    found = next((i for i in (*DEFINITIONS, *LIVENESS) if i.name == name), None)
    if found is None:
        raise UnknownInvariantError(
            f"unknown invariant {name!r}: expected one of {', '.join(INVARIANTS)}"
        )
    return found
