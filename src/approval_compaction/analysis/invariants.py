"""Invariants: seven properties a case must keep, each judged from its captured stages.

``paired`` means no output without its call; ``complete`` means no call without its output.
A verdict is ``True`` (holds), ``False`` (violated, with the offending call ids), or ``None``
when the case could not be judged (it failed, or the release lacks what it needs).

``next_turn_accepted`` is what the user sees. Over HTTP (the ``responses`` model) it is observed:
the next turn's requests were all answered, or the stage records the HTTP status and the
exception, which the detail carries. On the ``scripted`` model nothing goes over the wire, so it
is judged by the pairing rules the stand-in enforces (``wire.rules``), applied to each input
the runner handed the model interface; the detail says the answer is the rules' prediction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..errors import InvestigationError
from ..study.capture import STAGES, CaseRun, StageName
from ..study.items import Item
from ..wire.rules import check_pairing
from .pairing import open_calls, orphan_outputs

INVARIANTS: tuple[str, ...] = (
    "next_turn_input_paired",
    "resumed_input_paired",
    "compaction_input_complete",
    "compaction_input_paired",
    "stored_history_paired",
    "decision_enforced",
    "next_turn_accepted",
)


class UnknownInvariantError(InvestigationError, ValueError):
    """An invariant name that is not one of INVARIANTS."""


@dataclass(frozen=True)
class Offender:
    """An item that breaks a pairing invariant: the stage where it was seen, and its id."""

    stage: str
    key: str


@dataclass(frozen=True)
class Verdict:
    """One invariant judged on one case: the offending items of a pairing invariant, and the
    detail in words (``pause: pending-c1``, an HTTP answer, or a count), as records keep it."""

    invariant: str
    holds: bool | None
    detail: str
    offenders: tuple[Offender, ...] = ()


def check_invariant_name(name: str) -> str:
    if name not in INVARIANTS:
        raise UnknownInvariantError(
            f"unknown invariant {name!r}: expected one of {', '.join(INVARIANTS)}"
        )
    return name


class _Missing(Exception):
    """The stage an invariant reads was never reached."""


def _offenders(
    run: CaseRun, stages: tuple[StageName, ...], field: str, find: Callable[[list[Item]], list[str]]
) -> tuple[Offender, ...]:
    found: list[Offender] = []
    for name in stages:
        stage = run.stage(name)
        if stage is None:
            raise _Missing(name)
        lists = [stage.stored] if field == "stored" else getattr(stage, field)
        ids = sorted({key for items in lists for key in find(items)})
        found.extend(Offender(name, key) for key in ids)
    return tuple(found)


def offenders_detail(offenders: Iterable[Offender]) -> str:
    """Offenders in words, as a record's detail keeps them: ``pause: pending-c1; resume: ...``."""
    return "; ".join(f"{o.stage}: {o.key}" for o in offenders)


_ALL: tuple[StageName, ...] = STAGES
_RULES: dict[str, tuple[tuple[StageName, ...], str, Callable[[list[Item]], list[str]]]] = {
    "next_turn_input_paired": (("next_turn",), "model_inputs", orphan_outputs),
    "resumed_input_paired": (("resume",), "model_inputs", orphan_outputs),
    "compaction_input_complete": (_ALL, "compaction_inputs", open_calls),
    "compaction_input_paired": (_ALL, "compaction_inputs", orphan_outputs),
    "stored_history_paired": (("resume",), "stored", orphan_outputs),
}


def evaluate(run: CaseRun) -> list[Verdict]:
    """All seven verdicts for one executed case, in INVARIANTS order."""
    if run.not_applicable is not None:
        return [Verdict(name, None, run.not_applicable) for name in INVARIANTS]
    return [_judge(run, name) for name in INVARIANTS]


@dataclass(frozen=True)
class JudgedRun:
    """A run with its verdicts, judged once: the matrix, findings and report all read these."""

    run: CaseRun
    verdicts: tuple[Verdict, ...]

    @property
    def violations(self) -> list[Verdict]:
        """The verdicts that are violated, in INVARIANTS order."""
        return [v for v in self.verdicts if v.holds is False]


def judge(run: CaseRun | JudgedRun) -> JudgedRun:
    """Judge a run on every invariant (a run already judged is returned as it is)."""
    if isinstance(run, JudgedRun):
        return run
    return JudgedRun(run, tuple(evaluate(run)))


def judge_all(runs: Iterable[CaseRun | JudgedRun]) -> list[JudgedRun]:
    """Judge each run once."""
    return [judge(run) for run in runs]


def _accepted(run: CaseRun, name: str) -> Verdict:
    """Whether the next turn reached the model: observed over HTTP, predicted by the rules."""
    failed = next((s for s in run.stages if not s.outcome.ok), None)
    stage = run.stage("next_turn")
    if failed is not None and failed.name != "next_turn":
        seen = failed.outcome
        return Verdict(name, None, f"{failed.name}: HTTP {seen.http_status}: {seen.text}")
    if stage is None:
        return Verdict(name, None, run.error or "stage next_turn was not reached")
    if run.model != "scripted":
        ok = stage.outcome.ok
        seen = stage.outcome
        return Verdict(name, ok, "" if ok else f"HTTP {seen.http_status}: {seen.text}")
    errors = [e for e in map(check_pairing, stage.model_inputs) if e is not None]
    if not errors:
        return Verdict(name, True, "")
    error = errors[0]
    return Verdict(
        name, False, f"predicted by the stand-in's rules: HTTP {error.status}: {error.message}"
    )


def _judge(run: CaseRun, name: str) -> Verdict:
    if name == "next_turn_accepted":
        return _accepted(run, name)
    if name == "decision_enforced":
        if run.error is not None and run.stage("resume") is None:
            return Verdict(name, None, run.error)
        ok = run.dispatches == run.approvals
        return Verdict(
            name, ok, "" if ok else f"{run.dispatches} dispatches, {run.approvals} approvals"
        )
    stages, field, find = _RULES[name]
    try:
        found = _offenders(run, stages, field, find)
    except _Missing as missing:
        return Verdict(name, None, run.error or f"stage {missing} was not reached")
    return Verdict(name, not found, offenders_detail(found), found)
