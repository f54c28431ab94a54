"""Liveness: does automatic compaction keep working over the turns after a conversation?

The invariants in ``invariants`` are about safety; these are about progress, judged over N later
plain turns with the compaction hook always saying yes, or with a trigger that asks at a
threshold (``LivenessRun.threshold``: the SDKs' default asks once 10 candidate items, neither
the user's messages nor compaction items, are stored):

- ``compaction_runs``: every later turn that ends with nothing waiting runs its compaction (with
  a threshold: every such turn that ends with the threshold's candidates stored);
- ``history_bounded``: the stored history (the user's own messages aside) does not grow (with a
  threshold: its candidates stay under it);
- ``session_usable``: no later turn raised (a refused session is dead whatever else holds);
- ``sent_unpaired`` and ``resume_paired``: the later turns, and a late resume, store and send
  nothing unpaired, so a session kept compacting by sending an unpaired item is not healed.
  Every request is judged both ways: a model or compaction input that holds an output without
  its call, or a call without its output (``Sent``: which, and where it went). A call waiting
  for a decision may be stored; sent, it is unpaired: the Responses API refuses a model request
  whose input holds a function call without its output (``wire.rules``' ``OPEN_CALL``).

On the ``scripted`` model nothing goes over HTTP, so a turn whose model request the stand-in's
rules refuse (``wire.rules.check_pairing``) is recorded as raising what the API would answer,
worded as a prediction (``PREDICTED``), as ``invariants`` predicts ``next_turn_accepted``.

Details are structured (``LivenessDetail``, with the item that pins the history, ``Pin``). A
``LivenessRun`` is built from the driver's ``Transcript`` as plain records: this module imports
no SDK. docs/liveness.md tells what each release does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from ..study.capture import LATER_TURNS, CaseRun, Stage
from ..study.items import Item
from ..wire.rules import check_pairing
from .pairing import Problem, find_unpaired, open_calls, orphan_outputs
from .properties import LIVENESS as LIVENESS  # defined with the other invariants
from .properties import LIVENESS_NAMES as LIVENESS_NAMES
from .properties import SESSION_USABLE as SESSION_USABLE

DEFAULT_TURNS = LATER_TURNS
# The candidates at which both SDKs' default trigger asks for a compaction (their
# ``DEFAULT_COMPACTION_THRESHOLD``; tests check it against the installed packages).
SDK_DEFAULT_THRESHOLD = 10
Met = Literal["answered", "paused", "raised"]  # what the user met at the end of a turn
ANSWERED: Met = "answered"
PAUSED: Met = "paused"
RAISED: Met = "raised"
# How a scripted model's refusal is worded: the rules' answer, not an observed one.
PREDICTED = "predicted by the stand-in's rules"
Where = Literal["model", "compaction"]  # where a request went: the model, or compaction


@dataclass(frozen=True)
class Pin:
    """An unpaired item in the stored history: where it is, its type, its key and what is
    wrong with it (an ``open call`` or an ``orphan output``)."""

    position: int
    item_type: str
    key: str
    problem: Problem

    @property
    def text(self) -> str:
        return f"{self.problem} {self.item_type} {self.key} at position {self.position}"


@dataclass(frozen=True)
class Sent:
    """An unpaired item a turn sent: its key, what is wrong with it (an ``open call``: a call
    without its output; an ``orphan output``: an output without its call) and where it went
    (a ``model`` or a ``compaction`` request)."""

    key: str
    problem: Problem
    to: Where

    @property
    def text(self) -> str:
        """``open call call-1 to the model``, ``orphan output call-1 to compaction``."""
        return f"{self.problem} {self.key} to {'the model' if self.to == 'model' else self.to}"


@dataclass(frozen=True)
class LiveTurn:
    """One later turn: the stored length after it (``length``; ``kept``: without the user's own
    messages, what ``history_bounded`` measures; ``candidates``: without compaction items
    either, what a threshold counts), the items of its last model request (``inputs``),
    whether it made a compaction request,
    whether a decision was waiting when it ended, the unpaired items stored after it, the
    ids of unpaired items it sent (``sent_unpaired``: any input's call without its output or
    output without its call) and each in words (``sent``: ``Sent.text``), and what the user
    met: ``answered``, ``paused`` or ``raised``, with the error's text (``raised_text``)."""

    length: int
    compacted: bool
    kept: int = 0
    waiting: bool = False
    unpaired: tuple[Pin, ...] = ()
    sent_unpaired: tuple[str, ...] = ()
    met: Met = ANSWERED
    raised: str = ""  # what the turn raised ("" when it did not)
    candidates: int = 0
    inputs: int = 0
    sent: tuple[str, ...] = ()  # each unpaired item sent, in words (``Sent.text``)


def pins(stored: Sequence[Item]) -> tuple[Pin, ...]:
    """The unpaired items of a stored history, in order."""
    return tuple(
        Pin(u.position, u.item_type, u.key or "?", u.problem) for u in find_unpaired(stored)
    )


def sent_items(stage: Stage) -> tuple[Sent, ...]:
    """What a stage sent that pairs with nothing, both ways, in every model and compaction
    request: each call without its output and each output without its call, once each, in
    order of where it went, problem and key."""
    where: tuple[tuple[Where, list[list[Item]]], ...] = (
        ("model", stage.model_inputs),
        ("compaction", stage.compaction_inputs),
    )
    found: set[Sent] = set()
    for to, requests in where:
        for items in requests:
            found.update(Sent(key, "open call", to) for key in open_calls(items))
            found.update(Sent(key, "orphan output", to) for key in orphan_outputs(items))
    return tuple(sorted(found, key=lambda s: (s.to != "model", s.problem, s.key)))


def sent_unpaired(stage: Stage) -> tuple[str, ...]:
    """The keys of what a stage sent that pairs with nothing (``sent_items``), sorted."""
    return tuple(sorted({s.key for s in sent_items(stage)}))


def predicted_refusal(stage: Stage) -> str:
    """What the API would answer the first model request of the stage its pairing rules refuse
    (``wire.rules.check_pairing``), in one line worded as a prediction ("" when it accepts
    them all): for a model whose requests go nowhere."""
    error = next((e for e in map(check_pairing, stage.model_inputs) if e is not None), None)
    return "" if error is None else f"{PREDICTED}: HTTP {error.status}: {error.message}"


def is_user_message(item: Item) -> bool:
    """A message the user wrote (the compaction endpoint keeps these as they are)."""
    return item.get("role") == "user" and item.get("type", "message") == "message"


def is_candidate(item: Item) -> bool:
    """An item a compaction trigger counts: neither a user message nor a compaction item (the
    SDKs' ``select_compaction_candidate_items`` / ``selectCompactionCandidateItems``)."""
    return not is_user_message(item) and item.get("type") != "compaction"


def raised_text(stage: Stage, outcome: str = "") -> str:
    """What a turn raised, in one line ("" when it raised nothing): over HTTP the exception, the
    status, the endpoint that refused the request and the API's own message
    (``openai.BadRequestError, HTTP 400 at /v1/responses: No tool call found ...``); otherwise
    the turn's outcome (``error: <exception class>``)."""
    seen = stage.outcome
    if seen.http_status is not None:
        where = f" at {seen.endpoint}" if seen.endpoint else ""
        said = seen.api_message or seen.message
        return f"{seen.exception}, HTTP {seen.http_status}{where}: {said}"
    if not seen.ok:
        return seen.text
    return outcome if outcome.startswith("error") else ""


def live_turn(
    stage: Stage, waiting: bool = False, outcome: str = "", model: str = "responses"
) -> LiveTurn:
    """A later turn from its stage and the turn's outcome (``answered``, ``paused``,
    ``error: <exception class>``; the stage's own ``outcome`` says what a refused request was).
    On the ``scripted`` model a turn that raised nothing but sent a model request the API's
    pairing rules refuse raises their prediction (``predicted_refusal``)."""
    raised = raised_text(stage, outcome)
    if not raised and model == "scripted":
        raised = predicted_refusal(stage)
    met: Met = RAISED if raised else PAUSED if waiting else ANSWERED
    sent = sent_items(stage)
    return LiveTurn(
        length=len(stage.stored),
        compacted=bool(stage.compaction_inputs),
        kept=sum(1 for item in stage.stored if not is_user_message(item)),
        waiting=waiting,
        unpaired=pins(stage.stored),
        sent_unpaired=tuple(sorted({s.key for s in sent})),
        met=met,
        raised=raised,
        candidates=sum(1 for item in stage.stored if is_candidate(item)),
        inputs=len(stage.model_inputs[-1]) if stage.model_inputs else 0,
        sent=tuple(s.text for s in sent),
    )


@dataclass(frozen=True)
class LivenessDetail:
    """A liveness verdict's evidence: the stored length after each later turn (numbered from
    1; for ``history_bounded`` without the user's own messages, or with a threshold the
    candidates), the turns that break the rule,
    and the item that pins the history (None when no unpaired item stayed throughout)."""

    lengths: tuple[int, ...]
    broken: tuple[int, ...] = ()
    pin: Pin | None = None

    @property
    def text(self) -> str:
        """The detail in words, as a record keeps it (empty when the rule holds)."""
        if not self.broken:
            return ""
        turns = ", ".join(map(str, self.broken))
        pinned = f"; pinned by the {self.pin.text}" if self.pin else ""
        return f"turns {turns}; lengths {' '.join(map(str, self.lengths))}{pinned}"


@dataclass(frozen=True)
class LivenessVerdict:
    """One liveness invariant judged on one run (None: the run had no later turn)."""

    invariant: str
    holds: bool | None
    detail: LivenessDetail

    def as_row(self) -> dict[str, Any]:
        return {"invariant": self.invariant, "holds": self.holds, "detail": self.detail.text}


@dataclass(frozen=True)
class LivenessRun:
    """One scenario continued for N later turns: which scenario, on which release, in which
    compaction mode, with or without the workaround, and each later turn; or the error that
    stopped it."""

    scenario: str
    sdk_version: str
    mode: str
    workaround: bool
    turns: tuple[LiveTurn, ...]
    error: str = ""
    model: str = "scripted"
    own: tuple[LiveTurn, ...] = ()  # the situation's own turns before the later ones
    resumed: bool = False  # a late resume: the last of ``own`` is its resume
    threshold: int | None = None  # None: the hook always says yes; N: it asks at N candidates

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LivenessRun:
        def parsed(turns: Sequence[dict[str, Any]]) -> tuple[LiveTurn, ...]:
            return tuple(
                LiveTurn(
                    **t
                    | {
                        "unpaired": tuple(Pin(**p) for p in t["unpaired"]),
                        "sent_unpaired": tuple(t["sent_unpaired"]),
                        "sent": tuple(t.get("sent", ())),
                    }
                )
                for t in turns
            )

        found = {"turns": parsed(data["turns"]), "own": parsed(data.get("own", ()))}
        return cls(**data | found)

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(t.length for t in self.turns)

    @property
    def sent(self) -> tuple[str, ...]:
        """Every unpaired item the later turns sent."""
        return tuple(sorted({key for t in self.turns for key in t.sent_unpaired}))

    @property
    def own_sent(self) -> tuple[str, ...]:
        """Every unpaired item the situation's own turns sent, before the later ones."""
        return tuple(sorted({key for t in self.own for key in t.sent_unpaired}))

    @property
    def sent_words(self) -> tuple[str, ...]:
        """Every unpaired item the later turns sent, in words (``Sent.text``), each once."""
        return tuple(dict.fromkeys(text for t in self.turns for text in t.sent))

    @property
    def own_sent_words(self) -> tuple[str, ...]:
        """Every unpaired item the situation's own turns sent, in words, each once."""
        return tuple(dict.fromkeys(text for t in self.own for text in t.sent))


@dataclass(frozen=True)
class UsableVerdict:
    """``session_usable`` judged on one run (None: the run failed, or had no later turn): the
    later turns that raised (numbered from 1), and what they raised, each text once."""

    holds: bool | None
    raised: tuple[int, ...] = ()
    texts: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The evidence in words (empty when every later turn was answered)."""
        if not self.raised:
            return ""
        return f"turns {', '.join(map(str, self.raised))} raised {'; '.join(self.texts)}"


def session_usable(run: LivenessRun) -> UsableVerdict:
    """``session_usable``: no later turn raised (None: the run failed, or had no later turn)."""
    if run.error or not run.turns:
        return UsableVerdict(None)
    raised = tuple(n for n, t in enumerate(run.turns, 1) if t.met == RAISED)
    texts = tuple(dict.fromkeys(t.raised for t in run.turns if t.met == RAISED))
    return UsableVerdict(not raised, raised, texts)


@dataclass(frozen=True)
class ResumeVerdict:
    """A late resume judged (None: the run resumed nothing late, or failed): what it stored
    unpaired from the resume on, and what it sent unpaired from its first question on."""

    holds: bool | None
    stored: tuple[str, ...] = ()  # each stored unpaired item, in words (``Pin.text``)
    sent: tuple[str, ...] = ()  # the keys of the unpaired items sent

    @property
    def text(self) -> str:
        """The verdict's evidence in words (empty when nothing unpaired was found)."""
        parts = [f"stored {', '.join(self.stored)}"] if self.stored else []
        parts += [f"sent {', '.join(self.sent)}"] if self.sent else []
        return "; ".join(parts)


def resume_paired(run: LivenessRun) -> ResumeVerdict:
    """``resume_paired``: after a late resume nothing unpaired is stored (each history stored
    from the resume, the last of ``own``, to the last later turn), and no turn of the run sent
    anything unpaired (None: the run resumed nothing late, or failed)."""
    if run.error or not run.resumed or not run.own:
        return ResumeVerdict(None)
    after = (run.own[-1], *run.turns)
    stored = tuple(dict.fromkeys(p.text for t in after for p in t.unpaired))
    sent = tuple(sorted({*run.own_sent, *run.sent}))
    return ResumeVerdict(not stored and not sent, stored, sent)


def _pin(turns: Sequence[LiveTurn], first: int) -> Pin | None:
    """The unpaired item stored in every turn from ``first`` (index) to the last: the one that
    pins the history (the earliest in the last turn's history)."""
    if not turns:
        return None
    kept = {(p.item_type, p.key, p.problem) for p in turns[first].unpaired}
    for turn in turns[first + 1 :]:
        kept &= {(p.item_type, p.key, p.problem) for p in turn.unpaired}
    return next((p for p in turns[-1].unpaired if (p.item_type, p.key, p.problem) in kept), None)


def asked(turn: LiveTurn, threshold: int | None = None) -> bool:
    """Whether the turn's trigger asked for a compaction that did not run: always, when the hook
    always says yes; with a threshold, when the turn ended without one and with the threshold's
    candidates stored (what the trigger is shown before it decides)."""
    return threshold is None or turn.candidates >= threshold


def compaction_runs(turns: Sequence[LiveTurn], threshold: int | None = None) -> LivenessVerdict:
    """Every later turn with nothing waiting, whose trigger asks for it, made its compaction
    request."""
    lengths = tuple(t.length for t in turns)
    if not turns:
        return LivenessVerdict("compaction_runs", None, LivenessDetail(lengths))
    broken = tuple(
        n
        for n, t in enumerate(turns, 1)
        if not t.waiting and not t.compacted and asked(t, threshold)
    )
    pin = _pin(turns, broken[0] - 1) if broken else None
    return LivenessVerdict("compaction_runs", not broken, LivenessDetail(lengths, broken, pin))


def history_bounded(turns: Sequence[LiveTurn], threshold: int | None = None) -> LivenessVerdict:
    """After each later turn's compaction (asked for by the hook, whether or not it ran) the
    history, without the user's own messages, is no longer than after the previous turn; with a
    threshold, its candidates stay under the threshold after every turn."""
    if threshold is not None:
        counts = tuple(t.candidates for t in turns)
        over = tuple(n for n, count in enumerate(counts, 1) if count >= threshold)
        pin = _pin(turns, over[0] - 1) if over else None
        held = None if not turns else not over
        return LivenessVerdict("history_bounded", held, LivenessDetail(counts, over, pin))
    lengths = tuple(t.kept for t in turns)
    if not turns:
        return LivenessVerdict("history_bounded", None, LivenessDetail(lengths))
    broken = tuple(n for n in range(2, len(turns) + 1) if lengths[n - 1] > lengths[n - 2])
    pin = _pin(turns, broken[0] - 1) if broken else None
    return LivenessVerdict("history_bounded", not broken, LivenessDetail(lengths, broken, pin))


def judge_liveness(run: LivenessRun) -> tuple[LivenessVerdict, ...]:
    """Both liveness verdicts, in LIVENESS order (not judged when the run failed)."""
    if run.error:
        empty = LivenessDetail(run.lengths)
        return tuple(LivenessVerdict(name, None, empty) for name in LIVENESS_NAMES)
    return (
        compaction_runs(run.turns, run.threshold),
        history_bounded(run.turns, run.threshold),
    )


@dataclass(frozen=True)
class LivenessRecord:
    """One run and one liveness invariant, as the data files keep it."""

    scenario: str
    sdk_version: str
    mode: str
    workaround: bool
    invariant: str
    holds: bool | None
    detail: str
    lengths: str
    pin: str = ""
    sent_unpaired: str = ""
    error: str = ""
    turns: int = field(default=0)
    own_sent: str = ""  # what the situation's own turns sent unpaired, before the later ones
    resume_paired: bool | None = None  # a late resume's pairing (None: no late resume)
    resume_unpaired: str = ""  # what it stored or sent unpaired, in words
    session_usable: bool | None = None  # no later turn raised (None: not judged)
    raised: str = ""  # the later turns that raised, and what, in words
    model: str = "scripted"  # the model wiring the run answered with
    # What the later turns and the own turns sent unpaired, each in words: which way it is
    # unpaired, its key and where it went (``Sent.text``), "; "-separated.
    sent_detail: str = ""
    own_sent_detail: str = ""


def liveness_records(runs: Sequence[LivenessRun]) -> list[LivenessRecord]:
    """Tidy records: one per run and liveness invariant."""
    out = []
    for run in runs:
        resumed, usable = resume_paired(run), session_usable(run)
        for verdict in judge_liveness(run):
            pin = verdict.detail.pin
            out.append(
                LivenessRecord(
                    scenario=run.scenario,
                    sdk_version=run.sdk_version,
                    mode=run.mode,
                    workaround=run.workaround,
                    invariant=verdict.invariant,
                    holds=verdict.holds,
                    detail=verdict.detail.text,
                    lengths=" ".join(map(str, run.lengths)),
                    pin=pin.text if pin else "",
                    sent_unpaired=" ".join(run.sent),
                    error=run.error,
                    turns=len(run.turns),
                    own_sent=" ".join(run.own_sent),
                    resume_paired=resumed.holds,
                    resume_unpaired=resumed.text,
                    session_usable=usable.holds,
                    raised=usable.text,
                    model=run.model,
                    sent_detail="; ".join(run.sent_words),
                    own_sent_detail="; ".join(run.own_sent_words),
                )
            )
    return out


RunKey = tuple[str, str, str, bool]  # scenario, release, compaction mode, workaround


def broken_runs(runs: Sequence[LivenessRun]) -> dict[RunKey, tuple[str, ...]]:
    """The runs that break a liveness invariant, each by its scenario, release, mode and
    workaround, with the invariants it breaks (in ``LIVENESS`` order, then ``session_usable``
    when a later turn raised)."""
    broken: dict[RunKey, tuple[str, ...]] = {}
    for run in runs:
        names = tuple(v.invariant for v in judge_liveness(run) if v.holds is False)
        names += (SESSION_USABLE.name,) if session_usable(run).holds is False else ()
        if names:
            broken[(run.scenario, run.sdk_version, run.mode, run.workaround)] = names
    return broken


def liveness_run(
    scenario: str,
    sdk_version: str,
    mode: str,
    workaround: bool,
    later: Sequence[tuple[Stage | None, str]],
    error: str = "",
    model: str = "scripted",
    own: Sequence[Stage] = (),
    resumed: bool = False,
    threshold: int | None = None,
) -> LivenessRun:
    """A run from its later turns, each a stage and the turn's outcome (``answered``,
    ``paused``, ``error: ...``), and the stages of the situation's own turns before them
    (``own``; with ``resumed``, the last is a late resume); a later turn without a stage is an
    error. ``threshold``: the trigger's (None: the hook always says yes)."""
    turns = []
    for stage, outcome in later:
        if stage is None:
            error = error or f"a later turn recorded no stage ({outcome})"
            break
        turns.append(live_turn(stage, outcome == "paused", outcome, model))
    mine = tuple(live_turn(stage, model=model) for stage in own)
    return LivenessRun(
        scenario, sdk_version, mode, workaround, tuple(turns), error, model, mine, resumed,
        threshold,
    )  # fmt: skip


def driver_liveness(
    data: dict[str, Any],
    read_stage: Callable[[dict[str, Any]], Stage],
    *,
    mode: str,
    model: str,
    release: str | None = None,
) -> LivenessRun:
    """One liveness situation a driver script wrote (its own stages, then its later turns, each
    a stage and its outcome), read by the driver's own mapping (``read_stage``), as the run
    judged here; ``release`` names a patched package. Its lines have the same keys in every
    driver script (``study.capture.driver_run`` reads their cases)."""
    own = [read_stage(stage) for stage in data.get("stages", [])]
    later = [(read_stage(t["stage"]), str(t["outcome"])) for t in data.get("later", [])]
    error = str(data.get("error") or data.get("not_applicable") or "")
    wanted = int(data.get("wanted", len(later)))
    if not error and len(later) < wanted:
        error = f"only {len(later)} of {wanted} later turns ran"
    return liveness_run(
        scenario=str(data["scenario"]),
        sdk_version=release or str(data["sdk_version"]),
        mode=mode,
        workaround=False,
        later=later,
        error=error,
        model=model,
        own=own,
        resumed=bool(data.get("resumed")),
    )


@dataclass(frozen=True)
class SituationRow:
    """One situation on one release, as it is or with the workaround, over every mode it ran
    in: whether the session stays usable (no later turn raised, in any mode), what the later
    turns raised (the modes, then each text once), whether it keeps compacting (usable, and
    both liveness invariants hold in every mode), the first broken verdict and the item that
    pins the history, what its later turns and its own turns (the pause, a late resume's) sent
    unpaired, and a late resume's pairing ("" when none)."""

    release: str
    workaround: bool
    situation: str
    session_usable: bool | None  # None: no mode's run was judged
    raised: str  # "<modes>: <text>" for each text the later turns raised ("" when none)
    keeps_compacting: bool
    broken: str  # "<invariant> in <mode> mode" of the first broken verdict ("" when none)
    pinned_by: str  # "<problem> <key>" of that verdict's pin ("" when none)
    later_turns_unpaired: str  # the keys, comma-separated
    own_turns_unpaired: str
    late_resume: str  # "paired", the unpaired items per mode, or "" when nothing resumed late


def _raised(runs: Sequence[LivenessRun]) -> str:
    """What the later turns raised over the runs (every mode): each text once, after the modes
    that raised it."""
    modes: dict[str, list[str]] = {}
    for run in runs:
        for text in session_usable(run).texts:
            modes.setdefault(text, []).append(run.mode)
    return "; ".join(f"{', '.join(found)}: {text}" for text, found in modes.items())


def _usable(runs: Sequence[LivenessRun]) -> bool | None:
    judged = [v.holds for r in runs if (v := session_usable(r)).holds is not None]
    return all(judged) if judged else None


def situation_rows(runs: Sequence[LivenessRun], situations: Sequence[str]) -> list[SituationRow]:
    """A row per release, workaround and situation that ran, in release and situation order."""
    rows = []
    keys = sorted({(r.sdk_version, r.workaround) for r in runs})
    for version, fixed in keys:
        for situation in situations:
            mine = [
                r
                for r in runs
                if (r.sdk_version, r.workaround, r.scenario) == (version, fixed, situation)
            ]
            if not mine:
                continue
            broken = [(r, v) for r in mine for v in judge_liveness(r) if v.holds is False]
            first = broken[0] if broken else None
            pin = first[1].detail.pin if first else None
            usable = _usable(mine)
            rows.append(
                SituationRow(
                    release=version,
                    workaround=fixed,
                    situation=situation,
                    session_usable=usable,
                    raised=_raised(mine),
                    keeps_compacting=usable is True and not broken,
                    broken=f"{first[1].invariant} in {first[0].mode} mode" if first else "",
                    pinned_by=f"{pin.problem} {pin.key}" if pin else "",
                    later_turns_unpaired=", ".join(sorted({k for r in mine for k in r.sent})),
                    own_turns_unpaired=", ".join(sorted({k for r in mine for k in r.own_sent})),
                    late_resume=_late_resume(mine),
                )
            )
    return rows


def _late_resume(runs: Sequence[LivenessRun]) -> str:
    """A late resume's pairing over its runs (every mode); "" when none resumed late."""
    judged = [(r.mode, v) for r in runs if (v := resume_paired(r)).holds is not None]
    wrong = [f"{mode}: {v.text}" for mode, v in judged if v.holds is False]
    if not judged:
        return ""
    return "; ".join(wrong) if wrong else "paired"


def continued_run(run: CaseRun, scenario: str | None = None) -> LivenessRun:
    """A case continued after its next turn (``run.later``) as a liveness run of its own (named
    ``scenario``, else the case's label); fewer later turns than asked for is its error."""
    pairs = [(turn.stage, turn.outcome) for turn in run.later]
    error = run.later_error or ("" if run.later else "no later turn ran")
    if not error and len(run.later) < run.continued:
        error = f"only {len(run.later)} of {run.continued} later turns ran"
    name = run.case.label if scenario is None else scenario
    return liveness_run(name, run.sdk_version, run.mode, False, pairs, error, run.model)


def case_liveness(run: CaseRun) -> tuple[LivenessVerdict, ...]:
    """Both liveness verdicts of a case continued after its next turn (``run.later``), judged as
    a liveness run of its own: the matrix's two liveness records."""
    return judge_liveness(continued_run(run))
