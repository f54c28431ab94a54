"""Moves: what the state-space search may do on google-adk, as data (``study.moves``).

A conversation starts in a compaction kind (``EventsCompactionConfig``: a window of one
invocation with an overlap of 0 to 2, or a token threshold of one token keeping 0 to 3 raw
events), on a session store (``InMemorySessionService``, or ``DatabaseSessionService`` on a
SQLite file), and in an ``App`` that is resumable or not (``ResumabilityConfig``: whether an
answer continues its invocation). Then it takes steps (``driver.py --steps`` runs them):

- ``ask``: a new question; the model's replies call up to three tools, each reply one call
  (one after another in the invocation) or all in one (``parallel``): a plain function, the
  confirmed one, a long-running tool that answers at once with its pending status, one that
  answers nothing until its result is sent; with ``die`` the worker dies once the last reply
  is stored, before its tools run;
- ``decide``: the application answers the oldest waiting confirmations (``approve``,
  ``reject``, ``mixed``), in this process or in a second one that reads the session from its
  database (``process``); answered late when questions came between;
- ``finish``: the application sends the result of every long-running call still open;
- ``continue``: three plain questions, the turns the liveness rules judge.

The hand-picked shapes are the driver's five liveness situations and its sixteen cases.
"""

from __future__ import annotations

from ..study.moves import Choice, Move, Moves, Shape
from .words import KINDS as ADK_KINDS

KINDS = ("function", "confirm", "long_running", "long_running_deferred")
# ADK's sliding window summarises each window and leaves earlier summaries out of the next:
# the history grows by a summary per window in every session, the control too.
WINDOW_SOURCE = (
    "google/adk/apps/compaction.py, `_run_compaction_for_sliding_window`'s docstring: "
    '"consecutive summaries overlap", "earlier compaction events are left out"'
)
RUNNERS = Choice("runner", ("run", "run_streamed"))
PLAIN = {"action": "ask", "calls": [], "ending": "answer"}
CONFIRM = {"action": "ask", "calls": ["confirm"], "ending": "answer"}
LATER = {"action": "continue"}
BETWEEN = (PLAIN,) * 3  # the questions asked while a situation's answer waits
STUDY = {"mode": ADK_KINDS, "resumable": (False,)}  # where the hand-picked ones ran

MOVES = Moves(
    package="google-adk",
    short="adk",
    settings=(
        Choice(
            "mode",
            ("window-0", "window-1", "window-2", "tokens-0", "tokens-1", "tokens-2", "tokens-3"),
        ),  # fmt: skip
        Choice("store", ("memory", "database")),
        Choice("resumable", (False, True)),
    ),
    moves=(
        Move(
            "ask",
            (
                Choice("calls", KINDS, many=3),
                Choice("parallel", (False, True)),
                Choice("ending", ("answer", "die")),
                RUNNERS,
            ),
        ),
        Move(
            "decide",
            (
                Choice("decision", ("approve", "reject", "mixed")),
                Choice("boundary", ("memory", "process")),
                RUNNERS,
            ),
            needs=("pending",),
        ),
        Move("finish", (RUNNERS,), needs=("waiting",)),
        Move("continue", (RUNNERS,)),
    ),
    kinds=KINDS,
    shapes=(
        Shape("case", (CONFIRM, {"action": "decide"}, PLAIN), STUDY),
        Shape("abandoned", (CONFIRM, LATER), STUDY),
        # the worker dies before the confirmation is asked: a plain call dies the same way
        Shape(
            "lost", ({**CONFIRM, "calls": [["confirm", "function"]], "ending": "die"}, LATER), STUDY
        ),  # fmt: skip
        Shape("resumed", (CONFIRM, *BETWEEN, {"action": "decide"}, LATER), STUDY),
        Shape(
            "long_running",
            ({**CONFIRM, "calls": ["long_running"]}, *BETWEEN, {"action": "finish"}, LATER),
            STUDY,
        ),
        Shape("clean", (PLAIN, LATER), STUDY),
    ),
    synthetic={"adk-": "confirmation"},  # ADK's own adk_request_confirmation calls
    designed=("history_bounded",),
    designed_source=WINDOW_SOURCE,
)
