"""Driver: one live conversation, taken step by step through the SDK's public API.

The session is the study's own: a real ``SQLiteSession`` file wrapped by the harness's
``OpenAIResponsesCompactionSession`` (``compaction_session``), whose mode is the conversation's
and whose hook answers what the current step says; ``--fix`` wraps it with the workaround. The
agent is the study's (``build_agent``: the protected function tool) with one tool per other
available kind and an input guardrail that trips on the steps that ask it to. The model is the
study's scripted model, planned per step: the step's tool calls first, then plain answers.

After every step the record keeps the stored history, each model input and each compaction
input the step sent, and judges the invariants' rules on them (``analysis.invariants``, applied
to the step as the stage it plays: an ``ask`` is a next turn, a ``decide`` a resume).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from agents import Agent, GuardrailFunctionOutput, InputGuardrail, RunConfig, Runner

from ..analysis.invariants import INVARIANTS, evaluate
from ..study import state as state_io
from ..study.capture import CaseRun, Stage, StageName, sdk_version
from ..study.compaction import CompactionClient
from ..study.harness import SDK_LOGGERS, build_agent, compaction_session, sqlite_store
from ..study.items import Item, to_item, to_items
from ..study.model import ScriptedModel, assistant_message
from ..study.scenario import Case
from .conversation import Judgement, Step, StepRecord
from .kinds import HOSTED_KINDS, call_id, call_item, extra_tools, kind_of

SESSION_ID = "case-session"
ROLE_SKIPS = {  # invariants that do not apply to the stage a step plays
    "ask": ("resumed_input_paired",),
    "decide": ("next_turn_input_paired", "next_turn_accepted"),
}


@dataclass
class PlannedModel(ScriptedModel):
    """The scripted model, planned step by step: planned replies first, then plain answers."""

    plan: list[list[Any]] | None = None

    def _next_output(self, input: str | list[Any]) -> list[Any]:
        if self.capture:
            self.requests.append(to_items(input))
        self.calls += 1
        if self.plan:
            return list(self.plan.pop(0))
        return [assistant_message(f"answer {self.calls}", item_id=f"msg-{self.calls}")]


class _Log(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.name}: {record.getMessage()}")


@contextmanager
def _sdk_warnings(log: _Log) -> Iterator[None]:
    loggers = [logging.getLogger(name) for name in SDK_LOGGERS]
    for logger in loggers:
        logger.addHandler(log)
    try:
        yield
    finally:
        for logger in loggers:
            logger.removeHandler(log)


def key_of(item: Item) -> str:
    """The id a pending item is decided by: its ``call_id``, or a hosted request's ``id``."""
    return str(item.get("call_id") or item.get("id") or "?")


_TRIP: list[bool] = [False]  # whether the guardrail trips on the current step
_TOOLKITS: dict[tuple[str, ...], tuple[list[str], list[str], Agent[Any]]] = {}


def _toolkit(kinds: tuple[str, ...], model: Any) -> tuple[list[str], list[str], Agent[Any]]:
    """The agent for these kinds, built once per process (making tools costs more than a
    step), with its dispatch logs; each conversation clears the logs and sets its model.
    Conversations in one process run one at a time, so they can share them."""
    if kinds not in _TOOLKITS:
        dispatched: list[str] = []
        plain: list[str] = []
        base = build_agent(model, dispatched)
        extra = extra_tools(kinds, dispatched.append, plain.append)

        def trips(context: Any, agent: Any, value: Any) -> GuardrailFunctionOutput:
            return GuardrailFunctionOutput(output_info=None, tripwire_triggered=_TRIP[0])

        guardrail = InputGuardrail(guardrail_function=trips, name="synthetic_tripwire")
        agent = base.clone(tools=[*base.tools, *extra], input_guardrails=[guardrail])
        _TOOLKITS[kinds] = (dispatched, plain, agent)
    dispatched, plain, agent = _TOOLKITS[kinds]
    return dispatched, plain, agent.clone(model=model)


def scratch_folder() -> str | None:
    """Where conversations keep their SQLite files: memory-backed ``/dev/shm`` when there is
    one (the store's many small writes dominate a step on disk), else the default."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None


class Live:
    """A session, agent and model for one conversation; ``take`` runs one step."""

    def __init__(
        self, mode: str, fix: bool, kinds: tuple[str, ...], folder: Path, offsets: tuple[int, int]
    ) -> None:
        self.mode, self.fix, self.kinds, self.folder = mode, fix, kinds, folder
        self.model = PlannedModel(steps=[], plan=[])
        self.model.calls = offsets[0]
        self.client = CompactionClient()
        self.client.calls = offsets[1]
        self.dispatched, self.plain, self.agent = _toolkit(kinds, self.model)
        self.dispatched.clear()
        self.plain.clear()
        self.compact = False
        self.pending: Any = None  # the paused RunState, until decided or abandoned
        self.log = _Log()
        self.store: Any = None
        self.session: Any = None
        self.open_session()

    def open_session(self) -> None:
        """(Re)open the store and the session under study, as a new request handler would."""
        if self.store is not None:
            self.store.close()
        self.store = sqlite_store(self.folder)
        session: Any = compaction_session(SESSION_ID, self.store, self.client, False)
        session.compaction_mode = self.mode  # the harness builds input mode; explored here
        session.should_trigger_compaction = lambda _context: self.compact
        if self.fix:
            from ..fix.workaround import defer_compaction_while_pending

            session = defer_compaction_while_pending(session)
        self.session = session

    def close(self) -> None:
        if self.store is not None:
            self.store.close()

    async def _drive(self, step: Step, value: Any, max_turns: int | None = None) -> Any:
        options: dict[str, Any] = {"session": self.session}
        options["run_config"] = RunConfig(tracing_disabled=True)
        if max_turns is not None:
            options["max_turns"] = max_turns
        if step.runner == "run":
            return await Runner.run(self.agent, value, **options)
        result = Runner.run_streamed(self.agent, value, **options)
        async for _ in result.stream_events():
            pass
        return result

    async def ask(self, index: int, step: Step) -> tuple[str, list[Item]]:
        """A new question (an open approval is left undecided); returns outcome, interruptions."""
        self.pending = None
        reply = [call_item(kind, call_id(kind, index, n)) for n, kind in enumerate(step.calls)]
        self.model.plan = [reply] if reply else []
        _TRIP[0] = step.ending == "guardrail"
        limit = 1 if step.ending == "max_turns" else None
        try:
            result = await self._drive(step, f"question {index}", limit)
        except Exception as error:  # a guardrail, max_turns, or a release's own failure
            return f"error: {type(error).__name__}", []
        finally:
            _TRIP[0] = False
        return self._settle(result)

    def _settle(self, result: Any) -> tuple[str, list[Item]]:
        interruptions = to_items(i.raw_item for i in result.interruptions)
        self.pending = result.to_state() if interruptions else None
        return ("paused" if interruptions else "answered"), interruptions

    def decide(self, state: Any, step: Step) -> int:
        """Approve or reject every pending item as the step says; the local approvals."""
        approvals = 0
        for n, interruption in enumerate(state.get_interruptions()):
            approve = step.decision == "approve" or (step.decision == "mixed" and n == 0)
            (state.approve if approve else state.reject)(interruption)
            kind = kind_of(key_of(to_item(interruption.raw_item)))
            approvals += int(approve and kind not in HOSTED_KINDS)
        return approvals

    async def resume(self, step: Step, text: str | None) -> tuple[str, list[Item], int, str]:
        """Decide and resume; ``text`` is the state's JSON (None: the state in memory).

        Returns the outcome, new interruptions, local approvals and the boundary's JSON.
        """
        state = self.pending if text is None else await state_io.restore(self.agent, text)
        approvals = self.decide(state, step)
        try:
            result = await self._drive(step, state)
        except Exception as error:
            self.pending = None
            return f"error: {type(error).__name__}", [], approvals, ""
        outcome, interruptions = self._settle(result)
        return outcome, interruptions, approvals, ""


@dataclass(frozen=True)
class Marks:
    """How long each log was when a step began: the step owns what came after."""

    model: int
    compaction: int
    dispatched: int
    warnings: int


def marks(live: Live) -> Marks:
    return Marks(
        len(live.model.requests),
        len(live.client.requests),
        len(live.dispatched),
        len(live.log.messages),
    )


async def stage_since(live: Live, start: Marks, interruptions: list[Item]) -> Stage:
    """The step's payloads (what each log gained) and the stored history it left."""
    return Stage(
        name="resume",
        stored=to_items(await live.session.get_items()),
        model_inputs=live.model.requests[start.model :],
        compaction_inputs=live.client.requests[start.compaction :],
        dispatches=len(live.dispatched) - start.dispatched,
        interruptions=interruptions,
        warnings=live.log.messages[start.warnings :],
    )


def judge_step(stage: Stage, action: str, approvals: int) -> tuple[Judgement, ...]:
    """The invariants' own rules on one step, placed as the stage it plays in a case."""
    role: StageName = "next_turn" if action == "ask" else "resume"
    empty = [Stage(name="pause", stored=[]), Stage(name="round_trip", stored=[])]
    if role == "resume":
        stages = [*empty, replace(stage, name="resume"), Stage(name="next_turn", stored=[])]
    else:
        stages = [*empty, Stage(name="resume", stored=stage.stored), replace(stage, name=role)]
    run = CaseRun(Case(), sdk_version(), stages, approvals, stage.dispatches)
    skip = ROLE_SKIPS[action]
    return tuple(
        Judgement(v.invariant, v.holds, v.detail, tuple(sorted({o.key for o in v.offenders})))
        for v in evaluate(run)
        if v.invariant not in skip
    )


async def take(live: Live, index: int, step: Step, worker: Worker | None = None) -> StepRecord:
    """Run one step on the live conversation and judge it."""
    start = marks(live)
    live.compact = step.compact
    approvals = 0
    with _sdk_warnings(live.log):
        try:
            if step.action == "ask":
                outcome, interruptions = await live.ask(index, step)
            elif live.pending is None:  # a replayed decide whose pause did not happen here
                outcome, interruptions = "nothing pending", []
            elif step.boundary == "process" and worker is not None:
                outcome, interruptions, approvals = await _in_worker(live, index, step, worker)
            else:
                text = None if step.boundary == "memory" else state_io.to_text(live.pending)
                outcome, interruptions, approvals, _ = await live.resume(step, text)
        finally:
            live.compact = False
    stage = await stage_since(live, start, interruptions)
    pending = tuple(key_of(i) for i in interruptions)
    return StepRecord(
        index, step, outcome, pending, approvals, stage, judge_step(stage, step.action, approvals)
    )


# The process boundary: a worker that holds nothing between requests.


class Worker:
    """One worker process, reused across steps: each request builds a fresh session, agent and
    model from the store file and the state's JSON, decides, resumes, and reports back."""

    def __init__(self, python: str = sys.executable) -> None:
        self.python = python
        self.proc: subprocess.Popen[str] | None = None

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.proc is None or self.proc.poll() is not None:
            module = "approval_compaction.explore.driver"
            self.proc = subprocess.Popen(
                [self.python, "-m", module, "--worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the worker process ended without an answer")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        self.proc = None


async def _in_worker(
    live: Live, index: int, step: Step, worker: Worker
) -> tuple[str, list[Item], int]:
    request = {
        "mode": live.mode,
        "fix": live.fix,
        "kinds": list(live.kinds),
        "folder": str(live.folder),
        "offsets": [live.model.calls, live.client.calls],
        "step": step.to_json(),
        "state": state_io.to_text(live.pending),
    }
    live.close()  # the store is the worker's while it works
    answer = await asyncio.to_thread(worker.ask, request)
    live.model.calls, live.client.calls = answer["offsets"]
    live.model.requests.extend(answer["model_inputs"])
    live.client.requests.extend(answer["compaction_inputs"])
    live.dispatched.extend(answer["dispatched"])
    live.log.messages.extend(answer["warnings"])
    live.open_session()
    state = answer["state"]
    live.pending = await state_io.restore(live.agent, state) if state else None
    return answer["outcome"], answer["interruptions"], answer["approvals"]


async def serve_one(request: dict[str, Any]) -> dict[str, Any]:
    """Handle one worker request in a fresh Live (only the JSON and the store cross)."""
    kinds, offsets = tuple(request["kinds"]), tuple(request["offsets"])
    live = Live(request["mode"], request["fix"], kinds, Path(request["folder"]), offsets)
    step = Step.from_json(request["step"])
    live.compact = step.compact
    try:
        with _sdk_warnings(live.log):
            outcome, interruptions, approvals, _ = await live.resume(step, request["state"])
        state = state_io.to_text(live.pending) if live.pending is not None else ""
    finally:
        live.close()
    return {
        "outcome": outcome,
        "interruptions": interruptions,
        "approvals": approvals,
        "state": state,
        "offsets": [live.model.calls, live.client.calls],
        "model_inputs": live.model.requests,
        "compaction_inputs": live.client.requests,
        "dispatched": live.dispatched,
        "warnings": live.log.messages,
    }


def serve() -> None:
    """The worker loop: one JSON request per line in, one JSON answer per line out."""
    for line in sys.stdin:
        answer = asyncio.run(serve_one(json.loads(line)))
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


def invariant_names() -> tuple[str, ...]:
    """Every invariant the analysis judges (``next_turn_accepted`` where it exists)."""
    return INVARIANTS


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        serve()
