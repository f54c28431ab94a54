"""Late: an abandoned approval answered late, with and without ``doctor repair`` in between.

A question pauses for approval; the application keeps the paused state's JSON
(``RunState.to_json()``) and the user asks something else, so the stored call is followed by a
later turn: the doctor calls that session *stuck*. Then either nothing happens, or
``doctor repair --apply`` rewrites the call as an assistant message saying it was never
answered. Then the application restores the kept state, approves it and resumes it (the late
answer), and the user asks one more question. Each request goes over HTTP to the stand-in, with
the SDK's defaults (``auto`` mode, its default trigger). The record says what each step met.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..doctor import repair
from ..doctor.scan import reports
from ..doctor.stores import opened
from ..study.loop import run_sync
from ..study.words import Mode
from . import driver as _driver
from . import harness as _harness

ACCEPTED = "accepted"


@dataclass(frozen=True)
class LateAnswer:
    """One late answer: whether ``doctor repair --apply`` ran first, the doctor's diagnosis on
    the session just before and just after the late resume, and what the API answered the late
    resume and the next turn."""

    repair_first: str
    diagnosis_before_late_answer: str
    late_resume: str
    diagnosis_after_late_answer: str
    next_turn: str


async def _diagnosis(path: Path) -> str:
    async with opened(str(path)) as store:
        return " ".join([r.verdict async for r in reports(store)])


def _answer(turn: _driver.Turn) -> str:
    """``accepted``, or the refusal in one line (``HTTP 400: <the API's message>``)."""
    if turn.http_status is None:
        return ACCEPTED if not turn.error else turn.error
    message = turn.error.partition(" - ")[2] or turn.error
    return f"HTTP {turn.http_status}: {message}"


async def late_answer(path: Path, repaired: bool, mode: Mode = "auto") -> LateAnswer:
    """Leave a stuck session in ``path``, repair it or not, then answer its approval late."""
    setup = _driver.Setup(mode=mode, trigger="default", model="responses", go_on=True)
    async with _driver.Driver(setup, path) as driver:
        await driver.take(
            [
                _driver.Ask(_harness.QUESTIONS[0], (_harness.PENDING_CALL,), stage="pause"),
                _driver.Keep(),
                _driver.Continue(1),
            ]
        )
        if repaired:
            await repair.apply(str(path), path.with_suffix(".backup.jsonl"))
        before = await _diagnosis(path)
        late = await driver.take([_driver.Recall(), _driver.Decide("approve"), _driver.Resume()])
        after = await _diagnosis(path)
        (next_turn,) = await driver.take([_driver.Continue(1)])
    return LateAnswer(
        repair_first="yes" if repaired else "no",
        diagnosis_before_late_answer=before,
        late_resume=_answer(late[-1]),
        diagnosis_after_late_answer=after,
        next_turn=_answer(next_turn),
    )


def late_answers(mode: Mode = "auto") -> list[LateAnswer]:
    """The late answer on a stuck session left as it is, then on one repaired first."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-late-") as folder:
        return [
            run_sync(late_answer(Path(folder) / f"{flag}.db", flag, mode)) for flag in (False, True)
        ]
