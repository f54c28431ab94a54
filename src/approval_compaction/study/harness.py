"""Harness: run one case through the SDK's public API and capture every stage.

The agent has one ``needs_approval=True`` function tool. Its session is a real
``SQLiteSession`` file wrapped by ``OpenAIResponsesCompactionSession(compaction_mode="input")``
whose client is the recording stand-in. Three turns: a question that pauses on the approval,
the resume with the decision, and a next question.

The model and the compaction client come from a backend: ``scripted_backend`` (the default)
gives the scripted model and the recording compaction stand-in; ``approval_compaction.wire``
builds one on the SDK's ``OpenAIResponsesModel`` and a real ``AsyncOpenAI`` client that talks
HTTP to a local stand-in of the API. When a request fails with an HTTP status (say, the 400 a
user sees as ``openai.BadRequestError``), the stage records what the user saw and the case
stops there: that is a finding, not a failure of the harness.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import tempfile
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import openai
from agents import Agent, RunConfig, Runner, SQLiteSession, function_tool
from agents.memory import OpenAIResponsesCompactionSession

from . import state as state_io
from .capture import CaseRun, Outcome, Stage, StageName, sdk_version
from .compaction import CompactionClient
from .items import Item, to_item, to_items
from .model import ScriptedModel, assistant_message, function_call
from .scenario import Case, all_cases

T = TypeVar("T")
SessionWrapper = Callable[[Any], Any]
StageHook = Callable[[StageName], None]  # told each stage's name as the stage ends

TOOL_NAME = "protected_lookup"
PENDING_CALL_ID = "pending-c1"
QUESTIONS = ("first question", "next question")


def build_agent(model: Any, dispatched: list[str]) -> Agent[Any]:
    """The agent under study: one function tool that needs approval."""

    @function_tool(name_override=TOOL_NAME, needs_approval=True)
    def protected_lookup(value: str) -> str:
        """Return a synthetic value once a human has approved the call."""
        dispatched.append(value)
        return "synthetic:" + value

    return Agent(name="approval-agent", model=model, tools=[protected_lookup])


def scripted_model(capture: bool = True) -> ScriptedModel:
    return ScriptedModel(
        steps=[
            [function_call(TOOL_NAME, {"value": "v"}, call_id=PENDING_CALL_ID)],
            [assistant_message("finished", item_id="msg-finished")],
            [assistant_message("next answer", item_id="msg-next")],
        ],
        capture=capture,
    )


def sqlite_store(directory: Path) -> SQLiteSession:
    """The store under study: a real ``SQLiteSession`` file in the case's folder."""
    return SQLiteSession("case-session", str(directory / "history.db"))


def decide_by_case(case: Case, interruption: Any) -> bool:
    """Approve every pending call when the case says approve, reject every one otherwise."""
    return case.decision == "approve"


def compaction_session(
    session_id: str, store: Any, client: Any, compact: bool
) -> OpenAIResponsesCompactionSession:
    """The session under study: input-mode compaction whose hook always says ``compact``."""
    return OpenAIResponsesCompactionSession(
        session_id,
        store,
        client=client,  # the recording stand-in is duck-typed; the wire's is an AsyncOpenAI
        compaction_mode="input",
        should_trigger_compaction=lambda _: compact,
    )


@dataclass(frozen=True)
class Script:
    """What the model answers, which tools the agent has, which store the compaction session
    wraps, and how each pending approval is decided. The default is the study's own script;
    the workaround's edge cases vary it."""

    model: Callable[[bool], ScriptedModel] = scripted_model
    agent: Callable[[Any, list[str]], Agent[Any]] = build_agent
    store: Callable[[Path], Any] = sqlite_store
    decide: Callable[[Case, Any], bool] = decide_by_case


DEFAULT_SCRIPT = Script()


@dataclass
class Wiring:
    """One case's model and compaction client, and the live request logs the capture slices:
    what the runner handed the model interface, each compaction request's input, and (over
    HTTP only) each request as it went over the wire."""

    name: str
    model: Any
    compaction_client: Any
    model_inputs: list[list[Item]]
    compaction_inputs: list[list[Item]]
    http_requests: list[Item] = field(default_factory=list)
    close: Callable[[], Awaitable[None]] | None = None


Backend = Callable[[Script, bool], Wiring]


def scripted_backend(script: Script, capture: bool) -> Wiring:
    """The default backend: the script's model and the recording compaction stand-in."""
    model, client = script.model(capture), CompactionClient(capture)
    return Wiring("scripted", model, client, model.requests, client.requests)


SDK_LOGGERS = ("openai.agents", "openai-agents")


class _LogCollector(logging.Handler):
    """Keep the SDK's warnings for the record instead of printing them to stderr."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.name}: {record.getMessage()}")


class _Recorder:
    """Collect stages, slicing the shared request logs by what each stage added."""

    def __init__(
        self,
        session: Any,
        wiring: Wiring,
        dispatched: list[str],
        enabled: bool,
        on_stage: StageHook | None = None,
    ) -> None:
        self.session, self.wiring = session, wiring
        self.dispatched, self.enabled = dispatched, enabled
        self.on_stage = on_stage
        self.stages: list[Stage] = []
        self.log = _LogCollector()
        self._marks = (0, 0, 0, 0, 0)

    def _counts(self) -> tuple[int, int, int, int, int]:
        w = self.wiring
        return (
            len(w.model_inputs),
            len(w.compaction_inputs),
            len(w.http_requests),
            len(self.dispatched),
            len(self.log.messages),
        )

    async def close(self, name: StageName, **extra: Any) -> None:
        if self.on_stage is not None:
            self.on_stage(name)
        if not self.enabled:
            return
        m, c, h, d, w = self._marks
        self.stages.append(
            Stage(
                name=name,
                stored=to_items(await self.session.get_items()),
                model_inputs=self.wiring.model_inputs[m:],
                compaction_inputs=self.wiring.compaction_inputs[c:],
                dispatches=len(self.dispatched) - d,
                warnings=self.log.messages[w:],
                http_requests=self.wiring.http_requests[h:],
                **extra,
            )
        )
        self._marks = self._counts()

    async def stage(
        self,
        name: StageName,
        turn: Awaitable[T],
        extra: Callable[[T], dict[str, Any]] = lambda _: {},
    ) -> T:
        """Run one turn and close its stage; an HTTP error status ends the case here, with
        what the user saw (the exception's class and text) recorded on the stage."""
        try:
            result = await turn
        except openai.APIStatusError as error:
            outcome = Outcome.of(error, error.status_code)
            await self.close(name, outcome=outcome)
            raise _UserSawError(outcome.text) from error
        await self.close(name, **extra(result))
        return result


class _UserSawError(Exception):
    """A turn failed with an HTTP status: recorded on its stage, and the case ends there."""


async def _drive(agent: Agent[Any], case: Case, value: Any, session: Any) -> Any:
    config = RunConfig(tracing_disabled=True)
    if case.runner == "run":
        return await Runner.run(agent, value, session=session, run_config=config)
    result = Runner.run_streamed(agent, value, session=session, run_config=config)
    async for _ in result.stream_events():
        pass
    return result


async def run_case_async(
    case: Case,
    *,
    capture: bool = True,
    wrap_session: SessionWrapper | None = None,
    script: Script = DEFAULT_SCRIPT,
    backend: Backend = scripted_backend,
    on_stage: StageHook | None = None,
) -> CaseRun:
    """Run one case; a failure is recorded on the returned CaseRun rather than raised.

    ``on_stage`` is told each stage's name as the stage ends, before anything is read to record
    it (a tracer uses it to attribute the calls that follow to the next stage)."""
    wiring = backend(script, capture)
    dispatched: list[str] = []
    agent = script.agent(wiring.model, dispatched)
    approvals = 1 if case.decision == "approve" else 0
    decided: list[bool] = []
    with tempfile.TemporaryDirectory(prefix="approval-compaction-") as directory:
        store = script.store(Path(directory))
        compact = case.compaction == "on"
        session: Any = compaction_session("case-session", store, wiring.compaction_client, compact)
        if wrap_session is not None:
            session = wrap_session(session)
        recorder = _Recorder(session, wiring, dispatched, capture, on_stage)
        loggers = [logging.getLogger(name) for name in SDK_LOGGERS]
        for logger in loggers:
            logger.addHandler(recorder.log)
        try:
            await _turns(agent, case, session, recorder, script.decide, decided)
            error = None
        except _UserSawError:  # recorded on the stage where it happened
            error = None
        except Exception as exc:  # a failing case is a finding, not a crash of the matrix
            error = f"{type(exc).__name__}: {' '.join(str(exc).split())}"[:300]
        finally:
            for logger in loggers:
                logger.removeHandler(recorder.log)
            with suppress(Exception):
                store.close()
            if wiring.close is not None:
                with suppress(Exception):
                    await wiring.close()
    approvals = sum(decided) if decided else approvals
    return CaseRun(
        case, sdk_version(), recorder.stages, approvals, len(dispatched), error, model=wiring.name
    )


async def _turns(
    agent: Agent[Any],
    case: Case,
    session: Any,
    recorder: _Recorder,
    decide: Callable[[Case, Any], bool] = decide_by_case,
    decided: list[bool] | None = None,
) -> None:
    first = await recorder.stage(
        "pause",
        _drive(agent, case, QUESTIONS[0], session),
        lambda result: {"interruptions": to_items(i.raw_item for i in result.interruptions)},
    )
    if not first.interruptions:
        raise RuntimeError("the first turn did not pause for approval")
    state = first.to_state()
    items: dict[str, Any] = {}
    if case.state_boundary == "json":
        text = state_io.to_text(state)
        items = state_io.state_items(text) if recorder.enabled else {}
        state = await state_io.restore(agent, text)
    await recorder.close("round_trip", state_items=items)
    for interruption in state.get_interruptions():
        approve = decide(case, interruption)
        (state.approve if approve else state.reject)(interruption)
        if decided is not None:  # an approved function call is one the tool should run
            decided.append(
                approve and to_item(interruption.raw_item).get("type") == "function_call"
            )
    await recorder.stage("resume", _drive(agent, case, state, session))
    await recorder.stage("next_turn", _drive(agent, case, QUESTIONS[1], session))


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to completion, also from inside a running loop (a notebook)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def run_case(
    case: Case,
    *,
    capture: bool = True,
    wrap_session: SessionWrapper | None = None,
    script: Script = DEFAULT_SCRIPT,
    backend: Backend = scripted_backend,
) -> CaseRun:
    """Run one case synchronously (see ``run_case_async``)."""
    return run_sync(
        run_case_async(
            case, capture=capture, wrap_session=wrap_session, script=script, backend=backend
        )
    )


def run_matrix(
    cases: Sequence[Case] | None = None,
    *,
    wrap_session: SessionWrapper | None = None,
    backend: Backend = scripted_backend,
) -> list[CaseRun]:
    """Run the given cases (all sixteen by default) on the installed SDK."""
    chosen = all_cases() if cases is None else cases
    return [run_case(case, wrap_session=wrap_session, backend=backend) for case in chosen]
