"""Harness: a case as a conversation the driver takes, captured stage by stage as a ``CaseRun``.

The agent has one ``needs_approval=True`` function tool; its session is a real ``SQLiteSession``
file wrapped by ``OpenAIResponsesCompactionSession(compaction_mode="input")`` (the script may
name another mode) whose hook always says what the case's compaction choice says. Three turns:
a question that pauses on the approval, the state across the case's boundary, the decision, the
resume, and a next question.

The model and the compaction client come from a backend (``wiring``): the scripted model and
the recording compaction stand-in by default, or the SDK's ``OpenAIResponsesModel`` on a real
``AsyncOpenAI`` client that talks HTTP to a local stand-in of the API. When a request fails with
an HTTP status (say, the 400 a user sees as ``openai.BadRequestError``), the stage records what
the user saw: that is a finding, not a failure of the harness. The user then goes on as a user
can: a pause that raised returned no state, so there is nothing to decide or resume (those
steps record no stage) and the next question is asked all the same.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from openai.types.responses.response_output_item import McpApprovalRequest

from .. import paths
from ..study.capture import LATER_TURNS, CaseRun, Later, Stage, sdk_version
from ..study.fork import fork_map
from ..study.items import to_item
from ..study.loop import run_sync
from ..study.scenario import Case, SessionWrapper, all_cases
from ..study.words import STUDY_MODE, DecisionRule, Kind, Mode, ResponseStore
from .driver import (
    NOTHING_PENDING,
    Ask,
    Cross,
    Decide,
    Driver,
    Reply,
    Resume,
    Setup,
    StageHook,
    Step,
    Store,
    Trigger,
)
from .driver import later as later_steps
from .model import assistant_message, function_call
from .tools import MCP_SERVER, TOOL_NAME
from .wiring import Backend, scripted_backend

PENDING_CALL_ID = "pending-c1"
QUESTIONS = ("first question", "next question")
PENDING_CALL = function_call(TOOL_NAME, {"value": "v"}, call_id=PENDING_CALL_ID)
FINISHED = assistant_message("finished", item_id="msg-finished")
NEXT_ANSWER = assistant_message("next answer", item_id="msg-next")
# A hosted MCP server's request for approval: the other item a turn can pause on.
MCP_REQUEST_ID = "mcpr-1"
MCP_REQUEST = to_item(
    McpApprovalRequest(
        type="mcp_approval_request",
        id=MCP_REQUEST_ID,
        name="lookup",
        arguments='{"value": "v"}',
        server_label=MCP_SERVER,
    )
)


@dataclass(frozen=True)
class Script:
    """What varies a case beyond its four choices: what the model answers the first question
    with, the tool kinds the agent carries, the store, how each pending item is decided (None:
    as the case says), the compaction mode and the agent's ``ModelSettings(store=...)`` (None:
    not set). The default is the study's own; the workaround's edge cases, the compaction modes
    and ``store`` vary it.
    """

    pause: Reply = (PENDING_CALL,)
    kinds: tuple[Kind, ...] = ("function_approval",)
    store: Store = "sqlite"
    decision: DecisionRule | None = None
    mode: Mode = STUDY_MODE
    response_store: ResponseStore = None


DEFAULT_SCRIPT = Script()


def conversation(case: Case, script: Script = DEFAULT_SCRIPT) -> list[Step]:
    """The case's steps: pause, cross, decide, resume, and the next question."""
    return [
        Ask(QUESTIONS[0], script.pause, case.runner, stage="pause"),
        Cross(case.state_boundary),
        Decide(script.decision or case.decision),
        Resume((FINISHED,), case.runner),
        Ask(QUESTIONS[1], (NEXT_ANSWER,), case.runner),
    ]


def case_setup(
    case: Case, script: Script = DEFAULT_SCRIPT, wrap: SessionWrapper | None = None
) -> Setup:
    """The case's session: the script's mode (input), the hook compacting as the case says,
    the script's tools, store and ``ModelSettings(store=...)``."""
    trigger: Trigger = "always" if case.compaction == "on" else "never"
    store = script.response_store
    return Setup(script.mode, trigger, script.kinds, script.store, wrap=wrap, response_store=store)


async def run_case_async(
    case: Case,
    *,
    capture: bool = True,
    wrap_session: SessionWrapper | None = None,
    script: Script = DEFAULT_SCRIPT,
    backend: Backend = scripted_backend,
    on_stage: StageHook | None = None,
    later: int = 0,
) -> CaseRun:
    """Run one case; a failure is recorded on the returned CaseRun rather than raised.

    ``on_stage`` is told each stage's name as the stage ends, before anything is read to record
    it (a tracer uses it to attribute the calls that follow to the next stage). ``later`` goes on
    after the next turn for that many later turns, the liveness scenarios' own
    (``later_steps``: the hook saying yes), each kept on the run's ``later``."""

    setup = replace(case_setup(case, script, wrap_session), capture=capture)
    stages: list[Stage] = []
    approvals, error = int(case.decision == "approve"), None
    with tempfile.TemporaryDirectory(prefix="approval-compaction-", dir=paths.scratch()) as folder:
        async with Driver(setup, Path(folder) / "history.db", backend, on_stage) as driver:
            for step in conversation(case, script):
                (turn,) = await driver.take([step])
                refused = turn.http_status is not None  # the API refused: recorded on its stage
                if isinstance(step, Decide):
                    approvals = turn.approvals
                if turn.outcome == NOTHING_PENDING:  # no state to take this step on
                    continue
                if turn.stage is not None and (refused or not turn.error):
                    stages.append(turn.stage)
                if turn.error and not refused:  # the harness, not the API, failed: stop
                    error = turn.error
                    break
                pause = isinstance(step, Ask) and step.stage == "pause"
                if pause and not turn.interruptions and not turn.error:
                    error = "RuntimeError: the first turn did not pause for approval"
                    break
            kept, later_error = [], ""
            for step in later_steps(later) if error is None else []:
                (turn,) = await driver.take([step])
                kept.append(Later(turn.stage, turn.outcome))
                if turn.error and turn.http_status is None:  # the harness failed: stop
                    later_error = turn.error
                    break
            dispatches, wiring = len(driver.dispatches.approved), driver.wiring
    if error is not None and later:
        later_error = error
    return CaseRun(
        case,
        sdk_version(),
        stages,
        approvals,
        dispatches,
        error,
        model=wiring.name,
        mode=setup.mode,
        compact_rules=wiring.compact_rules,
        response_store=setup.response_store,
        continued=later,
        later=kept,
        later_error=later_error,
    )


def run_case(
    case: Case,
    *,
    capture: bool = True,
    wrap_session: SessionWrapper | None = None,
    script: Script = DEFAULT_SCRIPT,
    backend: Backend = scripted_backend,
    mode: Mode | None = None,
    later: int = 0,
    response_store: ResponseStore = None,
) -> CaseRun:
    """Run one case synchronously (see ``run_case_async``); ``mode`` is the compaction mode
    (None: the script's, ``input``); ``later``: the later turns after the next one;
    ``response_store``: the agent's ``ModelSettings(store=...)`` (None: the script's)."""
    script = script if mode is None else replace(script, mode=mode)
    if response_store is not None:
        script = replace(script, response_store=response_store)
    return run_sync(
        run_case_async(
            case,
            capture=capture,
            wrap_session=wrap_session,
            script=script,
            backend=backend,
            later=later,
        )
    )


def run_matrix(
    cases: Sequence[Case] | None = None,
    *,
    wrap_session: SessionWrapper | None = None,
    backend: Backend = scripted_backend,
    mode: Mode = STUDY_MODE,
    later: int | None = None,
    jobs: int = 1,
    response_store: ResponseStore = None,
) -> list[CaseRun]:
    """Run the given cases (all sixteen by default) on the installed SDK, in the compaction
    mode given (the study's ``input`` by default), each continued for ``later`` later turns,
    which the liveness invariants judge. None: the study's own matrix, on the scripted backend,
    goes on for ``LATER_TURNS``; another backend's runs (over HTTP: what the user meets) stop
    after the next turn unless asked. ``jobs`` processes share the cases (``fork_map``; 0: one
    per core), with the same runs as one. ``response_store`` is the agent's
    ``ModelSettings(store=...)`` (None: not set, the SDK's default)."""
    chosen = all_cases() if cases is None else cases
    script = replace(DEFAULT_SCRIPT, mode=mode, response_store=response_store)
    turns = (LATER_TURNS if backend is scripted_backend else 0) if later is None else later

    def one(case: Case) -> CaseRun:
        return run_case(
            case, wrap_session=wrap_session, backend=backend, script=script, later=turns
        )

    return fork_map(one, list(chosen), jobs)
