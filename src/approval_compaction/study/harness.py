"""Harness: a case as a conversation the driver takes, captured stage by stage as a ``CaseRun``.

The agent has one ``needs_approval=True`` function tool; its session is a real ``SQLiteSession``
file wrapped by ``OpenAIResponsesCompactionSession(compaction_mode="input")`` whose hook always
says what the case's compaction choice says. Three turns: a question that pauses on the
approval, the state across the case's boundary, the decision, the resume, and a next question.

The model and the compaction client come from a backend (``wiring``): the scripted model and
the recording compaction stand-in by default, or the SDK's ``OpenAIResponsesModel`` on a real
``AsyncOpenAI`` client that talks HTTP to a local stand-in of the API. When a request fails with
an HTTP status (say, the 400 a user sees as ``openai.BadRequestError``), the stage records what
the user saw and the case stops there: that is a finding, not a failure of the harness.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from .capture import CaseRun, Stage, sdk_version
from .driver import (
    Ask,
    Cross,
    Decide,
    Driver,
    Reply,
    Resume,
    SessionWrapper,
    Setup,
    StageHook,
    Step,
    Store,
    Trigger,
    run_sync,
)
from .model import assistant_message, function_call
from .scenario import Case, all_cases
from .tools import TOOL_NAME
from .wiring import Backend, scripted_backend
from .words import DecisionRule, Kind

PENDING_CALL_ID = "pending-c1"
QUESTIONS = ("first question", "next question")
PENDING_CALL = function_call(TOOL_NAME, {"value": "v"}, call_id=PENDING_CALL_ID)
FINISHED = assistant_message("finished", item_id="msg-finished")
NEXT_ANSWER = assistant_message("next answer", item_id="msg-next")


@dataclass(frozen=True)
class Script:
    """What varies a case beyond its four choices: what the model answers the first question
    with, the tool kinds the agent carries, the store, and how each pending item is decided
    (None: as the case says). The default is the study's own; the workaround's edge cases vary it.
    """

    pause: Reply = (PENDING_CALL,)
    kinds: tuple[Kind, ...] = ("function_approval",)
    store: Store = "sqlite"
    decision: DecisionRule | None = None


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
    """The case's session: input mode, the hook compacting as the case says, the script's
    tools and store."""
    trigger: Trigger = "always" if case.compaction == "on" else "never"
    return Setup(trigger=trigger, kinds=script.kinds, store=script.store, wrap=wrap)


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
    setup = replace(case_setup(case, script, wrap_session), capture=capture)
    stages: list[Stage] = []
    approvals, error = int(case.decision == "approve"), None
    with tempfile.TemporaryDirectory(prefix="approval-compaction-") as folder:
        async with Driver(setup, Path(folder) / "history.db", backend, on_stage) as driver:
            for step in conversation(case, script):
                (turn,) = await driver.take([step])
                over_http = turn.http_status is not None  # recorded on its stage
                if turn.stage is not None and (over_http or not turn.error):
                    stages.append(turn.stage)
                if turn.error:  # the case ends at the first failing step
                    error = None if over_http else turn.error
                    break
                if isinstance(step, Ask) and step.stage == "pause" and not turn.interruptions:
                    error = "RuntimeError: the first turn did not pause for approval"
                    break
                if isinstance(step, Decide):
                    approvals = turn.approvals
            dispatches, model = len(driver.dispatches.approved), driver.wiring.name
    return CaseRun(case, sdk_version(), stages, approvals, dispatches, error, model=model)


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
