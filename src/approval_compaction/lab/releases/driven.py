"""Driven: what every driver's study shares, whatever its SDK. The record its sweep writes, one
per plan on one release (``SweepRecord``: the cases that break an invariant and what the user
met), made from a plan's judged runs (``record``) or for a release that could not be installed
(``unavailable``); its regression test's record on one package (``SdkTestRecord``); one lint or
type tool's record on a fix (``CheckRecord``); and the error of a source line a release does not
hold (``SourceLineError``). An SDK's folder imports these; nothing here names an SDK.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ...analysis.invariants import JudgedRun
from ...errors import InvestigationError
from ...study.capture import CaseRun


@dataclass(frozen=True)
class SweepRecord:
    """One plan on one release: the cases that break an invariant, and what the user met."""

    sdk_version: str
    plan: str
    mode: str
    response_store: bool | None
    trigger: str
    session: str
    cases: int
    violating: int
    invariants: str  # the invariants broken, space-separated, in the study's order
    raised_at: str  # the stage of the first refusal the user meets ("" when none)
    endpoint: str
    api_message: str  # the API's message, the call id as the stand-in numbered it
    not_applicable: str
    # What the driver added to the plan for the release to run it (a field the release
    # requires, an option it lacks left out), in words; "" when it ran as planned.
    configured: str = ""


class SweepPlan(Protocol):
    """What a record reads of any driver's plan (any SDK's driver)."""

    @property
    def label(self) -> str: ...
    @property
    def mode(self) -> str: ...
    @property
    def response_store(self) -> bool | None: ...
    @property
    def trigger(self) -> str | int: ...
    @property
    def session(self) -> str: ...
    @property
    def process(self) -> bool: ...


def record(plan: SweepPlan, judged: Sequence[JudgedRun]) -> SweepRecord:
    """A plan's judged runs as one record (any driver's: the SDK's name is the runs')."""
    runs = [j.run for j in judged]
    broken = [j for j in judged if j.violations]
    names = [v.invariant for v in judged[0].verdicts] if judged else []
    violated = {v.invariant for j in broken for v in j.violations}
    refused = next(
        (s for r in runs for s in r.stages if not s.outcome.ok), None
    )  # the first case's first refusal: every refused case in a plan meets the same
    na = next((r.not_applicable for r in runs if r.not_applicable), None) or never_compacted(runs)
    errors = [r.error for r in runs if r.error]
    return SweepRecord(
        sdk_version=runs[0].sdk_version if runs else "",
        plan=plan.label,
        mode=plan.mode,
        response_store=plan.response_store,
        trigger=str(plan.trigger),
        session="process" if plan.process else plan.session,
        cases=len(runs),
        violating=len(broken),
        invariants=" ".join(n for n in names if n in violated),
        raised_at=refused.name if refused else "",
        endpoint=refused.outcome.endpoint if refused else "",
        api_message=refused.outcome.api_message if refused else "",
        not_applicable=na or (errors[0] if errors else ""),
        configured=next((r.configured for r in runs if r.configured), ""),
    )


NEVER_COMPACTED = "compaction never ran in a case that turns it on"


def never_compacted(runs: Sequence[CaseRun]) -> str:
    """``NEVER_COMPACTED`` when cases turn compaction on and no stage of any of them gave the
    compaction step anything (the release ignores the setting), else ""."""
    on = [r for r in runs if r.case.compaction == "on" and not r.error]
    ran = any(s.compaction_inputs for r in on for s in r.stages)
    return NEVER_COMPACTED if on and not ran else ""


def unavailable(version: str, plan: SweepPlan, why: str) -> SweepRecord:
    """A plan not run on a release that could not be installed, with the reason."""
    return SweepRecord(
        sdk_version=version,
        plan=plan.label,
        mode=plan.mode,
        response_store=plan.response_store,
        trigger=str(plan.trigger),
        session="process" if plan.process else plan.session,
        cases=0,
        violating=0,
        invariants="",
        raised_at="",
        endpoint="",
        api_message="",
        not_applicable=why,
    )


@dataclass(frozen=True)
class CheckRecord:
    """One tool on one subject: what ran, on how many files, and what it said."""

    subject: str  # ``pending``, ``stall``, ``both``, or ``tests``
    tool: str  # ``tsc``, ``prettier``, ``eslint``
    command: str  # the tool as the repository runs it, with the settings it reads
    files: int
    problems: int
    said: str  # the first problems, one a line (empty when none)


@dataclass(frozen=True)
class SdkTestRecord:
    """The regression test, in the SDK's own style, on one package: pinned or patched."""

    package: str
    tests: int
    passed: int
    failed: int


class SourceLineError(InvestigationError):
    """A piece of text the installed module does not hold (a release that changed it)."""
