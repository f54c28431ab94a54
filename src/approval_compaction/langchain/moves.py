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

The fields are the search's (``study.moves.Moves`` on the branch that brings the search to
every driver): each setting's and field's values simplest first, the moves that need a waiting
decision, the hand-picked shapes (the five situations and the cases), and the liveness
invariant the docs' trim step breaks by design with its source.
"""

from __future__ import annotations

from typing import Any

from .finding import TRIM_SOURCE

RUNNERS = ("runner", ("run", "run_streamed"))
PLAIN = {"action": "ask", "calls": [], "ending": "answer"}
REVIEWED = {"action": "ask", "calls": ["approval"], "ending": "answer"}
LATER = {"action": "continue"}
BETWEEN = (PLAIN,) * 3  # the questions asked while a situation's decision waits

MOVES: dict[str, Any] = {
    "package": "langchain",
    "short": "langchain",
    "settings": (
        ("mode", ("keep-1", "keep-2", "trim", "none")),
        ("api", ("chat", "responses")),
        ("store", ("memory", "sqlite")),
    ),
    "moves": (
        ("ask", (("calls", ("function", "approval"), 3), ("ending", ("answer", "die")), RUNNERS)),
        (
            "decide",
            (
                ("decision", ("approve", "reject", "mixed")),
                ("boundary", ("memory", "process")),
                RUNNERS,
            ),
            ("pending",),
        ),
        ("continue", (RUNNERS,)),
    ),
    "kinds": ("function", "approval"),
    "shapes": (
        ("case", (REVIEWED, {"action": "decide"}, PLAIN)),
        ("abandoned", (REVIEWED, LATER)),
        ("lost", ({**REVIEWED, "ending": "die"}, LATER)),
        ("resumed", (REVIEWED, *BETWEEN, {"action": "decide"}, LATER)),
        ("edited", (REVIEWED, {"action": "decide"}, LATER)),
        ("clean", (PLAIN, LATER)),
    ),
    "model": "responses",  # every model request is judged over HTTP, by the stand-in's answer
    "designed": ("history_bounded",),  # the docs' trim step swings between two lengths
    "designed_source": TRIM_SOURCE,
}
