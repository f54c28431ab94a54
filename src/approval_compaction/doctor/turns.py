"""Turns: the study's three turns, each runnable on its own against a stored session file.

``pause`` runs the question that pauses for approval and returns the ``RunState`` JSON text;
``resume`` restores that text, decides and resumes; ``next_turn`` asks the next question. Each
builds its own agent, scripted model and compaction session around the same ``SQLiteSession``
file (the study's configuration: ``compaction_mode="input"``, a hook that compacts when asked to),
so each can run in another process, or on another release, than the one before it: a worker
that has only the state JSON and the store, or the newest release on a store an older one wrote.

``python -m approval_compaction.doctor.turns STEP --store FILE ...`` runs one step in a fresh
process and writes its ``TurnRecord`` as JSON; it imports only the study and the SDK, so a
release's own interpreter can run it with the project's source folder on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..study import state as state_io
from ..study.capture import sdk_version
from ..study.compaction import CompactionClient
from ..study.harness import (
    PENDING_CALL_ID,
    QUESTIONS,
    SDK_LOGGERS,
    TOOL_NAME,
    build_agent,
    compaction_session,
)
from ..study.items import Item, to_item, to_items
from ..study.model import ScriptedModel, assistant_message, function_call

SESSION_ID = "case-session"
MODULE = "approval_compaction.doctor.turns"


@dataclass(frozen=True)
class TurnRecord:
    """What one turn sent and stored, on which release."""

    release: str
    step: str
    model_input: list[Item]
    compaction_requests: int
    compaction_inputs: list[list[Item]]
    stored_after: list[Item]
    state: str = ""
    judged_by: str = "pairing check"
    http: list[dict[str, Any]] = field(default_factory=list)
    error: str = ""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnRecord:
        return cls(**data)


@dataclass
class _Wire:
    """The SDK's own Responses model and compaction call on the wire's API stand-in."""

    model: Any
    client: Any
    requests: list[list[Item]]
    exchanges: list[Any]


def _wire(steps: list[list[Any]]) -> _Wire | None:
    """The stand-in answering with ``steps``, or None where the wire cannot be imported."""
    try:
        from ..wire.app import build_app
        from ..wire.backend import MODEL, RecordingResponsesModel
        from ..wire.standin import StandIn
        from ..wire.transport import openai_client
    except ImportError:
        return None
    standin = StandIn(script=[[to_item(item) for item in step] for step in steps])
    exchanges: list[Any] = []
    client = openai_client(build_app(standin, exchanges.append))
    requests: list[list[Item]] = []
    return _Wire(RecordingResponsesModel(MODEL, client, requests), client, requests, exchanges)


async def _turn(
    store: Path,
    steps: list[list[Any]],
    value: Any,
    compact: bool,
    state: str | None = None,
    wire: bool = False,
) -> tuple[TurnRecord, Any]:
    """One turn; with ``state`` (RunState JSON text) it restores, approves and resumes.

    With ``wire`` the turn runs on the SDK's ``OpenAIResponsesModel`` against the wire's API
    stand-in, which answers an input it would reject with its HTTP 400; the error is recorded.
    """
    from agents import RunConfig, Runner, SQLiteSession

    scripted, client = ScriptedModel(steps=steps), CompactionClient()
    wired = _wire(steps) if wire else None
    model: Any = scripted if wired is None else wired.model
    compaction_client: Any = client if wired is None else wired.client
    agent = build_agent(model, [])
    sqlite = SQLiteSession(SESSION_ID, str(store))
    session = compaction_session(SESSION_ID, sqlite, compaction_client, compact)
    quiet = logging.NullHandler()
    for name in SDK_LOGGERS:
        logging.getLogger(name).addHandler(quiet)
    try:
        if state is not None:
            restored = await state_io.restore(agent, state)
            for interruption in restored.get_interruptions():
                restored.approve(interruption)
            value = restored
        error, result = "", None
        try:
            result = await Runner.run(agent, value, session=session,
                                      run_config=RunConfig(tracing_disabled=True))  # fmt: skip
        except Exception as exc:  # the stand-in's 400 is the finding, not a crash
            if wired is None:
                raise
            error = f"{type(exc).__name__}: {' '.join(str(exc).split())}"[:300]
        stored = to_items(await session.get_items())
    finally:
        for name in SDK_LOGGERS:
            logging.getLogger(name).removeHandler(quiet)
        sqlite.close()
    if wired is None:
        sent = [item for request in scripted.requests for item in request]
        record = TurnRecord(sdk_version(), "", sent, client.calls, client.requests, stored)
        return record, result
    await wired.client.close()
    http = [{"path": e.path, "status": e.status, "error": e.error} for e in wired.exchanges]
    compactions = [to_items(e.body.get("input")) for e in wired.exchanges
                   if e.path.endswith("/compact") and isinstance(e.body, dict)]  # fmt: skip
    sent = [item for request in wired.requests for item in request]
    record = TurnRecord(sdk_version(), "", sent, len(compactions), compactions, stored,
                        judged_by="API stand-in", http=http, error=error)  # fmt: skip
    return record, result


async def pause(store: Path, compact: bool = True) -> TurnRecord:
    """The question that pauses on the protected call; the record carries the state JSON."""
    steps = [[function_call(TOOL_NAME, {"value": "v"}, call_id=PENDING_CALL_ID)]]
    record, result = await _turn(store, steps, QUESTIONS[0], compact)
    if not result.interruptions:
        raise RuntimeError("the first turn did not pause for approval")
    text = state_io.to_text(result.to_state())
    return TurnRecord(**{**asdict(record), "step": "pause", "state": text})


async def resume(store: Path, state: str, compact: bool = True) -> TurnRecord:
    """Restore the state from its JSON text alone, approve, and resume on the store."""
    steps = [[assistant_message("finished", item_id="msg-finished")]]
    record, _ = await _turn(store, steps, None, compact, state)
    return TurnRecord(**{**asdict(record), "step": "resume"})


async def next_turn(store: Path, compact: bool = True, wire: bool = False) -> TurnRecord:
    """The next question on the stored session (with ``wire``, against the API stand-in)."""
    steps = [[assistant_message("next answer", item_id="msg-next")]]
    record, _ = await _turn(store, steps, QUESTIONS[1], compact, wire=wire)
    return TurnRecord(**{**asdict(record), "step": "next_turn"})


async def _main_async(args: argparse.Namespace) -> list[TurnRecord]:
    store, compact = Path(args.store), args.compaction == "on"
    records = []
    if args.step == "resume":
        records.append(await resume(store, Path(args.state).read_text(), compact))
    records.append(await next_turn(store, compact, args.wire))
    return records


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=MODULE, description=__doc__)
    parser.add_argument("step", choices=("resume", "next_turn"))
    parser.add_argument("--store", required=True, help="the SQLiteSession file")
    parser.add_argument("--state", help="RunState JSON text file (for resume)")
    parser.add_argument("--compaction", choices=("on", "off"), default="on")
    parser.add_argument("--wire", action="store_true", help="next turn on the API stand-in")
    parser.add_argument("--output", required=True, help="write the records here as JSON")
    args = parser.parse_args(argv)
    records = asyncio.run(_main_async(args))
    Path(args.output).write_text(json.dumps([asdict(r) for r in records]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
