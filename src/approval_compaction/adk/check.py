"""ADK check: whether the bug strikes a team's own ``google-adk``, in its compaction kinds.

``doctor check --adk`` runs the project's ADK driver (``adk.harness``) with this interpreter, so
on the ``google-adk`` installed beside the doctor: it runs the team's installed code. In each
compaction kind asked for (``EventsCompactionConfig``'s sliding window of one invocation with an
overlap of 0 or 1 invocations, ``window-0`` and ``window-1``; its token threshold of one token
keeping 0 or 2 raw events, ``tokens-0`` and ``tokens-2``) the sixteen cases run: a question that
pauses on a tool that needs confirmation, the session kept in memory or in a SQLite file that a
second process resumes from, approve or reject, the resume and a next question. The study's
invariants judge each. Then the liveness situations (``adk.harness.SITUATIONS``) are each
continued for ``later`` questions and judged by the liveness rules. The model is the driver's
scripted ``BaseLlm`` and the summariser its scripted one: nothing leaves the process.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TextIO

from ..analysis.invariants import evaluate
from ..analysis.liveness import LivenessRun, SituationRow, situation_rows
from ..doctor.check import CheckError
from ..errors import InvestigationError
from ..study.capture import CaseRun
from .harness import SITUATIONS, DriverError, Plan, run_plans, run_situations
from .words import KINDS as ADK_KINDS
from .words import Kind as AdkKind

PACKAGE = "google-adk"
CONTROL = "clean"  # the situation with nothing pending: what every session does by design


@dataclass(frozen=True)
class KindRow:
    """The sixteen cases in one compaction kind: how many break an invariant, which, and what
    the user's ``Runner.run_async`` raised first ("" when nothing)."""

    kind: str
    cases: int
    violating: int
    invariants: str  # the broken invariants, space-separated
    raised: str  # "<stage>: <text>" of the first case that raised
    not_applicable: str  # what the release rejected of the kind ("" when it ran)


@dataclass(frozen=True)
class AdkCheck:
    """The check on one release: a row per kind, and per kind the liveness situations' rows."""

    release: str
    rows: tuple[KindRow, ...]
    situations: tuple[tuple[str, tuple[SituationRow, ...]], ...]  # (kind, its rows)

    @property
    def affected(self) -> bool:
        """Whether a case breaks an invariant, or a situation stops compacting, is refused or
        leaves a late answer unpaired, in any kind."""
        return any(row.violating for row in self.rows) or any(
            problems(rows) for _, rows in self.situations
        )


def kinds_of(word: str) -> tuple[AdkKind, ...]:
    """The kinds ``--kind`` names: one of ``ADK_KINDS``, or ``every``."""
    if word == "every":
        return ADK_KINDS
    for kind in ADK_KINDS:
        if word == kind:
            return (kind,)
    raise CheckError(f"--kind {word!r} is not one of: every, {', '.join(ADK_KINDS)}")


def kind_row(kind: str, runs: Sequence[CaseRun]) -> KindRow:
    """One kind's row, from its sixteen runs."""
    skipped = next((r.not_applicable for r in runs if r.not_applicable), "")
    broken = [(r, [v.invariant for v in evaluate(r) if v.holds is False]) for r in runs]
    violating = [(r, names) for r, names in broken if names]
    names = sorted({n for _, found in violating for n in found})
    raised = next(
        (f"{s.name}: {s.outcome.text}" for r in runs for s in r.stages if not s.outcome.ok), ""
    )
    return KindRow(kind, len(runs), len(violating), " ".join(names), raised, skipped)


def check_adk(kinds: Sequence[AdkKind], later: int, python: Path | None = None) -> AdkCheck:
    """The cases in each kind, and the liveness situations continued for ``later`` questions,
    on the ``google-adk`` beside ``python`` (default: this interpreter)."""
    interpreter = Path(sys.executable) if python is None else python
    cases = [Plan(kind=kind) for kind in kinds]
    lively = [Plan(kind=k, cases=(), situations=SITUATIONS, later=later) for k in kinds]
    try:
        ran = run_plans(cases, interpreter)
        lives: list[list[LivenessRun]] = run_situations(lively, interpreter) if later else []
    except DriverError as error:
        raise CheckError(f"{error} (is google-adk installed beside the doctor?)") from None
    release = next((r.sdk_version for runs in ran for r in runs if r.sdk_version), "")
    rows = tuple(kind_row(kind, runs) for kind, runs in zip(kinds, ran, strict=True))
    situations = tuple(
        (kind, tuple(situation_rows(runs, SITUATIONS)))
        for kind, runs in zip(kinds, lives, strict=True)
    )
    return AdkCheck(release, rows, situations)


# The words for a late answer and its call stored, sent or summarised apart (the verdict words').
SPLIT = "splits its call and late answer"


def _situation_problem(row: SituationRow, grows: bool) -> str:
    """What is wrong with one situation's later questions, in words ("" when nothing); with
    ``grows``, a history that grows as the control's does is ADK's design, not a problem."""
    if row.session_usable is False:
        return f"{row.situation} refused ({row.raised})"
    if row.late_resume not in ("", "paired"):
        return f"{row.situation} {SPLIT}"
    if not row.keeps_compacting and not grows:
        return f"{row.situation} stops compacting ({row.broken})"
    return ""


def _control_grows(rows: Sequence[SituationRow]) -> bool:
    """Whether the control's history grows too: a sliding window keeps every summary."""
    return any(r.situation == CONTROL and not r.keeps_compacting for r in rows)


def problems(rows: Sequence[SituationRow]) -> list[str]:
    """Each situation's problem in one kind, judged against the control's."""
    grows = _control_grows(rows)
    return [p for s in rows if s.situation != CONTROL and (p := _situation_problem(s, grows))]


def adk_answers(check: AdkCheck, later: int) -> list[str]:
    """One sentence per kind: the cases, then the situations' later questions."""
    answers = []
    lives = dict(check.situations)
    for row in check.rows:
        head = f"{PACKAGE} {check.release}, {row.kind}: "
        if row.not_applicable:
            answers.append(head + f"not run: {row.not_applicable}.")
            continue
        if row.violating:
            said = f"affected: {row.violating} of {row.cases} cases break an invariant"
            said += f" ({row.invariants})"
            said += f"; the first raised at the {row.raised}" if row.raised else ""
        else:
            said = f"no case of {row.cases} breaks an invariant"
        situations = lives.get(row.kind, ())
        found = problems(situations)
        if later and situations:
            grows = _control_grows(situations)
            tail = "; ".join(found) if found else "no situation does worse than the control"
            design = (
                " (the history grows in every session, the control's too: ADK's sliding window "
                "keeps each summary)"
                if grows
                else ""
            )
            said += f"; each situation continued for {later} later questions: {tail}{design}"
        answers.append(head + said + ".")
    return answers


def command(args: argparse.Namespace, out: TextIO) -> int:
    """``doctor check --adk``: a row per kind, then an answer per kind, as a table or JSON; the
    doctor's exit status (affected or healthy)."""
    from ..doctor import status

    if args.later < 0:
        raise InvestigationError("--later must be 0 or more")
    found = check_adk(kinds_of(args.kind), args.later)
    answers = adk_answers(found, args.later)
    code = status.AFFECTED if found.affected else status.HEALTHY
    if args.format == "json":
        value = {
            "release": found.release,
            "rows": [asdict(r) for r in found.rows],
            "liveness": {k: [asdict(s) for s in rows] for k, rows in found.situations},
            "answers": answers,
        }
        out.write(json.dumps(value, indent=2) + "\n")
        return code
    table = [list(asdict(found.rows[0]))] + [
        [str(v) for v in asdict(r).values()] for r in found.rows
    ]
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    for line in table:
        out.write("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)) + "\n")
    out.write("".join(answer + "\n" for answer in answers))
    return code
