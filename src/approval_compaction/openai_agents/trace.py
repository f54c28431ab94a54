"""Trace: run the report's case and record at which stage each catalogued function was called.

The case runs in a thread of its own under ``sys.settrace``: the tracer sees every Python call
in that thread, keeps those whose code object is a catalogued function's, and learns the stage
from the harness's stage hook (``run_case_async(on_stage=...)``), which names each stage
(``pause``, ``round_trip``, ``resume``, ``next_turn``) as it ends. Nothing in the SDK is
patched. Beside the calls, each stage keeps what the run itself recorded there: compaction
requests, warnings, what the user saw, and the stored history as one label per item.

Like ``lab.mechanism.source``, this needs only the SDK and the study, so the mechanism probe
runs it in any release; the record it returns (``Trace``) is the lab's.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable, Sequence
from types import CodeType, FrameType
from typing import Any

from ..lab.mechanism.catalogue import CATALOGUE, SESSION, Function
from ..lab.mechanism.source import code_of
from ..lab.mechanism.trace import REPORT_CASE, StageRecord, Trace, as_tuples
from ..study.capture import STAGES, CaseRun, Stage, StageName
from ..study.items import Item
from ..study.scenario import Case
from ..study.words import Model
from . import harness as _harness
from . import wiring as _wiring

AFTER = "after"  # calls after the last stage closed (the store's own teardown)


# The ownership gate (0.22.1 on): what a run's append expected and what the gate then saw. Each
# view reads the call's arguments as it starts: the generation the run read the history at (or
# holds on its context), and the session's own mutation generation.
APPEND = f"{SESSION}._add_items_with_generation"
GATE = f"{SESSION}._run_compaction"


def _generation(frame: FrameType) -> object:
    return getattr(frame.f_locals.get("self"), "_mutation_generation", "?")


def _append_view(frame: FrameType) -> str:
    expected = frame.f_locals.get("expected_generation")
    return f"append: run read at {expected}, session at {_generation(frame)}"


def _gate_view(frame: FrameType) -> str:
    wrapper = frame.f_locals.get("wrapper")
    held = getattr(wrapper, "_session_compaction_generation", "nothing")
    return f"gate: run holds {held}, session at {_generation(frame)}"


VIEWS: dict[str, Callable[[FrameType], str]] = {APPEND: _append_view, GATE: _gate_view}


def item_label(item: Item) -> str:
    """An item in a word or two: its type (or role), and the call it belongs to."""
    kind = str(item.get("type") or "message")
    if kind == "message" and item.get("role"):
        kind = f"{kind}:{item['role']}"
    call_id = item.get("call_id")
    return f"{kind}({call_id})" if call_id else kind


def stage_record(stage: Stage) -> StageRecord:
    return StageRecord(
        name=stage.name,
        compaction_requests=len(stage.compaction_inputs),
        warnings=tuple(stage.warnings),
        outcome=stage.outcome.text,
        stored=tuple(item_label(item) for item in stage.stored),
    )


class _Tracer:
    """A ``sys.settrace`` function: the stage each watched code object was called in."""

    def __init__(self, watched: dict[CodeType, str]) -> None:
        self.watched = watched
        self.stage: str = STAGES[0]
        self.calls: dict[str, list[str]] = {name: [] for name in watched.values()}
        self.callers: dict[str, dict[str, list[str]]] = {name: {} for name in watched.values()}
        self.generations: dict[str, list[str]] = {}
        # A coroutine's frame is "called" again each time it resumes: a view is taken at its
        # first call only (the frames are kept, so their ids stay theirs).
        self.viewed: dict[int, FrameType] = {}

    def ended(self, name: StageName) -> None:
        """The harness's stage hook: calls from here on belong to the next stage."""
        index = STAGES.index(name) + 1
        self.stage = STAGES[index] if index < len(STAGES) else AFTER

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        code = frame.f_code
        if code in self.watched:
            name = self.watched[code]
            if self.stage not in self.calls[name]:
                self.calls[name].append(self.stage)
            caller = frame.f_back.f_code.co_qualname if frame.f_back is not None else "?"
            callers = self.callers[name].setdefault(self.stage, [])
            if caller not in callers:
                callers.append(caller)
            if name in VIEWS and id(frame) not in self.viewed:
                self.viewed[id(frame)] = frame
                self.generations.setdefault(self.stage, []).append(VIEWS[name](frame))
        return None  # no line events: only calls are watched


def default_model() -> Model:
    """``responses`` (the SDK's own model over HTTP to the stand-in, so the run ends as a user's
    does) when the wire imports in this environment, else ``scripted``."""
    return "scripted" if _wiring.unavailable("responses") else "responses"


def trace_case(
    case: Case | None = None, model: Model | None = None, catalogue: Sequence[Function] = CATALOGUE
) -> Trace:
    """Run the case (the report's by default) and record where each catalogued function ran."""
    watched = {code: f.qualname for f in catalogue if (code := code_of(f)) is not None}
    tracer = _Tracer(watched)
    runs: list[CaseRun] = []

    def run() -> None:
        sys.settrace(tracer)
        try:
            coro = _harness.run_case_async(
                case or REPORT_CASE,
                backend=_wiring.BACKENDS[model or default_model()],
                on_stage=tracer.ended,
            )
            runs.append(asyncio.run(coro))
        finally:
            sys.settrace(None)

    worker = threading.Thread(target=run, name="mechanism-trace")
    worker.start()
    worker.join()
    if not runs:
        raise RuntimeError("the traced case did not finish")
    return Trace(
        model=runs[0].model,
        calls={f.qualname: tuple(tracer.calls.get(f.qualname, [])) for f in catalogue},
        callers={f.qualname: as_tuples(tracer.callers.get(f.qualname, {})) for f in catalogue},
        stages=tuple(stage_record(stage) for stage in runs[0].stages),
        generations=as_tuples(tracer.generations),
    )
