"""Meeting: what the user of the API meets at each stage of a case, judged once from its run.

A case is the user's own conversation: a question that should pause for approval, the human's
decision and the resume, and a next question. At each of the three (``pause``, ``resume``,
``next_turn``) a ``Meeting`` says what the user's code met there:

- ``outcome``: ``paused`` (the run returned its interruption), ``answered``, ``raised`` (with
  the exception, its HTTP status, the endpoint that refused the request, the exception's text
  and the API's own message), or ``not run``: after a pause that raised, ``Runner.run``
  returned no result, so there is no ``RunState`` to approve, reject or resume;
- ``can_decide``: whether a paused state now waits for the human's approval or rejection;
- what the store holds when the stage ended: how many items, and its unpaired ones (calls
  without their output, outputs without their call) by call id;
- how many compaction requests the stage made (answered or refused).

The records carry the case, the release, the model wiring, the compaction mode and how the
compaction endpoint answered (``faithful`` or ``lenient``), so that the sweep's records of every
release and mode are one table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ...analysis.pairing import open_calls, orphan_outputs
from ...study.capture import CaseRun, StageName

Met = Literal["paused", "answered", "raised", "not run"]
PAUSED: Met = "paused"
ANSWERED: Met = "answered"
RAISED: Met = "raised"
NOT_RUN: Met = "not run"
MEETING_STAGES: tuple[StageName, ...] = ("pause", "resume", "next_turn")


@dataclass(frozen=True)
class Meeting:
    """One stage of one case, as the user met it."""

    sdk_version: str
    model: str
    mode: str
    compact_rules: str
    runner: str
    decision: str
    compaction: str
    state_boundary: str
    stage: str
    outcome: str
    can_decide: bool
    exception: str
    http_status: int | None
    endpoint: str
    message: str
    api_message: str
    stored_items: int
    open_calls: str
    orphan_outputs: str
    compaction_requests: int

    @property
    def case_key(self) -> tuple[str, str, str, str]:
        """The case's four choices, in the scenario's field order."""
        return (self.runner, self.decision, self.compaction, self.state_boundary)

    @property
    def label(self) -> str:
        return "/".join(self.case_key)


def _met(run: CaseRun, name: StageName) -> Meeting:
    stage = run.stage(name)
    common = {
        "sdk_version": run.sdk_version,
        "model": run.model,
        "mode": run.mode,
        "compact_rules": run.compact_rules,
        **run.case.as_dict(),
        "stage": name,
    }
    if stage is None:
        return Meeting(
            **common,
            outcome=NOT_RUN,
            can_decide=False,
            exception="",
            http_status=None,
            endpoint="",
            message="",
            api_message="",
            stored_items=0,
            open_calls="",
            orphan_outputs="",
            compaction_requests=0,
        )
    seen = stage.outcome
    outcome = RAISED if not seen.ok else PAUSED if stage.interruptions else ANSWERED
    return Meeting(
        **common,
        outcome=outcome,
        can_decide=outcome == PAUSED,
        exception=seen.exception,
        http_status=seen.http_status,
        endpoint=seen.endpoint,
        message=seen.message,
        api_message=seen.api_message,
        stored_items=len(stage.stored),
        open_calls=" ".join(open_calls(stage.stored)),
        orphan_outputs=" ".join(orphan_outputs(stage.stored)),
        compaction_requests=len(stage.compaction_inputs),
    )


def meetings(run: CaseRun) -> list[Meeting]:
    """The case's three stages as the user met them; none for a run that could not run (a
    release that lacks what it needs, or a harness failure)."""
    if run.not_applicable is not None or run.error is not None:
        return []
    return [_met(run, name) for name in MEETING_STAGES]


def all_meetings(runs: Iterable[CaseRun]) -> list[Meeting]:
    """Every run's meetings, in run order."""
    return [found for run in runs for found in meetings(run)]
