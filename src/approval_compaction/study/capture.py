"""Capture: what one case left behind at each stage, as plain, JSON-serialisable records.

A stage records the stored session history when it ended, and every payload that left the
process while it ran: each model request's input (as the runner handed it to the model
interface) and each compaction request's input, plus how many times the protected tool ran and
the warnings the SDK logged. The round-trip stage also keeps the item lists found inside the
serialised ``RunState``. Over HTTP (the ``responses`` model) a stage also keeps each request as
it went over the wire, and what the user saw: ``ok``, or the HTTP status and the exception
(``openai.BadRequestError: ...``) that ended the case there.
"""

from __future__ import annotations

import functools
import importlib.metadata
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from ..sdks import FOLDERS
from .items import Item
from .scenario import Case
from .words import CompactRules, Mode, Model


@functools.cache
def sdk_version() -> str:
    """The installed ``openai-agents`` release, which every captured run records (read once: a
    process keeps the release it imported, and the explorer asks after every step)."""
    return importlib.metadata.version("openai-agents")


StageName = Literal["pause", "round_trip", "resume", "next_turn"]
# Which SDK ran a run, by the name of its folder (``sdks.FOLDERS``: ``python`` is openai-agents',
# the study's own); a ``CaseRun`` of any other is refused.
Sdk = str
PYTHON = "python"
STAGES: tuple[StageName, ...] = ("pause", "round_trip", "resume", "next_turn")
OK = "ok"  # what the user saw when a stage's requests were all answered


@dataclass(frozen=True)
class Outcome:
    """What the user saw when a stage ended: every request answered (``ok``), or the exception
    the ``openai`` client raised, with its HTTP status and its text on one line, the endpoint
    that refused the request and the API's own message (the ``error.message`` of its body)."""

    exception: str = ""  # the exception's package and class: ``openai.BadRequestError``
    http_status: int | None = None
    message: str = ""
    endpoint: str = ""  # ``/v1/responses/compact``: the path of the refused request
    api_message: str = ""  # ``No tool output found for function call pending-c1.``

    @property
    def ok(self) -> bool:
        return not self.exception

    @property
    def text(self) -> str:
        """``ok``, or ``openai.BadRequestError: Error code: 400 - ...`` as a record keeps it."""
        return OK if self.ok else f"{self.exception}: {self.message}"

    @classmethod
    def of(cls, error: BaseException, http_status: int | None) -> Outcome:
        """The outcome of a turn that raised ``error`` (an ``openai.APIStatusError`` carries the
        refused request and the API's body)."""
        name = f"{type(error).__module__.split('.')[0]}.{type(error).__name__}"
        request = getattr(getattr(error, "response", None), "request", None)
        endpoint = str(getattr(getattr(request, "url", None), "path", "") or "")
        body = getattr(error, "body", None)
        said = body.get("message") if isinstance(body, dict) else None
        api = " ".join(said.split()) if isinstance(said, str) else ""
        return cls(name, http_status, " ".join(str(error).split()), endpoint, api)

    @classmethod
    def from_text(
        cls, text: str, http_status: int | None, endpoint: str = "", api_message: str = ""
    ) -> Outcome:
        """The inverse of ``text``, for a record read back from its file."""
        if text == OK:
            return cls()
        exception, _, message = text.partition(": ")
        return cls(exception, http_status, message, endpoint, api_message)


OK_OUTCOME = Outcome()


@dataclass(frozen=True)
class Stage:
    """The state of one case when one stage ended, and what it sent out while it ran."""

    name: StageName
    stored: list[Item]
    model_inputs: list[list[Item]] = field(default_factory=list)
    compaction_inputs: list[list[Item]] = field(default_factory=list)
    dispatches: int = 0
    state_items: dict[str, list[Item]] = field(default_factory=dict)
    interruptions: list[Item] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    http_requests: list[Item] = field(default_factory=list)
    outcome: Outcome = OK_OUTCOME

    def to_json(self) -> dict[str, Any]:
        """The stage as JSON-ready dicts; the outcome as its text and its HTTP status, and the
        refused endpoint and the API's message when a request was refused."""
        plain = {f.name: getattr(self, f.name) for f in fields(Stage) if f.name != "outcome"}
        seen = self.outcome
        refused = (
            {"endpoint": seen.endpoint, "api_message": seen.api_message} if seen.endpoint else {}
        )
        return {**plain, "outcome": seen.text, "http_status": seen.http_status, **refused}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Stage:
        keys = ("outcome", "http_status", "endpoint", "api_message")
        rest = {k: v for k, v in data.items() if k not in keys}
        outcome = Outcome.from_text(
            data.get("outcome", OK),
            data.get("http_status"),
            data.get("endpoint", ""),
            data.get("api_message", ""),
        )
        return cls(**rest, outcome=outcome)


LATER_TURNS = 10  # the later turns after a case or a situation that liveness is judged over


@dataclass(frozen=True)
class Later:
    """One later turn after a case's own conversation (``Continue(1)``, the hook saying yes):
    its stage (None when the turn recorded none) and its outcome (``answered``, ``paused``...)."""

    stage: Stage | None
    outcome: str

    def to_json(self) -> dict[str, Any]:
        return {"stage": None if self.stage is None else self.stage.to_json()} | {
            "outcome": self.outcome
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Later:
        stage = None if data["stage"] is None else Stage.from_json(data["stage"])
        return cls(stage, data["outcome"])


@dataclass(frozen=True)
class CaseRun:
    """One executed case: its stages in order, or the error that stopped it. A case continued
    for ``continued`` later turns (the liveness invariants' runs) keeps each in ``later``, and
    ``later_error`` says what cut them short."""

    case: Case
    sdk_version: str
    stages: list[Stage]
    approvals: int
    dispatches: int
    error: str | None = None
    not_applicable: str | None = None
    model: Model = "scripted"
    mode: Mode | str = "input"  # the session's compaction_mode (a driver's setting)
    compact_rules: CompactRules = "faithful"  # how the compaction endpoint answered
    continued: int = 0  # the later turns asked for (0: the case was not continued)
    later: list[Later] = field(default_factory=list)
    later_error: str = ""
    response_store: bool | None = None  # the agent's ModelSettings(store=...); None: not set
    sdk: Sdk = "python"  # which SDK ran it, by its short name ("python": openai-agents)
    # What the driver added to the plan's configuration because the release requires it or has
    # no other way to run it ("compaction_interval=1000000, overlap_size=0"); "": none.
    configured: str = ""

    def __post_init__(self) -> None:
        if self.sdk not in FOLDERS:
            raise ValueError(f"no SDK {self.sdk!r}: expected one of {', '.join(FOLDERS)}")

    def stage(self, name: StageName) -> Stage | None:
        """The named stage, or None when the run stopped before it."""
        return next((s for s in self.stages if s.name == name), None)

    @property
    def compaction_requests(self) -> int:
        return sum(len(s.compaction_inputs) for s in self.stages)

    def to_json(self) -> dict[str, Any]:
        """The run as JSON-ready dicts, like ``asdict`` without its deep copy (items are plain)."""
        stages = [stage.to_json() for stage in self.stages]
        top = {f.name: getattr(self, f.name) for f in fields(CaseRun)}
        if self.response_store is None:  # not set: the file reads as before the setting existed
            del top["response_store"]
        if self.sdk == PYTHON:  # the Python study's files read as before another SDK's existed
            del top["sdk"]
        if not self.configured:  # taken as planned: the file reads as before the field existed
            del top["configured"]
        later = [turn.to_json() for turn in self.later]
        return {**top, "case": self.case.as_dict(), "stages": stages, "later": later}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CaseRun:
        """Rebuild a run from its ``to_json`` form."""
        stages = [Stage.from_json(stage) for stage in data["stages"]]
        later = [Later.from_json(turn) for turn in data.get("later", [])]
        return cls(**{**data, "case": Case(**data["case"]), "stages": stages, "later": later})


def driver_run(
    data: dict[str, Any],
    read_stage: Callable[[dict[str, Any]], Stage],
    *,
    sdk: Sdk,
    model: Model,
    mode: Mode | str,
) -> CaseRun:
    """One case a driver (``Sdk``) wrote, as the study's record: every driver's line has
    the same keys, and only its stages are read by the driver's own mapping (``read_stage``,
    its SDK's items to the wire's shapes). A line without ``continued`` was continued for as
    many later turns as it holds."""
    later = [Later(read_stage(t["stage"]), str(t["outcome"])) for t in data.get("later", [])]
    return CaseRun(
        case=Case(**data["case"]),
        sdk_version=str(data["sdk_version"]),
        stages=[read_stage(stage) for stage in data.get("stages", [])],
        approvals=int(data.get("approvals", 0)),
        dispatches=int(data.get("dispatches", 0)),
        error=data.get("error"),
        not_applicable=data.get("not_applicable"),
        model=model,
        mode=mode,
        continued=int(data.get("continued", len(later))),
        later=later,
        later_error=str(data.get("later_error") or ""),
        response_store=data.get("response_store"),
        sdk=sdk,
        configured=str(data.get("configured") or ""),
    )


def pending_ids(run: CaseRun) -> set[str]:
    """Call ids that were waiting for approval when the first turn paused."""
    pause = run.stage("pause")
    return {str(i.get("call_id")) for i in (pause.interruptions if pause else []) if "call_id" in i}


def runs_json(runs: Sequence[CaseRun]) -> str:
    """Runs as the JSON text of a ``*-runs.json`` file."""
    return json.dumps([run.to_json() for run in runs], indent=1) + "\n"
