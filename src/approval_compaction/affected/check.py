"""Check: whether and when the bug strikes a configuration, computed from runs on the installed SDK.

A configuration is a compaction mode (``auto``, the SDK's default, ``input`` or
``previous_response_id``) and a trigger: the SDK's default hook (``default``: the SDK's own
``default_should_trigger_compaction``), ``always``, ``never``, or ``N`` (compact at N candidate
items, the default hook's rule with another threshold). For each pause position, that is each
number of plain question-and-answer turns stored before the turn that pauses for approval, one
conversation goes through the study's driver on a real ``SQLiteSession`` wrapped by
``OpenAIResponsesCompactionSession``: the plain turns, the pause, the ``RunState`` JSON round
trip, the decision, the resume and a next question. Each run records the history at the pause,
whether compaction ran at the pause and how many candidate items its hook was shown, what the
user's ``Runner.run`` at the pause met (``paused``, or the API's refusal of the compaction
request: then no state comes back, nothing can be approved or rejected, and the user can only
ask the next question), the verdict on the stored history after the resume (``verdict``; ``not
run`` without one), and whether the next turn's model input carries an output without its call
(the Responses API rejects it). With a ``worker`` started with another release's interpreter,
the conversations run on that release.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, cast

from ..analysis.pairing import orphan_outputs
from ..doctor.verdict import judge
from ..errors import InvestigationError
from ..formats.records import RecordsError, read_json
from ..study.driver import (
    Ask,
    Continue,
    Cross,
    Decide,
    Resume,
    Setup,
    Step,
    Transcript,
    Trigger,
    converse,
)
from ..study.harness import FINISHED, NEXT_ANSWER, PENDING_CALL, PENDING_CALL_ID
from ..study.words import DECISIONS, MODES, Decision, Mode
from ..study.worker import Worker

DEFAULT_TURNS = 24
REJECTED = "rejected"
ACCEPTED = "accepted"
PAUSED = "paused"
NOT_RUN = "not run"
TRIGGERS = ("default", "always", "never")


class CheckError(InvestigationError):
    """A configuration that cannot be checked: an unknown mode, trigger or decision."""


@dataclass(frozen=True)
class Config:
    """What a team runs: the compaction mode, the trigger and the human's decision."""

    mode: Mode = "auto"
    trigger: str = "default"
    decision: Decision = "approve"

    def hook(self) -> Trigger:
        """The trigger as the driver takes it: a name, or a number of candidate items."""
        return int(self.trigger) if self.trigger.isdigit() else cast(Trigger, self.trigger)

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
    if trigger not in TRIGGERS and not (trigger.isdigit() and int(trigger) > 0):
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
    at_pause: str  # ``paused``, or the API's refusal: ``HTTP 400: No tool output found ...``
    stored_after_resume: str
    next_turn: str

    @property
    def affected(self) -> bool:
        """The user meets the bug here: the pause raised, or the next turn is rejected."""
        return self.at_pause != PAUSED or self.next_turn == REJECTED


def position(cfg: Config, prior: int) -> list[Step]:
    """``prior`` plain turns, a pause, the JSON round trip, the decision, the resume, a next one."""
    return [
        Continue(prior),
        Ask("protected question", (PENDING_CALL,), stage="pause"),
        Cross("json"),
        Decide(cfg.decision),
        Resume((FINISHED,)),
        Ask("next question", (NEXT_ANSWER,)),
    ]


def row(prior: int, transcript: Transcript) -> CheckRow:
    """One pause position's row, from its conversation."""
    failed = next((t.error for t in transcript.turns if t.error and t.http_status is None), "")
    if failed:
        raise RuntimeError(f"the check's run after {prior} prior turns failed: {failed}")
    pause = next(turn for turn in transcript.turns if turn.stage and turn.stage.name == "pause")
    seen = transcript.stage("pause").outcome
    if seen.ok and not pause.interruptions:
        raise RuntimeError("the pausing turn did not pause for approval")
    at_pause = transcript.stage("pause").stored
    sent = [item for request in transcript.stage("next_turn").model_inputs for item in request]
    resumed = [t.stage for t in transcript.turns if t.stage and t.stage.name == "resume"]
    resume = resumed[-1] if resumed and pause.interruptions else None
    return CheckRow(
        prior_turns=prior,
        items_at_pause=len(at_pause),
        candidates_at_pause=max(pause.hook, default=0),
        compacted_at_pause=bool(transcript.stage("pause").compaction_inputs),
        pending_call_stored=any(item.get("call_id") == PENDING_CALL_ID for item in at_pause),
        at_pause=PAUSED if seen.ok else f"HTTP {seen.http_status}: {seen.api_message}",
        stored_after_resume=judge("check", resume.stored).verdict if resume else NOT_RUN,
        next_turn=REJECTED if orphan_outputs(sent) else ACCEPTED,
    )


def check_release(
    cfg: Config, turns: int = DEFAULT_TURNS, worker: Worker | None = None
) -> tuple[str, list[CheckRow]]:
    """The release the conversations ran on, and one row per pause position 0 to ``turns``."""
    setup = Setup(cfg.mode, cfg.hook(), go_on=True)
    runs = [(p, converse(setup, position(cfg, p), worker=worker)) for p in range(turns + 1)]
    release = runs[0][1].sdk_version
    return release, [row(prior, transcript) for prior, transcript in runs]


def run_check(cfg: Config, turns: int = DEFAULT_TURNS) -> list[CheckRow]:
    """One row per pause position from 0 to ``turns`` prior turns, on the installed SDK."""
    return check_release(cfg, turns)[1]


def check_answer(cfg: Config, rows: Sequence[CheckRow], sdk: str) -> str:
    """The answer in one sentence, from the rows."""
    struck = [r for r in rows if r.affected]
    where = f"{len(rows)} pause positions (0 to {rows[-1].prior_turns} prior turns)" if rows else ""
    head = f"openai-agents {sdk}, {cfg.describe()}: "
    if not struck:
        return head + f"not affected at any of {where}."
    positions = ", ".join(str(r.prior_turns) for r in struck)
    compacted = sum(1 for r in struck if r.compacted_at_pause)
    parts = [f"compaction ran at the pause in {compacted} of them"]
    refused = [r for r in struck if r.at_pause != PAUSED]
    if refused:
        said = "; ".join(sorted({r.at_pause for r in refused}))
        parts.append(
            f"in {len(refused)} the user's `Runner.run` at the pause raises "
            f"`openai.BadRequestError` ({said}) and returns no state to approve or reject"
        )
    orphaned = sum(1 for r in struck if r.next_turn == REJECTED)
    if orphaned:
        parts.append(f"in {orphaned} the next turn sends the decision's output without its call")
    said = "; ".join(parts)
    return head + f"affected at {len(struck)} of {where}: after {positions} prior turns; {said}."


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


def load_check(path: Path) -> tuple[str, Config, list[CheckRow]]:
    """A check written by ``check_json`` (``doctor data``): release, configuration, rows."""
    try:
        return read_json(path, from_json)
    except RecordsError as error:
        raise RecordsError(f"{error}: run `make doctor-data`") from None
