"""Moves: what the state-space search may do on @openai/agents, as data (``study.moves``).

A conversation starts in a compaction mode (``compactionMode``: ``input``,
``previous_response_id``, ``auto``), with the compaction endpoint answering in one of its
shapes (``keeps_users``, as the API documents it; ``summary_only``, the compaction item alone),
on a session store (``MemorySession``, or a JSON file a second Node process can read). Then it
takes the Python search's steps (``driver.mjs --steps`` runs them):

- ``ask``: a new question; the model's one reply calls up to three tools: the approved one
  (``needsApproval``), a plain one, a hosted MCP server that asks for every approval; the
  compaction decision at the turn's end says ``compact``;
- ``decide``: approve, reject or ``mixed`` the paused run's approvals after its state crossed
  a boundary (``memory``, ``json``: ``RunState`` to a string and back, ``process``: a second
  Node process given the string and the file) and resume; or the state kept aside (``kept``),
  answered late;
- ``lose``: the paused state is dropped (its worker died); ``keep``: it is kept aside as a
  string and the run let go (abandoned, maybe answered later);
- ``continue``: three plain questions with the decision saying yes, the turns the liveness
  rules judge.

The hand-picked shapes are the harness's liveness situations, its sixteen cases and the stall's
plain conversation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..study.moves import Choice, Move, Moves, Shape
from ..wire.rules import KEEPS_USERS

KINDS = ("function_approval", "function", "mcp_approval")
RUNNERS = Choice("runner", ("run", "run_streamed"))
COMPACT = Choice("compact", (False, True))
ASK = {"action": "ask", "calls": ["function_approval"]}
PLAIN = {"action": "ask", "calls": []}
LATER = {"action": "continue"}
BETWEEN = (PLAIN,) * 3  # the questions asked while a late resume's state is kept
STUDY = {"shape": (KEEPS_USERS,)}  # the situations and cases ran on the documented shape


def _late(ask: Mapping[str, Any]) -> tuple[Mapping[str, Any], ...]:
    """A situation answered late: the state kept aside, questions, then decided."""
    return (ask, {"action": "keep"}, *BETWEEN, {"action": "decide", "kept": True}, LATER)


MOVES = Moves(
    package="@openai/agents",
    short="js",
    settings=(
        Choice("mode", ("input", "previous_response_id", "auto")),
        Choice("shape", ("keeps_users", "summary_only")),
        Choice("store", ("memory", "file")),
    ),
    moves=(
        Move("ask", (Choice("calls", KINDS, many=3), RUNNERS, COMPACT)),
        Move(
            "decide",
            (
                Choice("decision", ("approve", "reject", "mixed")),
                Choice("boundary", ("memory", "json", "process")),
                RUNNERS,
                COMPACT,
                Choice("kept", (False, True)),
            ),
            needs=("pending", "kept"),
        ),
        Move("lose", needs=("pending",)),
        Move("keep", needs=("pending",)),
        Move("continue", (RUNNERS,)),
    ),
    kinds=KINDS,
    shapes=(
        Shape("case", (ASK, {"action": "decide"}, PLAIN), STUDY),
        Shape("abandoned", (ASK, LATER), STUDY),
        Shape("lost", (ASK, {"action": "lose"}, LATER), STUDY),
        Shape("mcp_abandoned", ({**ASK, "calls": ["mcp_approval"]}, LATER), STUDY),
        Shape("resumed", _late(ASK), STUDY),
        Shape("mcp_resumed", _late({**ASK, "calls": ["mcp_approval"]}), STUDY),
        Shape("stall", (LATER,)),  # the plain conversation, in every shape (``stall``)
        Shape("clean", (PLAIN, LATER), STUDY),
    ),
    model="responses",
)
