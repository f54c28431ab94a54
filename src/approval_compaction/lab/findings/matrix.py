"""Matrix: what a matrix of cases says, as records: per invariant, and over HTTP.

``matrix_finding`` reads the matrix records of one release or variant (the pinned release, the
workaround, the newest release, or runs made live): per invariant how many cases break it, the
choices those cases share and whether the choices select exactly them, and how often the cases
compacted. ``seen`` reads the same cases run over HTTP: the errors the user met, and whether the
scripted model's prediction of ``next_turn_accepted`` agrees. ``store_stories`` sets ``auto``
with the agent's ``ModelSettings(store=...)`` unset beside ``auto`` with ``store=False``: the
same sixteen cases over HTTP, what the user meets at each stage; ``compaction_requests`` says how
each compaction request over HTTP named the history (``previous_response_id`` or ``input``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...analysis.invariants import INVARIANTS, judge
from ...analysis.matrix import MatrixRecord
from ...study.capture import OK, CaseRun
from ...study.scenario import CHOICES, FIELD_NAMES
from ...study.words import STORE_WORD, StoreWord
from ...wire.rules import COMPACT
from ..releases.meeting import Meeting, all_meetings
from ..releases.versions import version_key
from .folding import Run
from .outcomes import outcome_of
from .releases import ModeStory, mode_stories


@dataclass(frozen=True)
class InvariantCount:
    """One invariant over a matrix's cases: how many records it has, how many are violated and
    not judged, the choices every violating case shares, and whether those choices select
    exactly the violating cases (``exact``)."""

    invariant: str
    cases: int
    violated: int
    unjudged: int
    shared: tuple[tuple[str, str], ...] = ()
    exact: bool = False

    @property
    def choices(self) -> str:
        """The shared choices as a filter reads them: ``compaction=on``."""
        return ", ".join(f"{k}={v}" for k, v in self.shared) or "no single choice"


@dataclass(frozen=True)
class MatrixFinding:
    """A matrix's cases: each invariant's count, the compaction requests they made, how many
    compaction-on cases compacted, and the one choice (``compaction=on``) that picks out exactly
    the cases violating any invariant, when one does."""

    releases: tuple[str, ...]
    cases: int
    invariants: tuple[InvariantCount, ...]
    compaction_requests: int
    compaction_on: int
    compacting: int
    violating: int
    violating_choice: str = ""

    @property
    def verdicts(self) -> int:
        return sum(i.cases for i in self.invariants)

    @property
    def violated(self) -> int:
        return sum(i.violated for i in self.invariants)

    @property
    def holding(self) -> int:
        return sum(i.cases - i.violated - i.unjudged for i in self.invariants)


def _count(name: str, rows: Sequence[MatrixRecord]) -> InvariantCount:
    mine = [r for r in rows if r.invariant == name]
    broken = [r for r in mine if r.holds is False]
    unjudged = sum(r.holds is None for r in mine)
    if not broken:
        return InvariantCount(name, len(mine), 0, unjudged)
    shared = tuple(
        (f, getattr(broken[0], f)) for f in FIELD_NAMES if len({getattr(r, f) for r in broken}) == 1
    )
    picked = sum(all(getattr(r, f) == value for f, value in shared) for r in mine)
    return InvariantCount(name, len(mine), len(broken), unjudged, shared, picked == len(broken))


def _violating_choice(cases: Mapping[tuple[str, ...], bool]) -> str:
    """The first choice, in the scenario's order, whose cases are exactly the violating ones."""
    bad = {key for key, violated in cases.items() if violated}
    for index, (name, values) in enumerate(CHOICES.items()):
        chosen = {key[index] for key in cases}
        for value in values:
            if bad and len(chosen) > 1 and {k for k in cases if k[index] == value} == bad:
                return f"{name}={value}"
    return ""


def _present(rows: Sequence[MatrixRecord]) -> tuple[str, ...]:
    """The invariants the records judge, in order (the liveness ones only for continued cases)."""
    named = {r.invariant for r in rows}
    return tuple(name for name in INVARIANTS if name in named)


def matrix_finding(rows: Sequence[MatrixRecord]) -> MatrixFinding:
    """The finding of one matrix's records (one per case and invariant)."""
    requests = {r.case_key: r.compaction_requests for r in rows}
    violated: dict[tuple[str, ...], bool] = dict.fromkeys(requests, False)
    for row in rows:
        violated[row.case_key] |= row.holds is False
    on = [key for key in requests if key[FIELD_NAMES.index("compaction")] == "on"]
    return MatrixFinding(
        releases=tuple(sorted({r.sdk_version for r in rows}, key=version_key)),
        cases=len(requests),
        invariants=tuple(_count(name, rows) for name in _present(rows)),
        compaction_requests=sum(requests.values()),
        compaction_on=len(on),
        compacting=sum(requests[key] > 0 for key in on),
        violating=sum(violated.values()),
        violating_choice=_violating_choice(violated),
    )


@dataclass(frozen=True, order=True)
class Failure:
    """One way a case ended over HTTP: the stage, the exception, its HTTP status and message."""

    stage: str
    exception: str
    http_status: int | None
    message: str


@dataclass(frozen=True)
class Seen:
    """The cases over HTTP, as the user met them: how many end with an error, each distinct
    error, whether the failing cases are exactly the compaction-on ones, and in how many cases
    the scripted model's verdicts on ``pause_accepted`` and ``next_turn_accepted`` agree (None:
    none was made)."""

    cases: int
    failing: int
    failures: tuple[Failure, ...]
    compaction_on_only: bool
    agreeing: int | None


def seen(observed: Sequence[Run], predicted: Sequence[Run] = ()) -> Seen:
    """What the observed runs ended with, against the prediction of ``predicted``."""
    ends = [outcome_of(run) for run in observed]
    failing = [o for o in ends if o.exception != OK]
    kinds = {Failure(o.stage, o.exception, o.http_status, o.message) for o in failing}
    on = {j.run.case.label for j in map(judge, observed) if j.run.case.compaction == "on"}
    guess = {o.case: (o.pause_accepted, o.next_turn_accepted) for o in map(outcome_of, predicted)}
    agreeing = sum(guess.get(o.case) == (o.pause_accepted, o.next_turn_accepted) for o in ends)
    return Seen(
        cases=len(ends),
        failing=len(failing),
        failures=tuple(sorted(kinds)),
        compaction_on_only={o.case for o in failing} == on,
        agreeing=agreeing if predicted else None,
    )


STORE_MODE = "auto"  # the mode whose compaction depends on ModelSettings(store=...)


@dataclass(frozen=True)
class StoreStory:
    """``auto`` on one release with one ``ModelSettings(store=...)`` setting (its word:
    ``default`` for not set), as the user meets it over HTTP (``story``: the mode's story of the
    sixteen cases, as the affected table tells each mode's)."""

    store: StoreWord
    story: ModeStory


def store_stories(
    default: Sequence[Meeting], unstored: Sequence[CaseRun]
) -> tuple[StoreStory, ...]:
    """``auto`` with the store unset (the pinned release's meetings in that mode) and with
    ``store=False`` (its own runs over HTTP), each told as ``mode_stories`` tells a mode; a
    setting without records is left out."""
    found = []
    for setting, met in ((None, default), (False, all_meetings(unstored))):
        mine = [m for m in met if m.mode == STORE_MODE]
        releases = ", ".join(sorted({m.sdk_version for m in mine}, key=version_key))
        found += [StoreStory(STORE_WORD[setting], s) for s in mode_stories(mine, releases)]
    return tuple(found)


@dataclass(frozen=True)
class CompactionRequest:
    """One compaction request a run sent over HTTP: the run's ``ModelSettings(store=...)`` as a
    word (``default``: not set), its mode and case, the stage, how it named the history
    (``previous_response_id`` or ``input``) and the HTTP status it was answered with."""

    store: StoreWord
    mode: str
    case: str
    stage: str
    names_history_by: str
    status: int


def compaction_requests(runs: Sequence[CaseRun]) -> list[CompactionRequest]:
    """Every compaction request the runs sent over HTTP, in order (the scripted wiring's runs
    send none over HTTP)."""
    found = []
    for run in runs:
        for stage in run.stages:
            for request in stage.http_requests:
                if request.get("path") != COMPACT or not isinstance(request.get("body"), dict):
                    continue
                named = "previous_response_id" in request["body"]
                by = "previous_response_id" if named else "input"
                store, status = STORE_WORD[run.response_store], request["status"]
                found.append(
                    CompactionRequest(store, run.mode, run.case.label, stage.name, by, status)
                )
    return found
