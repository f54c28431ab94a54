"""Moves: what the state-space search may do on langchain, as data.

A conversation starts in a compaction kind (``SummarizationMiddleware`` keeping one or two
messages, the docs' trim step, or none), with ``ChatOpenAI`` on Chat Completions or the
Responses API, on a checkpointer (``InMemorySaver``, or ``SqliteSaver`` on a file). Then it
takes steps (``driver.py --steps`` runs them, ``harness.Steps`` drives it):

- ``ask``: a new question; the model's replies call up to three tools one after another, the
  reviewed one (``approval``: the run pauses on the interrupt) or a plain one (``function``);
  with ``die`` the worker stops once the last reply is stored, before its tools run;
- ``decide``: the oldest waiting decision (``approve``, ``reject``, ``mixed``: reject), sent
  with ``Command(resume=...)`` by this worker or by a new one with its own connection to the
  SQLite file (``process``); sent late when questions came between, it finds no interrupt;
- ``continue``: three plain questions, the turns the liveness rules judge.

The fields are the search's (``study.moves.Moves``): each setting's and field's values simplest
first, the move that needs a waiting decision, the hand-picked shapes (the five situations and
the case, in the settings the study runs them), and the liveness invariant the docs' trim step
breaks by design with its source. Every model request goes over HTTP to the stand-in, which
judges it (``model``).
"""

from __future__ import annotations

from ..study.moves import Choice, Move, Moves, Shape
from .finding import TRIM_SOURCE
from .words import APIS, KINDS

RUNNERS = Choice("runner", ("run", "run_streamed"))
PLAIN = {"action": "ask", "calls": [], "ending": "answer"}
REVIEWED = {"action": "ask", "calls": ["approval"], "ending": "answer"}
LATER = {"action": "continue"}
BETWEEN = (PLAIN,) * 3  # the questions asked while a situation's decision waits
STUDY = {"mode": KINDS, "api": APIS}  # the study runs every kind on both APIs

MOVES = Moves(
    package="langchain",
    short="langchain",
    settings=(
        Choice("mode", KINDS),
        Choice("api", APIS),
        Choice("store", ("memory", "sqlite")),
    ),
    moves=(
        Move(
            "ask",
            (
                Choice("calls", ("function", "approval"), many=3),
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
        Move("continue", (RUNNERS,)),
    ),
    kinds=("function", "approval"),
    shapes=(
        Shape("case", (REVIEWED, {"action": "decide"}, PLAIN), STUDY),
        Shape("abandoned", (REVIEWED, LATER), STUDY),
        # the worker dies before its tools run: a plain call dies the same way
        Shape(
            "lost",
            ({**REVIEWED, "calls": [["approval", "function"]], "ending": "die"}, LATER),
            STUDY,
        ),
        Shape("resumed", (REVIEWED, *BETWEEN, {"action": "decide"}, LATER), STUDY),
        Shape("edited", (REVIEWED, {"action": "decide"}, LATER), STUDY),
        Shape("clean", (PLAIN, LATER), STUDY),
    ),
    model="responses",
    # The docs' trim step swings between two lengths; ``none``, the control setting, runs no
    # compaction step at all: where a plain conversation breaks these too, so does the design.
    designed=("history_bounded", "compaction_runs"),
    designed_source=f"{TRIM_SOURCE}; `none` adds no compaction step",
)
