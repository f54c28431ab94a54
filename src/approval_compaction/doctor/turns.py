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
from dataclasses import asdict, dataclass
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
from ..study.items import Item, to_items
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

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnRecord:
        return cls(**data)


async def _turn(
    store: Path, steps: list[list[Any]], value: Any, compact: bool, state: str | None = None
) -> tuple[TurnRecord, Any]:
    """One turn; with ``state`` (RunState JSON text) it restores, approves and resumes."""
    from agents import RunConfig, Runner, SQLiteSession

    model, client = ScriptedModel(steps=steps), CompactionClient()
    agent = build_agent(model, [])
    sqlite = SQLiteSession(SESSION_ID, str(store))
    session = compaction_session(SESSION_ID, sqlite, client, compact)
    quiet = logging.NullHandler()
    for name in SDK_LOGGERS:
        logging.getLogger(name).addHandler(quiet)
    try:
        if state is not None:
            restored = await state_io.restore(agent, state)
            for interruption in restored.get_interruptions():
                restored.approve(interruption)
            value = restored
        result = await Runner.run(agent, value, session=session,
                                  run_config=RunConfig(tracing_disabled=True))  # fmt: skip
        stored = to_items(await session.get_items())
    finally:
        for name in SDK_LOGGERS:
            logging.getLogger(name).removeHandler(quiet)
        sqlite.close()
    sent = [item for request in model.requests for item in request]
    record = TurnRecord(sdk_version(), "", sent, client.calls, client.requests, stored)
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


async def next_turn(store: Path, compact: bool = True) -> TurnRecord:
    """The next question on the stored session."""
    steps = [[assistant_message("next answer", item_id="msg-next")]]
    record, _ = await _turn(store, steps, QUESTIONS[1], compact)
    return TurnRecord(**{**asdict(record), "step": "next_turn"})


async def _main_async(args: argparse.Namespace) -> list[TurnRecord]:
    store, compact = Path(args.store), args.compaction == "on"
    records = []
    if args.step == "resume":
        records.append(await resume(store, Path(args.state).read_text(), compact))
    records.append(await next_turn(store, compact))
    return records


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=MODULE, description=__doc__)
    parser.add_argument("step", choices=("resume", "next_turn"))
    parser.add_argument("--store", required=True, help="the SQLiteSession file")
    parser.add_argument("--state", help="RunState JSON text file (for resume)")
    parser.add_argument("--compaction", choices=("on", "off"), default="on")
    parser.add_argument("--output", required=True, help="write the records here as JSON")
    args = parser.parse_args(argv)
    records = asyncio.run(_main_async(args))
    Path(args.output).write_text(json.dumps([asdict(r) for r in records]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
