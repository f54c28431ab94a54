"""Invariants: ten safety properties a case must keep, each judged from its captured stages,
and two liveness properties judged over the later turns of a case continued after its next turn.

``paired`` means no output without its call; ``complete`` means no call without its output.
A verdict is ``True`` (holds), ``False`` (violated, with the offending call ids), or ``None``
when the case could not be judged (it failed, the release lacks what it needs, or the stage it
reads never ran: after a pause the API refused there is no state to resume).

``pause_accepted`` and ``next_turn_accepted`` are what the user sees. Every request the runner
makes at the stage was answered, or the stage records the HTTP status, the exception, the
refused endpoint and the API's message, which the detail carries. Over HTTP (the ``responses``
model) every request is observed. On the ``scripted`` model the compaction client answers by the
compaction endpoint's rules and raises their refusal as the ``openai`` client would (observed
too); the model's own requests go nowhere, so they are judged by the pairing rules the stand-in
enforces (``wire.rules``), applied to each input the runner handed the model interface, and the
detail says that answer is the rules' prediction.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..study.capture import STAGES, CaseRun, Stage, StageName
from ..wire.rules import check_pairing
from .liveness import case_liveness
from .properties import ACCEPTED as ACCEPTED  # each invariant is defined in properties
from .properties import DEFINITIONS as DEFINITIONS
from .properties import INVARIANTS as INVARIANTS
from .properties import LIVENESS as LIVENESS
from .properties import LIVENESS_NAMES as LIVENESS_NAMES
from .properties import SAFETY as SAFETY
from .properties import Check as Check
from .properties import Invariant as Invariant
from .properties import UnknownInvariantError as UnknownInvariantError
from .properties import invariant as invariant


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


class _Missing(Exception):
    """The stage an invariant reads was never reached."""


def refused_stage(run: CaseRun) -> Stage | None:
    """The first stage at which the API refused a request (the user's code raised), if any."""
    return next((s for s in run.stages if not s.outcome.ok), None)


def _never_ran(run: CaseRun, name: StageName) -> str:
    """Why a stage is missing from a run, in words."""
    refused = refused_stage(run)
    if (
        run.error is None
        and refused is not None
        and STAGES.index(name) > STAGES.index(refused.name)
    ):
        return f"stage {name} never ran: the {refused.name} raised {refused.outcome.exception}"
    return run.error or f"stage {name} was not reached"


def _offenders(run: CaseRun, rule: Invariant, check: Check) -> tuple[Offender, ...]:
    """The offending items in the stages the rule reads; a rule that reads every stage skips
    those that never ran after a refusal (nothing was pending to take them on)."""
    found: list[Offender] = []
    for name in rule.stages:
        stage = run.stage(name)
        if stage is None:
            if len(rule.stages) > 1 and _never_ran(run, name).startswith(f"stage {name} never"):
                continue
            raise _Missing(name)
        lists = [stage.stored] if rule.field == "stored" else getattr(stage, rule.field)
        ids = sorted({key for items in lists for key in check(items)})
        found.extend(Offender(name, key) for key in ids)
    return tuple(found)


def offenders_detail(offenders: Iterable[Offender]) -> str:
    """Offenders in words, as a record's detail keeps them: ``pause: pending-c1; resume: ...``."""
    return "; ".join(f"{o.stage}: {o.key}" for o in offenders)


def judged_names(run: CaseRun) -> tuple[str, ...]:
    """The invariants a run is judged on: the ten safety ones, and the two liveness ones when
    the case was continued after its next turn."""
    return INVARIANTS if run.continued else SAFETY


def evaluate(run: CaseRun) -> list[Verdict]:
    """The verdicts for one executed case, in INVARIANTS order: all ten safety ones, then the
    two liveness ones when the case was continued (``run.continued`` later turns)."""
    if run.not_applicable is not None:
        return [Verdict(name, None, run.not_applicable) for name in judged_names(run)]
    return [_judge(run, rule) for rule in DEFINITIONS] + _liveness(run)


def _liveness(run: CaseRun) -> list[Verdict]:
    """The liveness verdicts of a continued case (none when it was not continued)."""
    if not run.continued:
        return []
    if run.error is not None:
        return [Verdict(name, None, run.error) for name in LIVENESS_NAMES]
    why = run.later_error or "no later turn ran"  # the detail of a verdict not judged
    return [
        Verdict(v.invariant, v.holds, v.detail.text if v.holds is not None else why)
        for v in case_liveness(run)
    ]


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


def refusal_detail(stage: Stage) -> str:
    """A refused request in words: ``HTTP 400 from /v1/responses/compact: openai.Bad...``."""
    seen = stage.outcome
    where = f" from {seen.endpoint}" if seen.endpoint else ""
    return f"HTTP {seen.http_status}{where}: {seen.text}"


def _accepted(run: CaseRun, rule: Invariant) -> Verdict:
    """Whether the stage's requests were answered: observed over HTTP and from the compaction
    client, predicted by the rules for the scripted model's own requests."""
    name, (stage_name,) = rule.name, rule.stages
    stage = run.stage(stage_name)
    if stage is None:
        return Verdict(name, None, _never_ran(run, stage_name))
    if run.error is not None and run.stages[-1] is stage:  # the harness failed there
        return Verdict(name, None, run.error)
    if not stage.outcome.ok:
        return Verdict(name, False, refusal_detail(stage))
    if run.model != "scripted":
        return Verdict(name, True, "")
    errors = [e for e in map(check_pairing, stage.model_inputs) if e is not None]
    if not errors:
        return Verdict(name, True, "")
    error = errors[0]
    return Verdict(
        name, False, f"predicted by the stand-in's rules: HTTP {error.status}: {error.message}"
    )


def _judge(run: CaseRun, rule: Invariant) -> Verdict:
    name = rule.name
    if name in ACCEPTED:
        return _accepted(run, rule)
    if rule.check is None:  # decision_enforced
        if run.error is not None and run.stage("resume") is None:
            return Verdict(name, None, run.error)
        ok = run.dispatches == run.approvals
        return Verdict(
            name, ok, "" if ok else f"{run.dispatches} dispatches, {run.approvals} approvals"
        )
    try:
        found = _offenders(run, rule, rule.check)
    except _Missing as missing:
        return Verdict(name, None, _never_ran(run, missing.args[0]))
    return Verdict(name, not found, offenders_detail(found), found)
