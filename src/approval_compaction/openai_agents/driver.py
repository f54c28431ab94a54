"""Driver: a conversation is data, a list of steps, and one driver takes them through the SDK.

The steps are frozen dataclasses, one per kind (``Ask``, ``Cross``, ``Decide``, ``Resume``,
``LoseOutput``, ``Keep``, ``Recall``, ``Continue``), each with only the fields it uses, so a
``match`` over the union lets mypy check the driver handles every kind, and a step's JSON (which
crosses to a worker) is its class name and fields. ``Setup`` fixes the rest: the compaction mode
and trigger, the tools, the store and its first history, a session wrapper (the workaround), the
model wiring, the agent's ``ModelSettings(store=...)``, and whether a refusal by the API ends the
steps (the default) or the user goes on (``go_on``).

``Driver`` is the one place that calls ``Runner.run`` and ``Runner.run_streamed``. Each step that
ends a stage records a ``Stage``: the stored history and what the model, the compaction client,
the tools and the SDK's logger received since the stage before; a step that raises ends the
steps with what the user saw (``capture.Outcome``).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import sqlite3
import tempfile
from collections.abc import Callable, Sequence
from contextlib import closing, suppress
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal, TypeVar

import openai
from agents import ModelSettings, RunConfig, Runner, SQLiteSession
from agents.memory import OpenAIResponsesCompactionSession

from .. import paths
from ..formats.progress import Progress
from ..study.capture import Outcome, Stage, StageName, sdk_version
from ..study.items import Item, to_item, to_items
from ..study.loop import run_sync
from ..study.scenario import SessionWrapper
from ..study.words import (
    STUDY_MODE,
    Boundary,
    CompactRules,
    DecisionRule,
    Ending,
    Kind,
    Mode,
    Model,
    ResponseStore,
)
from ..study.words import Runner as RunnerName
from . import state as state_io
from .model import assistant_message
from .tools import CURRENT, HOSTED, Dispatches, build_agent
from .wiring import Backend, backend_for
from .worker import Worker

T = TypeVar("T")
SESSION_ID = "case-session"
SDK_LOGGERS = ("openai.agents", "openai-agents")
Reply = tuple[Item, ...]
Trigger = Literal["default", "always", "never"] | int  # int: compact at that many candidates
Store = Literal["sqlite", "memory"]
StageHook = Callable[[StageName], None]  # told each stage's name as the stage ends
NOTHING_PENDING = "nothing pending"  # a step that needs a paused state, taken without one


@dataclass(frozen=True)
class Ask:
    """A new question; the model answers with ``reply`` first, then plainly. ``compact`` is what
    the compaction hook answers during the step (None: the setup's trigger)."""

    question: str
    reply: Reply = ()
    runner: RunnerName = "run"
    compact: bool | None = None
    ending: Ending = "answer"  # or an input guardrail trips, or a run limited to one turn
    stage: StageName | None = "next_turn"


@dataclass(frozen=True)
class Cross:
    """The paused state crosses a boundary on its way to the resume."""

    boundary: Boundary
    stage: StageName | None = "round_trip"


@dataclass(frozen=True)
class Decide:
    """Approve or reject each pending item; ``mixed`` approves the first and rejects the rest."""

    decision: DecisionRule = "approve"


@dataclass(frozen=True)
class Resume:
    """Resume the decided run; the model answers with ``reply`` first, then plainly."""

    reply: Reply = ()
    runner: RunnerName = "run"
    compact: bool | None = None
    stage: StageName | None = "resume"


@dataclass(frozen=True)
class LoseOutput:
    """The paused state is lost before its output is stored: the call stays without it."""


@dataclass(frozen=True)
class Keep:
    """The application saves the paused state's JSON text (``RunState.to_json()``) aside, as it
    keeps a state a user may come back to; the next question leaves the approval undecided."""


@dataclass(frozen=True)
class Recall:
    """The application restores the state it kept (``RunState.from_json()``) as the paused run,
    to ``Decide`` and ``Resume`` it late, after the turns taken since ``Keep``."""


@dataclass(frozen=True)
class Continue:
    """``turns`` plain questions, each answered without a tool (``question n``/``answer n``);
    ``compact`` is what the compaction hook answers during them (None: the setup's trigger)."""

    turns: int
    runner: RunnerName = "run"
    stage: StageName | None = "next_turn"
    compact: bool | None = None


Step = Ask | Cross | Decide | Resume | LoseOutput | Keep | Recall | Continue
STEPS: dict[str, type[Step]] = {
    cls.__name__: cls for cls in (Ask, Cross, Decide, Resume, LoseOutput, Keep, Recall, Continue)
}


def step_json(step: Step) -> dict[str, Any]:
    return {"step": type(step).__name__, **asdict(step)}


def later(turns: int, compact: bool | None = True) -> list[Step]:
    """N later turns, each its own stage, the hook always saying yes (``compact`` None: the
    setup's trigger decides)."""
    return [Continue(1, compact=compact) for _ in range(turns)]


def step_from_json(data: dict[str, Any]) -> Step:
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k != "step"}
    kind: Any = STEPS[data["step"]]
    step: Step = kind(**values)
    return step


def _reference(wrap: SessionWrapper | None) -> str:
    return "" if wrap is None else f"{wrap.__module__}:{wrap.__qualname__}"


def _resolve(reference: str) -> SessionWrapper | None:
    if not reference:
        return None
    module, _, name = reference.partition(":")
    wrap: SessionWrapper = getattr(importlib.import_module(module), name)
    return wrap


@dataclass(frozen=True)
class Setup:
    """What stays the same from step to step of one conversation."""

    mode: Mode = STUDY_MODE
    trigger: Trigger = "always"
    kinds: tuple[Kind, ...] = ("function_approval",)
    store: Store = "sqlite"
    history: tuple[Item, ...] = ()  # written into the store before the first step
    guardrail: bool = False
    wrap: SessionWrapper | None = None  # wraps the compaction session (the workaround)
    model: Model = "scripted"
    compact_rules: CompactRules = "faithful"  # how the compaction endpoint answers
    response_store: ResponseStore = None  # the agent's ModelSettings(store=...); None: unset
    go_on: bool = False  # after a request the API refused, take the remaining steps
    capture: bool = True

    def to_json(self) -> dict[str, Any]:
        plain = {f.name: getattr(self, f.name) for f in fields(self)}
        return (
            plain
            | {"kinds": list(self.kinds), "history": list(self.history)}
            | {"wrap": _reference(self.wrap)}
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Setup:
        tuples = {"kinds": tuple(data["kinds"]), "history": tuple(data["history"])}
        return cls(**data | tuples | {"wrap": _resolve(data["wrap"])})


@dataclass(frozen=True)
class Turn:
    """What one step did: ``answered``, ``paused``, ``crossed``, ``decided``, ``lost``, ``nothing
    pending`` or ``error: <exception class>``; its stage (None when it ends none, or without
    capture); the items it paused on; the local runs it approved; how many candidate items the
    compaction hook was shown each time it was asked; and the error in one line (with its HTTP
    status when a request was refused: what the user saw, also on the stage)."""

    step: Step
    outcome: str
    stage: Stage | None = None
    interruptions: list[Item] = field(default_factory=list)
    approvals: int = 0
    hook: tuple[int, ...] = ()
    error: str = ""
    http_status: int | None = None  # the error came over HTTP with this status

    def to_json(self) -> dict[str, Any]:
        stage = None if self.stage is None else self.stage.to_json()
        return {**asdict(self), "step": step_json(self.step), "stage": stage}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Turn:
        stage = None if data["stage"] is None else Stage.from_json(data["stage"])
        step, hook = step_from_json(data["step"]), tuple(data["hook"])
        return cls(**data | {"step": step, "stage": stage, "hook": hook})


@dataclass(frozen=True)
class Transcript:
    """A whole conversation: on which release, with which model, each step's turn, the state
    left paused (JSON text, or empty) and the approved tools' runs."""

    sdk_version: str
    model: Model
    turns: list[Turn]
    state: str = ""
    dispatches: int = 0

    def stage(self, name: StageName) -> Stage:
        """The last stage of that name (the conversation recorded it, or this raises)."""
        return next(t.stage for t in reversed(self.turns) if t.stage and t.stage.name == name)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "turns": [t.to_json() for t in self.turns]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Transcript:
        return cls(**data | {"turns": [Turn.from_json(t) for t in data["turns"]]})


class MemoryStore:
    """A ``Session`` that keeps its items in a list: a store that is not SQLite."""

    session_settings = None

    def __init__(self, session_id: str = SESSION_ID) -> None:
        self.session_id = session_id
        self.items: list[Any] = []

    async def get_items(self, limit: int | None = None) -> list[Any]:
        return list(self.items if limit is None else self.items[-limit:] if limit else [])

    async def add_items(self, items: list[Any]) -> None:
        self.items.extend(items)

    async def pop_item(self) -> Any:
        return self.items.pop() if self.items else None

    async def clear_session(self) -> None:
        self.items.clear()

    def close(self) -> None:
        """Nothing to close: the items live as long as the store."""


class LogCollector(logging.Handler):
    """Keep the SDK's warnings for the record instead of printing them to stderr."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.name}: {record.getMessage()}")


def _trigger(trigger: Trigger) -> Callable[[dict[str, Any]], bool]:
    if trigger == "default":
        from agents.memory.openai_responses_compaction_session import (
            default_should_trigger_compaction,
        )

        return default_should_trigger_compaction
    if trigger in ("always", "never"):
        answer = trigger == "always"
        return lambda _: answer
    return lambda context: len(context["compaction_candidate_items"]) >= int(trigger)


def _one_line(error: BaseException) -> str:
    return f"{type(error).__name__}: {' '.join(str(error).split())}"[:300]


def export_no_traces() -> None:
    """Give the SDK a trace provider with no processor, unless one is set already.

    Every run here disables tracing (``RunConfig(tracing_disabled=True)``), yet the SDK builds
    its default provider on the first run all the same, and with it the exporter to the
    platform's trace endpoint: an HTTP client whose SSL context loads the certificate store,
    about 50 ms in every process (``agents/tracing/setup.py: get_trace_provider``). No trace is
    made either way; a release without these names keeps its default."""
    try:
        from agents.tracing import provider, setup
    except ImportError:
        return
    if getattr(setup, "GLOBAL_TRACE_PROVIDER", False) is None:
        with suppress(AttributeError, TypeError):
            setup.set_trace_provider(provider.DefaultTraceProvider())


class Driver:
    """One conversation's session, agent, model wiring and logs; ``take`` runs steps on them.

    ``path`` is the SQLite file (an existing one is the stored history to go on from); ``state``
    is the JSON text of a run paused before, to decide and resume here, and ``kept`` that of a
    state the application kept aside (``Keep``); ``worker`` takes the steps after a ``process``
    boundary (a fresh one is started when none is given)."""

    def __init__(
        self,
        setup: Setup,
        path: Path,
        backend: Backend | None = None,
        on_stage: StageHook | None = None,
        worker: Any = None,
        state: str = "",
        kept: str = "",
    ) -> None:
        export_no_traces()
        self.setup, self.path, self.on_stage, self.worker = setup, path, on_stage, worker
        self.wiring = (backend or backend_for(setup.model, setup.compact_rules))(setup.capture)
        self.agent = build_agent(self.wiring.model, setup.kinds, setup.guardrail)
        if setup.response_store is not None:  # as a user sets it: on the agent
            settings = ModelSettings(store=setup.response_store)
            self.agent = self.agent.clone(model_settings=settings)
        self.dispatches, self.log = Dispatches(), LogCollector()
        self.continued = 0  # plain turns ``Continue`` asked so far: their numbers go on from here
        self.state: Any = None  # the paused run's ``RunState``, until decided and resumed
        self._trigger = _trigger(setup.trigger)
        self._compact: bool | None = None  # what the hook answers during the current step
        self._seen: list[int] = []  # candidate items the hook was shown in the current step
        self._start: str | None = state  # the state to restore before the first step
        self.kept = kept  # the JSON text of the state ``Keep`` saved, until ``Recall``
        self._marks = self._counts()
        self.store: Any = None
        self._open()

    def _open(self) -> None:
        """(Re)open the store and the session under study, as a new request handler would."""
        if self.setup.store == "sqlite":
            self.store = SQLiteSession(SESSION_ID, str(self.path))
        self.store = self.store or MemoryStore()
        session: Any = OpenAIResponsesCompactionSession(
            SESSION_ID,
            self.store,
            client=self.wiring.compaction_client,  # the stand-in is duck-typed
            compaction_mode=self.setup.mode,
            should_trigger_compaction=self._hook,
        )
        self.session = session if self.setup.wrap is None else self.setup.wrap(session)

    def _hook(self, context: dict[str, Any]) -> bool:
        self._seen.append(len(context.get("compaction_candidate_items") or ()))
        return self._trigger(context) if self._compact is None else self._compact

    @property
    def counters(self) -> list[int]:
        """The calls the model and the compaction client answered, and the plain turns asked:
        a worker's ids go on from them."""
        model, client = self.wiring.model, self.wiring.compaction_client
        return [getattr(model, "calls", 0), getattr(client, "calls", 0), self.continued]

    @counters.setter
    def counters(self, values: Sequence[int]) -> None:
        parts = (self.wiring.model, self.wiring.compaction_client)
        for part, value in zip(parts, values[:2], strict=True):
            if hasattr(part, "calls"):  # over HTTP the stand-in numbers its own ids
                part.calls = value
        self.continued = values[2]

    def _counts(self) -> tuple[int, ...]:
        w = self.wiring
        logs = (w.model_inputs, w.compaction_inputs, w.http_requests, self.dispatches.approved)
        return (*(len(log) for log in logs), len(self.log.messages))

    def state_text(self) -> str:
        """The paused run's state as JSON text, or "" when nothing is paused."""
        return "" if self.state is None else state_io.to_text(self.state)

    async def take(self, steps: Sequence[Step]) -> list[Turn]:
        """Take the steps in order; a step that raises ends them (its turn says what it saw)."""
        token = CURRENT.set(self.dispatches)
        loggers = [logging.getLogger(name) for name in SDK_LOGGERS]
        for logger in loggers:
            logger.addHandler(self.log)
        turns: list[Turn] = []
        try:
            if self._start is not None:  # before the first step: the history, the paused state
                if self.setup.history:
                    await self.store.add_items(list(self.setup.history))
                if self._start:
                    self.state = await state_io.restore(self.agent, self._start)
                self._start = None
            for index, step in enumerate(steps):
                if isinstance(step, Cross) and step.boundary == "process" and self.state:
                    turns += await self._in_worker(step, steps[index + 1 :])
                    break
                turns.append(await self._take(step))
                refused = turns[-1].http_status is not None
                if turns[-1].error and not (refused and self.setup.go_on):
                    break
        finally:
            for logger in loggers:
                logger.removeHandler(self.log)
            CURRENT.reset(token)
        return turns

    async def _take(self, step: Step) -> Turn:
        self._compact, self._seen = getattr(step, "compact", None), []
        outcome, error, approvals, seen = NOTHING_PENDING, "", 0, Outcome()
        extra: dict[str, Any] = {}
        try:
            match step:
                case Ask():
                    outcome, extra = await self._ask(step)
                case Cross() if self.state is not None:
                    outcome, extra = "crossed", {"state_items": await self._cross(step)}
                case Decide() if self.state is not None:
                    outcome, approvals = "decided", self._decide(step)
                case Resume() if self.state is not None:
                    outcome, extra = await self._turn(self.state, step.runner, step.reply)
                case LoseOutput() if self.state is not None:
                    outcome, self.state = "lost", None
                case Keep() if self.state is not None:
                    outcome, self.kept = "kept", self.state_text()
                case Recall() if self.kept:
                    self.state = await state_io.restore(self.agent, self.kept)
                    outcome, self.kept = "recalled", ""
                case Continue():
                    outcome, extra = await self._continue(step)
        except Exception as exc:  # what the user saw ends the steps, it does not crash them
            self.state = None
            outcome, error = f"error: {type(exc).__name__}", _one_line(exc)
            if isinstance(exc, openai.APIStatusError):
                seen = Outcome.of(exc, exc.status_code)
        finally:
            self._compact = None
        stage = await self._stage(getattr(step, "stage", None), seen, extra)
        interruptions, hook = extra.get("interruptions", []), tuple(self._seen)
        return Turn(step, outcome, stage, interruptions, approvals, hook, error, seen.http_status)

    async def _stage(
        self, name: StageName | None, seen: Outcome, extra: dict[str, Any]
    ) -> Stage | None:
        """Tell the hook the stage ended, then record what it stored and received."""
        if name is None:
            return None
        if self.on_stage is not None:
            self.on_stage(name)
        if not self.setup.capture:
            return None
        m, c, h, d, w = self._marks
        stage = Stage(
            name=name,
            stored=to_items(await self.session.get_items()),
            model_inputs=self.wiring.model_inputs[m:],
            compaction_inputs=self.wiring.compaction_inputs[c:],
            dispatches=len(self.dispatches.approved) - d,
            warnings=self.log.messages[w:],
            http_requests=self.wiring.http_requests[h:],
            outcome=seen,
            **extra,
        )
        self._marks = self._counts()
        return stage

    async def _turn(
        self, value: Any, runner: RunnerName, reply: Reply, max_turns: int | None = None
    ) -> tuple[str, dict[str, Any]]:
        """One run: the model answers with ``reply`` first; a run that pauses keeps its state."""
        self.wiring.plan(reply)
        options: dict[str, Any] = {"session": self.session}
        options["run_config"] = RunConfig(tracing_disabled=True)
        if max_turns is not None:
            options["max_turns"] = max_turns
        result: Any
        if runner == "run":
            result = await Runner.run(self.agent, value, **options)
        else:
            result = Runner.run_streamed(self.agent, value, **options)
            async for _ in result.stream_events():
                pass
        interruptions = to_items(i.raw_item for i in result.interruptions)
        self.state = result.to_state() if interruptions else None
        return ("paused" if interruptions else "answered"), {"interruptions": interruptions}

    async def _ask(self, step: Ask) -> tuple[str, dict[str, Any]]:
        self.dispatches.trip = step.ending == "guardrail"
        limit = 1 if step.ending == "max_turns" else None
        try:
            return await self._turn(step.question, step.runner, step.reply, limit)
        finally:
            self.dispatches.trip = False

    async def _cross(self, step: Cross) -> dict[str, list[Item]]:
        """The state across the boundary; across JSON, the item lists its text carries."""
        if step.boundary != "json":
            return {}
        text = state_io.to_text(self.state)
        self.state = await state_io.restore(self.agent, text)
        return state_io.state_items(text) if self.setup.capture else {}

    def _decide(self, step: Decide) -> int:
        """Approve or reject each pending item; the approved items that run here."""
        approvals = 0
        for n, interruption in enumerate(self.state.get_interruptions()):
            approve = step.decision == "approve" or (step.decision == "mixed" and n == 0)
            (self.state.approve if approve else self.state.reject)(interruption)
            approvals += approve and to_item(interruption.raw_item).get("type") != HOSTED
        return approvals

    async def _continue(self, step: Continue) -> tuple[str, dict[str, Any]]:
        outcome: tuple[str, dict[str, Any]] = ("answered", {})
        for _ in range(step.turns):
            n, self.continued = self.continued, self.continued + 1
            reply = (assistant_message(f"answer {n}", item_id=f"msg-{n}"),)
            outcome = await self._turn(f"question {n}", step.runner, reply)
        return outcome

    async def _in_worker(self, cross: Cross, rest: Sequence[Step]) -> list[Turn]:
        """Hand the state's JSON, the store file and the steps after the boundary to a worker
        process; take back its turns, the state it left paused and the one kept aside, and its
        counters."""
        setup = replace(self.setup, history=())  # the store holds it already
        request = _request(setup, self.path, self.state_text(), rest, self.counters, self.kept)
        self.close()  # the store is the worker's while it works
        worker = self.worker or Worker()
        try:
            answer = await asyncio.to_thread(worker.ask, request)
        finally:
            if self.worker is None:
                worker.close()
        self._open()
        done = Transcript.from_json(answer["transcript"])
        self.counters = answer["counters"]
        self.dispatches.approved.extend(answer["dispatched"])
        self._marks = self._counts()  # the worker's turns carry their own stages
        self.state = await state_io.restore(self.agent, done.state) if done.state else None
        self.kept = answer["kept"]
        return [Turn(cross, "crossed"), *done.turns]

    async def fork(self, path: Path) -> Driver:
        """A new driver on a copy of this one's store (SQLite's own backup into ``path``; a
        store in memory is copied as the new one's history), its ids going on from this one's
        counters: the conversation so far, without taking its steps again."""
        setup = replace(self.setup, history=())
        if self.setup.store == "sqlite":
            with closing(sqlite3.connect(self.path)) as source:
                with closing(sqlite3.connect(path)) as copy:
                    source.backup(copy)
        else:
            setup = replace(setup, history=tuple(to_items(await self.store.get_items())))
        branch = Driver(setup, path)
        branch.counters = self.counters
        return branch

    def close(self) -> None:
        with suppress(Exception):
            self.store.close()

    async def __aenter__(self) -> Driver:
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Close the store and the wiring (its HTTP client)."""
        self.close()
        if self.wiring.close is not None:
            with suppress(Exception):
                await self.wiring.close()

    async def transcript(self, steps: Sequence[Step]) -> Transcript:
        """Take the steps and say what the whole conversation did."""
        turns = await self.take(steps)
        dispatches = len(self.dispatches.approved)
        return Transcript(sdk_version(), self.wiring.name, turns, self.state_text(), dispatches)


def _request(
    setup: Setup,
    path: Path,
    state: str,
    steps: Sequence[Step],
    counters: list[int] | None,
    kept: str = "",
) -> dict[str, Any]:
    """What a worker is sent (``worker``): the setup, the store's path, the paused state, the
    state kept aside, the counters its ids go on from (None: from the start), and the steps."""
    steps_json = [step_json(step) for step in steps]
    return {"setup": setup.to_json(), "path": str(path), "state": state, "steps": steps_json} | {
        "counters": counters,
        "kept": kept,
    }


async def take_branches(
    setup: Setup,
    rest: Sequence[Step],
    positions: int,
    folder: Path,
    progress: Progress | None = None,
) -> list[Transcript]:
    """The trunk, ``positions`` plain turns (``Continue(1)`` each) on one session; at each
    position 0 to ``positions`` a ``fork`` of the store takes ``rest``: the same conversations as
    ``Continue(p)`` then ``rest`` from the start for each ``p``, at a cost linear in
    ``positions``. A plain turn that fails stops them all (there is no conversation left to
    branch from). Each position done is a step on ``progress``, when given."""
    transcripts = []
    async with Driver(setup, folder / "trunk.db") as trunk:
        await trunk.take([])  # the setup's history, into the trunk's store
        for p in range(positions + 1):
            if p:
                turn = (await trunk.take([Continue(1, stage=None)]))[-1]
                if turn.error:
                    raise RuntimeError(f"the plain turn {p} failed: {turn.error}")
            path = folder / f"branch-{p}.db"
            async with await trunk.fork(path) as branch:
                transcripts.append(await branch.transcript(rest))
            path.unlink(missing_ok=True)
            if progress is not None:
                progress.step()
    return transcripts


def branches(
    setup: Setup,
    rest: Sequence[Step],
    positions: int,
    *,
    worker: Any = None,
    progress: Progress | None = None,
) -> list[Transcript]:
    """``take_branches`` here, or in ``worker``'s interpreter (a release's own) when given
    (``progress`` counts the positions here; from a worker they come back all at once)."""
    if worker is not None:
        request = {"setup": setup.to_json(), "positions": positions}
        answer = worker.ask(request | {"branches": [step_json(step) for step in rest]})
        if progress is not None:
            progress.step(positions + 1)
        return [Transcript.from_json(t) for t in answer["transcripts"]]
    with tempfile.TemporaryDirectory(
        prefix="approval-compaction-branches-", dir=paths.scratch()
    ) as folder:
        return run_sync(take_branches(setup, rest, positions, Path(folder), progress))


def converse(
    setup: Setup,
    steps: Sequence[Step],
    path: Path | None = None,
    *,
    state: str = "",
    worker: Any = None,
) -> Transcript:
    """Run a whole conversation on the store file ``path`` (a new one when None), here, or in
    ``worker``'s interpreter (a release's own, say) when one is given."""

    async def run(store: Path) -> Transcript:
        async with Driver(setup, store, state=state) as driver:
            return await driver.transcript(steps)

    with tempfile.TemporaryDirectory(prefix="approval-compaction-", dir=paths.scratch()) as folder:
        store = path or Path(folder) / "history.db"
        if worker is None:
            return run_sync(run(store))
        answer = worker.ask(_request(setup, store, state, steps, None))
        return Transcript.from_json(answer["transcript"])
