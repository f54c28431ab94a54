"""Check: whether and when the bug strikes a configuration, computed from runs on the installed SDK.

A configuration (``Config``) is a compaction mode, the agent's ``ModelSettings(store=...)``,
the tool that pauses for approval (``function`` or a hosted ``mcp`` server) and a trigger (the
SDK's ``default`` hook, ``always``, ``never`` or a threshold ``N``). For each pause position (the
number of plain turns stored before the turn that pauses) one conversation goes through the
study's driver on a real ``SQLiteSession`` wrapped by ``OpenAIResponsesCompactionSession``; its
row says what ``Runner.run`` met at the pause, the verdict on the stored history after the
resume, and whether the next turn would be refused. The plain turns run once and each position
forks the store (``driver.branches``); ``replayed_check`` replays every position from the start,
and a test holds the two equal. ``check_liveness`` goes on for ``later`` turns and judges
whether the sessions keep compacting (``analysis.liveness``). An SDK's folder may run the same
check on a team's own install, through its driver (``doctor.command.check_command``, by its
option); every row comes from ``stage_row``, and every answer is worded by the same functions,
each SDK named by its ``Sdk``. docs/doctor.md tells the story.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from ..analysis.liveness import DEFAULT_TURNS as LIVENESS_TURNS
from ..analysis.liveness import (
    LivenessRun,
    LivenessVerdict,
    UsableVerdict,
    judge_liveness,
    liveness_run,
    session_usable,
)
from ..analysis.pairing import item_key, orphan_outputs
from ..errors import InvestigationError
from ..formats.progress import Progress
from ..formats.records import RecordsError, read_json
from ..sdks import sdk_module
from ..study.capture import Stage
from ..study.items import Item
from ..study.words import (
    DECISIONS,
    MODES,
    STORE_SETTINGS,
    STORE_WORDS,
    Decision,
    Kind,
    Mode,
    Model,
    ResponseStore,
)
from .verdict import judge

# The Python SDK's driver, reached by name (``sdks``) as the doctor reaches every SDK's folder;
# mypy reads the same modules by import.
if TYPE_CHECKING:
    from ..openai_agents import driver as _driver
    from ..openai_agents import harness as _harness
    from ..openai_agents import situations as _situations
    from ..openai_agents import worker as _worker
else:
    _driver, _harness, _situations, _worker = (
        sdk_module("python", module) for module in ("driver", "harness", "situations", "worker")
    )

DEFAULT_TURNS = 24
REJECTED = "rejected"
ACCEPTED = "accepted"
PAUSED = "paused"
NOT_RUN = "not run"
TRIGGERS = ("default", "always", "never")
ABANDON = "abandon"  # nobody decides: the user asks the next question instead
# The tool that pauses: its pending item, and the tool kind the agent carries.
PAUSES: dict[str, tuple[Item, Kind]] = {
    "function": (_harness.PENDING_CALL, "function_approval"),
    "mcp": (_harness.MCP_REQUEST, "mcp_approval"),
}


@dataclass(frozen=True)
class Sdk:
    """How an answer names the SDK it ran on: its package, what the user's run call does when
    the API refuses a request, and how a team heals a refused session of it."""

    package: str
    raises: str  # ``the user's `Runner.run` ... raises `openai.BadRequestError```
    heal: str  # the steps that heal a stored session, for the answer's closing advice


PYTHON = Sdk(
    "openai-agents",
    "the user's `Runner.run` at the pause raises `openai.BadRequestError`",
    "`doctor repair STORE --apply` on the application's store",
)
# A session that stops compacting shows it at its second later turn: the first compacts (the
# hook says yes), the next one does not (a stall an SDK's folder reports). Fewer later turns
# cannot tell, so the answer says so rather than that the sessions keep compacting.
STALL_TURNS = 2


class CheckError(InvestigationError):
    """A configuration that cannot be checked: an unknown mode, trigger, decision, tool or
    ``store`` setting."""


# The check answers as the Responses API does: a later turn the API refuses raises, as for a user.
CHECK_MODEL: Model = "responses"


@dataclass(frozen=True)
class Config:
    """What a team runs: the compaction mode, the trigger, the human's decision, the tool that
    pauses and the agent's ``ModelSettings(store=...)`` (None: not set)."""

    mode: Mode = "auto"
    trigger: str = "default"
    decision: Decision | Literal["abandon"] = "approve"
    tool: str = "function"  # a key of ``PAUSES``
    response_store: ResponseStore = None

    def hook(self) -> _driver.Trigger:
        """The trigger as the driver takes it: a name, or a number of candidate items."""
        return int(self.trigger) if self.trigger.isdigit() else cast(_driver.Trigger, self.trigger)

    def describe(self) -> str:
        trigger = {
            "default": "the SDK's default trigger",
            "always": "a trigger that always compacts",
            "never": "a trigger that never compacts",
        }.get(self.trigger, f"a trigger at {self.trigger} candidate items")
        tool = ", a hosted MCP tool" if self.tool == "mcp" else ""
        store = "" if self.response_store is None else f", store={self.response_store}"
        return f"compaction_mode={self.mode!r}{store}, {trigger}, {self.decision}{tool}"

    def setup(self) -> _driver.Setup:
        """The session the check's conversations run on (on ``CHECK_MODEL``)."""
        kinds = (PAUSES[self.tool][1],)
        return _driver.Setup(
            self.mode,
            self.hook(),
            kinds,
            go_on=True,
            response_store=self.response_store,
            model=CHECK_MODEL,
        )

    def to_json(self) -> dict[str, Any]:
        """The configuration as a data file holds it (``response_store`` only when set)."""
        data = asdict(self)
        if self.response_store is None:
            del data["response_store"]
        return data

    @property
    def pending(self) -> Item:
        """The item the pausing turn waits on."""
        return PAUSES[self.tool][0]


def check_config(
    mode: str = "auto",
    trigger: str = "default",
    decision: str = "approve",
    tool: str = "function",
    store: str = "default",
) -> Config:
    """A checked configuration, or a one-line ``CheckError``; ``store`` is the agent's
    ``ModelSettings(store=...)`` as a word (``default``: not set, ``true`` or ``false``)."""
    if mode not in MODES:
        raise CheckError(f"unknown compaction mode {mode!r}: one of {', '.join(MODES)}")
    if decision not in (*DECISIONS, ABANDON):
        raise CheckError(f"unknown decision {decision!r}: approve, reject or abandon")
    if trigger not in TRIGGERS and not (trigger.isdigit() and int(trigger) > 0):
        raise CheckError(f"unknown trigger {trigger!r}: default, always, never or a number")
    if tool not in PAUSES:
        raise CheckError(f"unknown tool {tool!r}: {' or '.join(PAUSES)}")
    if store not in STORE_WORDS:
        raise CheckError(f"unknown store setting {store!r}: {', '.join(STORE_WORDS)}")
    response_store = STORE_SETTINGS[store]
    return Config(mode, trigger, cast(Decision, decision), tool, response_store)


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


NEXT = _driver.Ask("next question", (_harness.NEXT_ANSWER,))


def after_prior(cfg: Config) -> list[_driver.Step]:
    """What follows the plain turns: a pause, the JSON round trip, the decision, the resume, a
    next question (abandoned: the pause, then the next question)."""
    if cfg.decision == ABANDON:
        return [_driver.Ask("protected question", (cfg.pending,), stage="pause"), NEXT]
    return [
        _driver.Ask("protected question", (cfg.pending,), stage="pause"),
        _driver.Cross("json"),
        _driver.Decide(cast(Decision, cfg.decision)),
        _driver.Resume((_harness.FINISHED,)),
        NEXT,
    ]


def position(cfg: Config, prior: int) -> list[_driver.Step]:
    """``prior`` plain turns, then ``after_prior``: one pause position from the start."""
    return [_driver.Continue(prior), *after_prior(cfg)]


def row(
    prior: int, transcript: _driver.Transcript, pending: str | None = _harness.PENDING_CALL_ID
) -> CheckRow:
    """One pause position's row, from its conversation (later turns after it are not read);
    ``pending`` is the id of the item the pause waits on."""
    failed = next((t.error for t in transcript.turns if t.error and t.http_status is None), "")
    if failed:
        raise RuntimeError(f"the check's run after {prior} prior turns failed: {failed}")
    pause = next(turn for turn in transcript.turns if turn.stage and turn.stage.name == "pause")
    if transcript.stage("pause").outcome.ok and not pause.interruptions:
        raise RuntimeError("the pausing turn did not pause for approval")
    nexts = [t.stage for t in transcript.turns if t.step == NEXT and t.stage]
    if not nexts:
        raise RuntimeError(f"the check's run after {prior} prior turns asked no next question")
    resumed = [t.stage for t in transcript.turns if t.stage and t.stage.name == "resume"]
    resume = resumed[-1] if resumed and pause.interruptions else None
    stage = transcript.stage("pause")
    return stage_row(prior, stage, pause.hook, resume, nexts[-1], pending)


def stage_row(
    prior: int,
    pause: Stage,
    hook: Sequence[int],
    resume: Stage | None,
    next_turn: Stage,
    pending: str | None,
) -> CheckRow:
    """One pause position's row from its stages, whichever SDK recorded them: the pause (and
    the candidate counts the compaction decision saw there), the resume (None when nothing was
    resumed), the next question, and the id of the item the pause waits on."""
    seen = pause.outcome
    sent = [item for request in next_turn.model_inputs for item in request]
    return CheckRow(
        prior_turns=prior,
        items_at_pause=len(pause.stored),
        candidates_at_pause=max(hook, default=0),
        compacted_at_pause=bool(pause.compaction_inputs),
        pending_call_stored=any(item_key(item) == pending for item in pause.stored),
        at_pause=PAUSED if seen.ok else f"HTTP {seen.http_status}: {seen.api_message}",
        stored_after_resume=judge("check", resume.stored).verdict if resume else NOT_RUN,
        next_turn=REJECTED if orphan_outputs(sent) else ACCEPTED,
    )


def check_runs(
    cfg: Config,
    turns: int = DEFAULT_TURNS,
    later: int = 0,
    worker: _worker.Worker | None = None,
    progress: Progress | None = None,
) -> list[_driver.Transcript]:
    """One conversation per pause position 0 to ``turns``, each followed by ``later`` plain
    turns with the hook always saying yes (the liveness invariants' later turns). The plain
    turns before the pause are taken once: each position forks the store after its turns
    (``driver.branches``), so the cost grows linearly in ``turns``."""
    rest = [*after_prior(cfg), *_situations.later(later)]
    return _driver.branches(cfg.setup(), rest, turns, worker=worker, progress=progress)


def check_release(
    cfg: Config, turns: int = DEFAULT_TURNS, worker: _worker.Worker | None = None
) -> tuple[str, list[CheckRow]]:
    """The release the conversations ran on, and one row per pause position 0 to ``turns``."""
    runs = check_runs(cfg, turns, worker=worker)
    pending = item_key(cfg.pending)
    return runs[0].sdk_version, [row(p, t, pending) for p, t in enumerate(runs)]


def run_check(cfg: Config, turns: int = DEFAULT_TURNS) -> list[CheckRow]:
    """One row per pause position from 0 to ``turns`` prior turns, on the installed SDK."""
    return check_release(cfg, turns)[1]


def replayed_check(cfg: Config, turns: int) -> list[CheckRow]:
    """The same rows with every position replayed from the start (quadratic in ``turns``): what
    ``run_check`` must equal."""
    pending = item_key(cfg.pending)
    return [
        row(p, _driver.converse(cfg.setup(), position(cfg, p)), pending) for p in range(turns + 1)
    ]


@dataclass(frozen=True)
class Keeps:
    """Will the user's sessions keep compacting? Each pause position continued for the later
    turns, the liveness runs judged: how many positions each invariant holds at, and the
    first position it breaks at (with its detail)."""

    later: int
    runs: tuple[LivenessRun, ...]
    stored: tuple[str, ...] = ()  # the doctor's verdict on each run's store after its turns

    def broken(self) -> list[tuple[int, LivenessVerdict]]:
        """Every broken liveness verdict, with its pause position."""
        return [
            (p, v)
            for p, run in enumerate(self.runs)
            for v in judge_liveness(run)
            if v.holds is False
        ]

    def refused(self) -> list[tuple[int, UsableVerdict]]:
        """Every position whose later turns the API refused (``session_usable`` broken)."""
        usable = [(p, session_usable(run)) for p, run in enumerate(self.runs)]
        return [(p, u) for p, u in usable if u.holds is False]

    @property
    def keeps_compacting(self) -> bool:
        return all(v.holds for run in self.runs for v in judge_liveness(run))


def check_liveness(
    cfg: Config,
    turns: int = DEFAULT_TURNS,
    later: int = LIVENESS_TURNS,
    worker: _worker.Worker | None = None,
    progress: Progress | None = None,
) -> tuple[str, list[CheckRow], Keeps]:
    """The check's rows, and the liveness runs of the same conversations continued for
    ``later`` plain turns with the hook always saying yes (each position a step on
    ``progress``)."""
    runs = check_runs(cfg, turns, later, worker, progress)
    rows = [row(p, t, item_key(cfg.pending)) for p, t in enumerate(runs)]
    lives = [_liveness(cfg, t, later) for t in runs]
    stored = [next((t.stage.stored for t in reversed(r.turns) if t.stage), []) for r in runs]
    verdicts = tuple(judge("check", items).verdict for items in stored)
    return runs[0].sdk_version, rows, Keeps(later, tuple(lives), verdicts)


def _liveness(cfg: Config, transcript: _driver.Transcript, later: int) -> LivenessRun:
    done = transcript.turns[len(transcript.turns) - later :] if later else []
    continued = [(t.stage, t.outcome) for t in done if isinstance(t.step, _driver.Continue)]
    error = "" if len(continued) == later else f"only {len(continued)} of {later} later turns ran"
    sdk = transcript.sdk_version
    return liveness_run("check", sdk, cfg.mode, False, continued, error, CHECK_MODEL)


def liveness_answer(cfg: Config, keeps: Keeps, sdk: str, on: Sdk = PYTHON) -> str:
    """Will the sessions keep compacting, in one sentence, from the liveness runs."""
    head = (
        f"{on.package} {sdk}, {cfg.describe()}, each pause position continued for "
        f"{keeps.later} later turn{'s' if keeps.later != 1 else ''} with the hook saying yes: "
    )
    if not keeps.runs or not keeps.later:
        return head + "no later turn was run."
    if keeps.later < STALL_TURNS:
        return head + (
            "not judged: a session that stops compacting shows it at its second later turn, "
            f"after the first one compacted (run --later {STALL_TURNS} or more; the default "
            f"is {LIVENESS_TURNS})."
        )
    failed = [(p, run.error) for p, run in enumerate(keeps.runs) if run.error]
    if failed:
        p, error = failed[0]
        return head + f"not judged at {len(failed)} positions (after {p} prior turns: {error})."
    refused = keeps.refused()
    if refused:
        p, usable = refused[0]
        where = ", ".join(str(q) for q, _ in refused)
        every = all(len(u.raised) == keeps.later for _, u in refused)
        which = "every later turn" if every else "later turns"
        return head + (
            f"the API refuses {which} of your sessions at {len(refused)} of "
            f"{len(keeps.runs)} positions (after {where} prior turns; after {p} prior turns, "
            f"{usable.text.rstrip('.')}): they cannot be used until they are healed "
            f"({on.heal})."
        )
    if keeps.keeps_compacting:
        return head + (
            f"your sessions keep compacting at all {len(keeps.runs)} positions "
            "(compaction_runs and history_bounded hold)."
        )
    broken = keeps.broken()
    positions = ", ".join(map(str, sorted({p for p, _ in broken})))
    first, verdict = broken[0]
    names = ", ".join(sorted({v.invariant for _, v in broken}))
    judged = sorted({keeps.stored[p] for p, _ in broken}) if keeps.stored else []
    scan = f"; `doctor scan` judges those stores {' or '.join(judged)}" if judged else ""
    return head + (
        f"your sessions stop compacting at {len({p for p, _ in broken})} of {len(keeps.runs)} "
        f"positions (after {positions} prior turns; {names} broken; after {first} prior "
        f"turns, {verdict.invariant} breaks at {verdict.detail.text}){scan}."
    )


def check_answer(cfg: Config, rows: Sequence[CheckRow], sdk: str, on: Sdk = PYTHON) -> str:
    """The answer in one sentence, from the rows."""
    struck = [r for r in rows if r.affected]
    where = f"{len(rows)} pause positions (0 to {rows[-1].prior_turns} prior turns)" if rows else ""
    head = f"{on.package} {sdk}, {cfg.describe()}: "
    if not struck:
        return head + f"not affected at any of {where}."
    positions = ", ".join(str(r.prior_turns) for r in struck)
    compacted = sum(1 for r in struck if r.compacted_at_pause)
    parts = [f"compaction ran at the pause in {compacted} of them"]
    refused = [r for r in struck if r.at_pause != PAUSED]
    if refused:
        said = "; ".join(sorted({r.at_pause for r in refused}))
        parts.append(
            f"in {len(refused)} {on.raises} ({said}) and returns no state to approve or reject"
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
        "config": cfg.to_json(),
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
