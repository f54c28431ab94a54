"""Conversation: an explored conversation as a list of steps, and what each step left behind.

A conversation fixes the compaction mode and whether the workaround wraps the session, then
takes steps. ``ask`` is a new question: the model's first reply holds zero to three tool calls
of the kinds in ``calls``, and the turn ends normally, on an input guardrail that trips, or on
``max_turns`` (a run limited to one turn); a paused approval still open is left undecided.
``decide`` answers every pending approval (``approve``, ``reject``, or ``mixed``: approve the
first, reject the rest) after the state crossed a boundary (``memory``, ``json``, or
``process``: a worker process given only the JSON and the store), and resumes. ``lose`` (only
while an approval is open) drops the paused state: the worker holding it died, the call stays
stored without its output. ``keep`` (only while an approval is open) is the application saving
the paused state's JSON aside and letting the run go, as it keeps a state a user may come back
to; a ``decide`` of the ``kept`` state restores it first, and is a *late resume* when turns came
between the two (``late_resumes``). ``continue``
asks ``CONTINUE_TURNS`` plain questions with the hook always saying yes, the later turns the
liveness invariants are judged on (``compaction_runs``, ``history_bounded``): asked while an
approval is open, they abandon it. Every step that takes a turn names its runner and what the
compaction hook answers at the turn ends it causes (a ``continue`` always says yes).

Records here are plain data (no SDK): a conversation's name is a hash of its steps, so a saved
counterexample keeps one file name however often it is found (a step's JSON holds only the
fields its action uses, so adding an action left every earlier name as it was).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal

from ...study.capture import Stage
from ...study.items import Item
from ...study.words import MODES as ALL_MODES
from ...study.words import STUDY_MODE, Boundary, DecisionRule, Ending, Kind, Mode, Runner

Action = Literal["ask", "decide", "lose", "keep", "continue", "finish"]
StepEnding = Ending | Literal["die"]  # die: a driver's worker dies once the reply is stored
TURNLESS: dict[str, str] = {  # the steps that take no turn and send nothing, by their label
    "lose": "lose the paused state",
    "keep": "keep the paused state aside",
}
CONTINUE_TURNS = 3  # the later turns of one ``continue`` step
# Each list starts with its simplest choice: that is where hypothesis's shrinking moves.
# The modes: the study's first (hypothesis shrinks toward it), the others in the search's order.
MODES: tuple[Mode, ...] = (STUDY_MODE, *reversed([m for m in ALL_MODES if m != STUDY_MODE]))
DECISIONS: tuple[DecisionRule, ...] = ("approve", "reject", "mixed")
BOUNDARIES: tuple[Boundary, ...] = ("memory", "json", "process")


@dataclass(frozen=True)
class Step:
    """One step of a conversation (the fields an action does not use keep their default)."""

    action: Action
    runner: Runner = "run"
    compact: bool = False
    calls: tuple[Kind, ...] = ()
    ending: StepEnding = "answer"
    decision: DecisionRule = "approve"
    boundary: Boundary = "memory"
    kept: bool = False  # a decide of the state ``keep`` set aside (restored first), not the latest
    parallel: bool = False  # an ask whose calls come in one reply (a driver's), not one each

    def label(self) -> str:
        """A short readable form, e.g. ``ask[function_approval] compact`` or
        ``decide approve via json``."""
        if self.action == "ask":
            text = f"ask[{', '.join(self.calls)}]" + (" in one reply" if self.parallel else "")
            if self.ending == "die":
                text += ", the worker dies"
            elif self.ending != "answer":
                text += f" until {self.ending}"
        elif self.action == "finish":
            text = "send the long-running results"
        elif self.action == "decide":
            kept = "the kept state " if self.kept else ""
            text = f"decide {kept}{self.decision} via {self.boundary}"
        elif self.action in TURNLESS:
            return TURNLESS[self.action]
        else:
            text = f"continue {CONTINUE_TURNS} turns"
        text += " (streamed)" if self.runner == "run_streamed" else ""
        return text + (" compact" if self.compact else "")

    def to_json(self) -> dict[str, Any]:
        """Only the fields the action uses, so that a step's JSON (and its hash) is minimal."""
        if self.action in TURNLESS:
            return {"action": self.action}
        used = {"ask": ("calls", "ending"), "decide": ("decision", "boundary")}.get(self.action, ())
        data = {"action": self.action, "runner": self.runner, "compact": self.compact}
        data |= {"kept": True} if self.kept else {}  # absent for the latest: the names before
        data |= {"parallel": True} if self.parallel else {}  # a driver's: absent when not
        return data | {name: _plain(getattr(self, name)) for name in used}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Step:
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {k: v for k, v in data.items() if k in known}
        values["calls"] = tuple(values.get("calls", ()))
        return cls(**values)


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True)
class Conversation:
    """The compaction mode, the workaround on or off, and the steps in order; on a driver (the
    SDK's registry name in ``sdk``; "" is the Python SDK's own search) the mode
    is the driver's (its compaction setting) and ``settings`` holds its other settings, in order."""

    mode: Mode | str = STUDY_MODE
    fix: bool = False
    steps: tuple[Step, ...] = ()
    sdk: str = ""
    settings: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        data = {"mode": self.mode, "fix": self.fix, "steps": [s.to_json() for s in self.steps]}
        if self.sdk:  # a driver's: absent from the Python search's files, as before drivers
            data |= {"sdk": self.sdk, "settings": dict(self.settings)}
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Conversation:
        steps = tuple(Step.from_json(s) for s in data["steps"])
        settings = tuple(dict(data.get("settings", {})).items())
        return cls(data["mode"], bool(data["fix"]), steps, str(data.get("sdk", "")), settings)

    @property
    def options(self) -> dict[str, Any]:
        """Every setting a driver starts the conversation with, the mode first."""
        return {"mode": self.mode, **dict(self.settings)}

    def digest(self) -> str:
        """Twelve hex digits of the SHA-256 of the canonical JSON: the same steps, one name."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def then(self, step: Step) -> Conversation:
        return replace(self, steps=(*self.steps, step))


@dataclass(frozen=True)
class Judgement:
    """One invariant judged on one step: holds, or violated with the offending ids."""

    invariant: str
    holds: bool | None
    detail: str
    offenders: tuple[str, ...] = ()


@dataclass(frozen=True)
class StepRecord:
    """What one step did: its outcome, the payloads it sent, the history it left, the
    approvals it gave, and every invariant judged on it."""

    index: int
    step: Step
    outcome: str  # answered, paused, or "error: <exception class>"
    pending: tuple[str, ...]  # call ids still waiting for a decision after the step
    approvals: int  # locally run calls the step approved: the dispatches it should cause
    stage: Stage
    judgements: tuple[Judgement, ...] = ()

    @property
    def violations(self) -> list[Judgement]:
        return [j for j in self.judgements if j.holds is False]

    def to_json(self) -> dict[str, Any]:
        stage = self.stage.to_json()
        return {
            "index": self.index,
            "step": self.step.to_json(),
            "outcome": self.outcome,
            "pending": list(self.pending),
            "approvals": self.approvals,
            "stage": stage,
            "judgements": [asdict(j) | {"offenders": list(j.offenders)} for j in self.judgements],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StepRecord:
        stage = Stage.from_json(data["stage"])
        judgements = tuple(
            Judgement(j["invariant"], j["holds"], j["detail"], tuple(j["offenders"]))
            for j in data["judgements"]
        )
        return cls(
            int(data["index"]),
            Step.from_json(data["step"]),
            str(data["outcome"]),
            tuple(data["pending"]),
            int(data["approvals"]),
            stage,
            judgements,
        )


@dataclass(frozen=True)
class Trace:
    """One conversation run on one release: a record per step taken, and the skipped kinds."""

    conversation: Conversation
    sdk_version: str
    records: tuple[StepRecord, ...]
    skipped: dict[str, str] = field(default_factory=dict)

    @property
    def violations(self) -> list[tuple[int, Judgement]]:
        return [(r.index, j) for r in self.records for j in r.violations]

    def to_json(self) -> dict[str, Any]:
        return {
            "conversation": self.conversation.to_json(),
            "sdk_version": self.sdk_version,
            "records": [r.to_json() for r in self.records],
            "skipped": dict(sorted(self.skipped.items())),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Trace:
        return cls(
            Conversation.from_json(data["conversation"]),
            str(data["sdk_version"]),
            tuple(StepRecord.from_json(r) for r in data["records"]),
            dict(data.get("skipped", {})),
        )


def pending_of(records: tuple[StepRecord, ...] | list[StepRecord]) -> list[Item]:
    """Every interruption any step paused on (for marking pending calls in item tables)."""
    return [item for r in records for item in r.stage.interruptions]


def late_resumes(records: tuple[StepRecord, ...] | list[StepRecord]) -> list[int]:
    """The indices of the ``decide`` steps that resume late: they decide the ``kept`` state
    after at least one turn (an ``ask`` or a ``continue``) since the ``keep`` that saved it."""
    late, kept, turned = [], False, False
    for record in records:
        step = record.step
        if step.action == "keep" and record.outcome == "kept":
            kept, turned = True, False
        elif step.action in ("ask", "continue"):
            turned = True
        elif step.action == "decide" and step.kept and kept:
            late += [record.index] if turned else []
            kept = False  # restored: the application holds it no longer
    return late
