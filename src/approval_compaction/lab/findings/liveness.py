"""Liveness across releases: which releases keep a session compacting, per situation and mode.

The sweep runs each liveness situation (``study.words.SITUATIONS``: poisoned, abandoned,
lost, the clean control, an abandoned hosted MCP approval request, and the late resume of an
abandoned approval or MCP request) on every release, in each compaction mode, continued N later
turns with the hook always saying yes (``data/sweep-liveness.json``), on a model that answers as
the Responses API does. On one release a situation is *refused* when a later turn raised (the
session cannot be used: ``session_usable`` is violated, and the error's text is part of its
state), else *keeps compacting* when both liveness invariants hold, is *stuck* when either is
violated (which ones, and the item that pins the history, are part of its state), and is *not
judged* when the run failed or the release could not run it. A late resume's state also says
whether it stayed paired (``resume_paired``: nothing unpaired stored from the resume on, nothing
unpaired sent).
A ``LivenessEra`` is a run of consecutive releases in one state, for one situation and mode;
``LivenessEras`` holds them all, computed once from the records.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ...analysis.liveness import LIVENESS_NAMES, LivenessRecord
from ...study.words import SITUATIONS
from ..releases.bisect import release_range
from ..releases.later_turns import LIVENESS_MODES
from ..releases.versions import sort_versions

KEEPS = "keeps compacting"
STUCK = "stuck"
REFUSED = "refused"  # a later turn raised: the session cannot be used
NOT_JUDGED = "not judged"
CELL = {KEEPS: "keeps", STUCK: "STUCK", REFUSED: "REFUSED", NOT_JUDGED: "n/a"}  # a word each


@dataclass(frozen=True)
class LivenessState:
    """One situation and mode on one release: refused (with what the later turns raised),
    keeps compacting, stuck (with the liveness invariants it breaks and the item pinning the
    history) or not judged (with why); and the unpaired items its later turns sent, since a
    session kept compacting by sending an orphan output is not healed."""

    verdict: str
    broken: tuple[str, ...] = ()
    pin: str = ""
    why: str = ""
    sent: tuple[str, ...] = ()  # the unpaired items the later turns sent (kept going or not)
    own_sent: tuple[str, ...] = ()  # the unpaired items the situation's own turns sent
    resume_paired: bool | None = None  # a late resume stayed paired (None: no late resume)
    resume_unpaired: str = ""  # what a late resume stored or sent unpaired, in words
    raised: str = ""  # the later turns that raised, and what (a refused session)


@dataclass(frozen=True)
class LivenessEra:
    """Consecutive releases on which one situation, in one mode, is in one state."""

    situation: str
    mode: str
    state: LivenessState
    releases: tuple[str, ...]

    @property
    def first(self) -> str:
        return self.releases[0]

    @property
    def last(self) -> str:
        return self.releases[-1]


@dataclass(frozen=True)
class LivenessEras:
    """Every situation's eras in every mode, over the swept releases in order."""

    releases: tuple[str, ...]
    eras: tuple[LivenessEra, ...]
    turns: int

    def of(self, situation: str, mode: str) -> tuple[LivenessEra, ...]:
        """The eras of one situation in one mode, oldest first."""
        return tuple(e for e in self.eras if (e.situation, e.mode) == (situation, mode))

    def keeps(self, situation: str, mode: str) -> tuple[str, ...]:
        """The releases on which the situation keeps compacting in that mode."""
        eras = self.of(situation, mode)
        return tuple(v for e in eras if e.state.verdict == KEEPS for v in e.releases)

    def stuck(self, situation: str, mode: str) -> tuple[str, ...]:
        """The releases on which the situation is stuck in that mode."""
        return self.judged(situation, mode, STUCK)

    def refused(self, situation: str, mode: str) -> tuple[str, ...]:
        """The releases on which a later turn of the situation raised, in that mode."""
        return self.judged(situation, mode, REFUSED)

    def judged(self, situation: str, mode: str, verdict: str) -> tuple[str, ...]:
        """The releases on which the situation has that verdict in that mode."""
        eras = self.of(situation, mode)
        return tuple(v for e in eras if e.state.verdict == verdict for v in e.releases)


def release_state(rows: Sequence[LivenessRecord]) -> LivenessState:
    """One release's state for one situation and mode, from its liveness records."""
    broken = tuple(
        n for n in LIVENESS_NAMES if any(r.invariant == n and r.holds is False for r in rows)
    )
    sent = tuple(sorted({key for r in rows for key in r.sent_unpaired.split()}))
    own = tuple(sorted({key for r in rows for key in r.own_sent.split()}))
    resumed = next((r.resume_paired for r in rows), None)
    unpaired = next((r.resume_unpaired for r in rows), "")
    raised = next((r.raised for r in rows if r.session_usable is False), "")
    if raised or broken or (rows and all(r.holds is True for r in rows)):
        pin = next((r.pin for r in rows if r.holds is False and r.pin), "")
        verdict = REFUSED if raised else STUCK if broken else KEEPS
        return LivenessState(verdict, broken, pin, "", sent, own, resumed, unpaired, raised)
    why = next((r.error or r.detail for r in rows if r.holds is None), "no record")
    return LivenessState(NOT_JUDGED, why=why)


def liveness_eras(rows: Sequence[LivenessRecord]) -> LivenessEras:
    """The eras of every situation and mode over the releases the records hold."""
    releases = tuple(sort_versions({r.sdk_version for r in rows}))
    by_key: dict[tuple[str, str, str], list[LivenessRecord]] = {}
    for row in rows:
        by_key.setdefault((row.scenario, row.mode, row.sdk_version), []).append(row)
    eras: list[LivenessEra] = []
    for mode in LIVENESS_MODES:
        for situation in SITUATIONS:
            run: list[str] = []
            state: LivenessState | None = None
            for version in releases:
                now = release_state(by_key.get((situation, mode, version), []))
                if state is not None and now != state:
                    eras.append(LivenessEra(situation, mode, state, tuple(run)))
                    run = []
                state = now
                run.append(version)
            if state is not None:
                eras.append(LivenessEra(situation, mode, state, tuple(run)))
    turns = max((r.turns for r in rows), default=0)
    return LivenessEras(releases, tuple(eras), turns)


def liveness_grid(found: LivenessEras) -> pd.DataFrame:
    """Releases by situation and mode, a word in each cell: ``REFUSED`` (a later turn raised),
    ``keeps``, ``STUCK`` (followed by the liveness invariants it breaks, when not both) or
    ``n/a``; a late resume that stored or sent an unpaired item says ``, UNPAIRED``."""
    both = set(LIVENESS_NAMES)
    cells: dict[tuple[str, str], dict[str, str]] = {}
    for era in found.eras:
        word = CELL[era.state.verdict]
        if era.state.verdict == STUCK and set(era.state.broken) != both:
            word += f" ({', '.join(era.state.broken)})"
        if era.state.resume_paired is False:
            word += ", UNPAIRED"
        column = cells.setdefault((era.situation, era.mode), {})
        column.update(dict.fromkeys(era.releases, word))
    frame = pd.DataFrame(cells).reindex(list(found.releases))  # tuple keys: two column levels
    return frame.rename_axis(index="release", columns=["situation", "mode"])


def folded_grid(found: LivenessEras) -> pd.DataFrame:
    """``liveness_grid`` with each run of consecutive releases whose cells are all the same
    folded into one row, named by its range (``0.8.0..0.22.3``)."""
    grid = liveness_grid(found).fillna("")
    rows: list[tuple[list[str], tuple[str, ...]]] = []
    for version, cells in zip(grid.index, grid.itertuples(index=False, name=None), strict=True):
        if rows and rows[-1][1] == cells:
            rows[-1][0].append(version)
        else:
            rows.append(([version], cells))
    index = [release_range(names[0], names[-1]) for names, _ in rows]
    frame = pd.DataFrame([cells for _, cells in rows], index=index, columns=grid.columns)
    return frame.rename_axis(index="releases")


# The liveness situations in plain words: the row labels of the liveness table.
SITUATION_WORDS: dict[str, str] = {
    "poisoned": "the store already holds an orphan output",
    "abandoned": "an approval nobody answers; the user asks something else",
    "lost": "a call whose output was lost with its worker",
    "clean": "no pending call (the control)",
    "mcp_abandoned": "a hosted MCP approval request nobody answers",
    "resumed": "an abandoned approval, resumed after later questions",
    "mcp_resumed": "an abandoned MCP approval request, resumed later",
    "long_running": "a long-running tool whose result arrives after later questions",
}
KEEPS_CELL = "keeps compacting"
STOPS_CELL = "stops compacting"
REFUSED_CELL = "refused"  # a later turn raised: the session cannot be used
LIVENESS_CELLS: dict[str, str] = {REFUSED: REFUSED_CELL, STUCK: STOPS_CELL, KEEPS: KEEPS_CELL}
GROWS_CELL = "compacts, history grows"  # compaction runs every turn, the history still grows


def cell_key(state: LivenessState) -> str:
    """A state's word for a table cell: its verdict, or ``GROWS_CELL`` when the only broken
    invariant is ``history_bounded`` (compaction keeps running)."""
    if state.verdict == STUCK and state.broken == ("history_bounded",):
        return GROWS_CELL
    return state.verdict
