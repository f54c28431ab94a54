"""Check: whether and when the bug strikes a configuration, computed from runs on the installed SDK.

A configuration is a compaction mode (``auto``, the SDK's default, ``input`` or
``previous_response_id``) and a trigger: the SDK's default hook (``default``: no
``should_trigger_compaction`` at all), ``always``, ``never``, or ``N`` (compact at N candidate
items, the default hook's rule with another threshold). For each pause position, that is each
number of plain question-and-answer turns stored before the turn that pauses for approval,
one run goes through the study's turns on a real ``SQLiteSession`` wrapped by
``OpenAIResponsesCompactionSession``: the pause, the ``RunState`` JSON round trip, the decision,
the resume and a next question. Each run records the history at the pause, whether compaction
ran at the pause, the verdict on the stored history after the resume (``verdict``), and whether
the next turn's model input carries an output without its call (the Responses API rejects it).
The ``default`` trigger is the SDK's own ``default_should_trigger_compaction``, wrapped only to
note how many candidate items it was shown at the pause.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from ..analysis.pairing import find_unpaired
from ..errors import InvestigationError
from ..study import state as state_io
from ..study.compaction import CompactionClient
from ..study.harness import PENDING_CALL_ID, SDK_LOGGERS, TOOL_NAME, build_agent, run_sync
from ..study.items import to_items
from ..study.model import ScriptedModel, assistant_message, function_call
from .verdict import judge

MODES: tuple[str, ...] = ("auto", "input", "previous_response_id")
DECISIONS: tuple[str, ...] = ("approve", "reject")
DEFAULT_TURNS = 24
REJECTED = "rejected"
ACCEPTED = "accepted"
Hook = Callable[[dict[str, Any]], bool] | None


class CheckError(InvestigationError):
    """A configuration that cannot be checked: an unknown mode, trigger or decision."""


@dataclass(frozen=True)
class Config:
    """What a team runs: the compaction mode, the trigger and the human's decision."""

    mode: str = "auto"
    trigger: str = "default"
    decision: str = "approve"

    def hook(self) -> Hook:
        """The ``should_trigger_compaction`` the configuration passes (None: the SDK's own)."""
        if self.trigger == "default":
            return None
        if self.trigger in ("always", "never"):
            answer = self.trigger == "always"
            return lambda _: answer
        threshold = int(self.trigger)
        return lambda context: len(context["compaction_candidate_items"]) >= threshold

    def describe(self) -> str:
        trigger = {
            "default": "the SDK's default trigger",
            "always": "a trigger that always compacts",
            "never": "a trigger that never compacts",
        }.get(self.trigger, f"a trigger at {self.trigger} candidate items")
        return f"compaction_mode={self.mode!r}, {trigger}, {self.decision}"


def check_config(mode: str = "auto", trigger: str = "default", decision: str = "approve") -> Config:
    """A checked configuration, or a one-line ``CheckError``."""
    if mode not in MODES:
        raise CheckError(f"unknown compaction mode {mode!r}: one of {', '.join(MODES)}")
    if decision not in DECISIONS:
        raise CheckError(f"unknown decision {decision!r}: approve or reject")
    if trigger not in ("default", "always", "never") and not (
        trigger.isdigit() and int(trigger) > 0
    ):
        raise CheckError(f"unknown trigger {trigger!r}: default, always, never or a number")
    return Config(mode, trigger, decision)


@dataclass(frozen=True)
class CheckRow:
    """One pause position on one configuration, as the run went."""

    prior_turns: int
    items_at_pause: int
    candidates_at_pause: int
    compacted_at_pause: bool
    pending_call_stored: bool
    stored_after_resume: str
    next_turn: str


def default_threshold() -> int:
    """The SDK's default trigger threshold, read from the installed SDK."""
    from agents.memory import openai_responses_compaction_session as module

    return int(getattr(module, "DEFAULT_COMPACTION_THRESHOLD", 0))


class _CountingHook:
    """The configuration's trigger (the SDK's own default function for ``default``), noting
    how many candidate items the SDK showed it each time it was asked."""

    def __init__(self, decide: Callable[[dict[str, Any]], bool]) -> None:
        self.decide, self.seen = decide, [0]

    def __call__(self, context: dict[str, Any]) -> bool:
        self.seen.append(len(context["compaction_candidate_items"]))
        return self.decide(context)


def _script(prior: int) -> ScriptedModel:
    steps = [[assistant_message(f"answer {i}", item_id=f"msg-{i}")] for i in range(prior)]
    steps.append([function_call(TOOL_NAME, {"value": "v"}, call_id=PENDING_CALL_ID)])
    steps.append([assistant_message("finished", item_id="msg-finished")])
    steps.append([assistant_message("next answer", item_id="msg-next")])
    return ScriptedModel(steps=steps)


async def run_position(cfg: Config, prior: int) -> CheckRow:
    """One run: ``prior`` plain turns, a pause, the JSON round trip, the resume, a next turn."""
    from agents import RunConfig, Runner, SQLiteSession
    from agents.memory import OpenAIResponsesCompactionSession
    from agents.memory.openai_responses_compaction_session import (
        default_should_trigger_compaction,
    )

    model, client = _script(prior), CompactionClient()
    hook = _CountingHook(cfg.hook() or default_should_trigger_compaction)
    agent = build_agent(model, [])
    run_config = RunConfig(tracing_disabled=True)
    with tempfile.TemporaryDirectory(prefix="approval-compaction-check-") as folder:
        store = SQLiteSession("check", str(Path(folder) / "history.db"))
        session = OpenAIResponsesCompactionSession(
            "check",
            store,
            client=client,  # type: ignore[arg-type]  # duck-typed stand-in for AsyncOpenAI
            compaction_mode=cfg.mode,  # type: ignore[arg-type]  # checked by ``config``
            should_trigger_compaction=hook,
        )
        try:
            for index in range(prior):
                await Runner.run(agent, f"question {index}", session=session, run_config=run_config)
            before, asked = client.calls, len(hook.seen)
            first = await Runner.run(agent, "protected question", session=session,
                                     run_config=run_config)  # fmt: skip
            if not first.interruptions:
                raise RuntimeError("the pausing turn did not pause for approval")
            at_pause = to_items(await session.get_items())
            compacted = client.calls > before
            candidates = max(hook.seen[asked:], default=0)
            state = await state_io.restore(agent, state_io.to_text(first.to_state()))
            for interruption in state.get_interruptions():
                (state.approve if cfg.decision == "approve" else state.reject)(interruption)
            await Runner.run(agent, state, session=session, run_config=run_config)
            after_resume = to_items(await session.get_items())
            sent_before = len(model.requests)
            await Runner.run(agent, "next question", session=session, run_config=run_config)
            next_input = [item for request in model.requests[sent_before:] for item in request]
        finally:
            store.close()
    orphans = [u for u in find_unpaired(next_input) if u.problem == "orphan output"]
    return CheckRow(
        prior_turns=prior,
        items_at_pause=len(at_pause),
        candidates_at_pause=candidates,
        compacted_at_pause=compacted,
        pending_call_stored=any(item.get("call_id") == PENDING_CALL_ID for item in at_pause),
        stored_after_resume=judge("check", after_resume).verdict,
        next_turn=REJECTED if orphans else ACCEPTED,
    )


async def run_check_async(cfg: Config, turns: int = DEFAULT_TURNS) -> list[CheckRow]:
    """The runs, with the SDK's warnings (skipped compactions) kept off the terminal."""
    quiet = logging.NullHandler()
    loggers = [logging.getLogger(name) for name in SDK_LOGGERS]
    for logger in loggers:
        logger.addHandler(quiet)
    try:
        return [await run_position(cfg, prior) for prior in range(turns + 1)]
    finally:
        for logger in loggers:
            logger.removeHandler(quiet)


def run_check(cfg: Config, turns: int = DEFAULT_TURNS) -> list[CheckRow]:
    """One row per pause position from 0 to ``turns`` prior turns."""
    return run_sync(run_check_async(cfg, turns))


Answer = Literal["affected", "not affected"]


def verdict(rows: Sequence[CheckRow]) -> Answer:
    return "affected" if any(r.next_turn == REJECTED for r in rows) else "not affected"


def check_answer(cfg: Config, rows: Sequence[CheckRow], sdk: str) -> str:
    """The answer in one sentence, from the rows."""
    struck = [r for r in rows if r.next_turn == REJECTED]
    where = f"{len(rows)} pause positions (0 to {rows[-1].prior_turns} prior turns)" if rows else ""
    head = f"openai-agents {sdk}, {cfg.describe()}: "
    if not struck:
        return head + f"not affected at any of {where}."
    positions = ", ".join(str(r.prior_turns) for r in struck)
    compacted = sum(1 for r in struck if r.compacted_at_pause)
    return (
        head
        + f"affected at {len(struck)} of {where}: after {positions} prior turns; "
        + f"compaction ran at the pause in {compacted} of them, and the next turn sends "
        + "the decision's output without its call."
    )


def check_json(cfg: Config, rows: Sequence[CheckRow], release: str) -> dict[str, Any]:
    """A check as written to a data file: the release, the configuration, rows and answer."""
    return {
        "release": release,
        "config": asdict(cfg),
        "rows": [asdict(r) for r in rows],
        "answer": check_answer(cfg, rows, release),
    }


def from_json(data: dict[str, Any]) -> tuple[str, Config, list[CheckRow]]:
    """A check read back from ``check_json``."""
    return data["release"], Config(**data["config"]), [CheckRow(**r) for r in data["rows"]]


def main(argv: Sequence[str] | None = None) -> int:
    """Run a check on the installed release and write it as JSON (a release's probe)."""
    import argparse
    import json

    from ..study.capture import sdk_version

    parser = argparse.ArgumentParser(prog="approval_compaction.doctor.check", description=__doc__)
    parser.add_argument("--mode", default="auto")
    parser.add_argument("--trigger", default="default")
    parser.add_argument("--decision", default="approve")
    parser.add_argument("--turns", type=int, default=DEFAULT_TURNS)
    parser.add_argument("--output", required=True)
    args = parser.parse_args(argv)
    cfg = check_config(args.mode, args.trigger, args.decision)
    rows = run_check(cfg, args.turns)
    Path(args.output).write_text(json.dumps(check_json(cfg, rows, sdk_version())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def load_check(path: Path) -> tuple[str, Config, list[CheckRow]]:
    """A check written by ``check_json`` (``doctor data``): release, configuration, rows."""
    import json

    from ..formats.records import RecordsError

    try:
        return from_json(json.loads(path.read_text()))
    except FileNotFoundError:
        raise RecordsError(f"{path} does not exist: run `make doctor-data`") from None
    except (ValueError, KeyError, TypeError) as error:
        raise RecordsError(f"{path} is not a doctor check: {error}") from None
