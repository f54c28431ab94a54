"""Eras: runs of consecutive releases that behave alike, computed from the sweep.

A release's pattern is, for every case, the invariants it violates with the stages their
details name (``pause: pending-c1`` names ``pause``; an HTTP failure names its status), and how
many compaction requests each model's run of the case made. Consecutive releases with the same
pattern form one era, so an era boundary is a release where something observable changed.

Each era is then described by the journey of the call that was pending at the pause: at which
stage compaction received it without its output (the open call), and where its output went
without the call (the orphan): to compaction only, swallowed there and never stored or sent
unpaired, or stored and sent to the model, which the API refuses with HTTP 400. What reaches the
model (a failure the user sees) is kept apart from what reaches compaction only; the severity
is ``severity``'s, read from the same verdicts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pandas as pd

from ..study.capture import STAGES
from ..study.scenario import FIELD_NAMES
from ..study.words import MODELS
from .severity import release_severities
from .sweep import UNAVAILABLE, ReleaseRecord
from .tables import frame_records, release_order

HTTP_STATUS = re.compile(r"HTTP (\d{3})")
NEVER = "never"

# A case's pattern: its label, its violations as (invariant, stages), and per model its
# compaction requests; a release's pattern is its cases' patterns in case order.
Violations = tuple[tuple[str, tuple[str, ...]], ...]
CasePattern = tuple[str, Violations, tuple[tuple[str, int], ...]]
Pattern = tuple[CasePattern, ...]

# Where the pending call's pieces went, by invariant.
OPEN_CALL_TO_COMPACTION = ("compaction_input_complete",)
ORPHAN_TO_COMPACTION = ("compaction_input_paired",)
ORPHAN_STORED = ("stored_history_paired",)
ORPHAN_TO_MODEL = ("resumed_input_paired", "next_turn_input_paired")
NEXT_TURN = ("next_turn_accepted",)


def detail_stages(detail: str) -> tuple[str, ...]:
    """The stages a verdict's detail names, in stage order, and an HTTP status if it names one.

    ``"pause: pending-c1; resume: pending-c1"`` names ``pause, resume``; ``"HTTP 400: ..."``
    names ``HTTP 400``.
    """
    named = {part.split(": ", 1)[0].strip() for part in detail.split("; ")}
    stages = tuple(s for s in STAGES if s in named)
    status = HTTP_STATUS.search(detail)
    return (*stages, f"HTTP {status.group(1)}") if status else stages


def case_patterns(rows: Iterable[ReleaseRecord]) -> Pattern:
    """One release's records as its pattern: per case, violations with stages and requests."""
    cases: dict[tuple[str, ...], list[ReleaseRecord]] = {}
    for row in rows:
        cases.setdefault(row.case_key, []).append(row)
    out: list[CasePattern] = []
    for key, mine in cases.items():
        label = "/".join(key)
        if all(row.status == UNAVAILABLE for row in mine):
            out.append((label, ((UNAVAILABLE, ()),), ()))
            continue
        broken = tuple((r.invariant, detail_stages(r.detail)) for r in mine if r.holds is False)
        requests = tuple(sorted({(r.model, r.compaction_requests) for r in mine}))
        out.append((label, broken, requests))
    return tuple(out)


def release_patterns(frame: pd.DataFrame) -> dict[str, Pattern]:
    """Every release's pattern, in release order."""
    by_release: dict[str, list[ReleaseRecord]] = {}
    for row in frame_records(frame):
        by_release.setdefault(row.sdk_version, []).append(row)
    return {v: case_patterns(by_release[v]) for v in release_order(frame)}


@dataclass(frozen=True)
class Era:
    """Consecutive releases that share one pattern."""

    releases: tuple[str, ...]
    pattern: Pattern

    @property
    def span(self) -> str:
        """``0.8.0..0.22.0``, or the one release."""
        first, last = self.releases[0], self.releases[-1]
        return first if first == last else f"{first}..{last}"


def eras(frame: pd.DataFrame) -> list[Era]:
    """The sweep's releases grouped into eras: consecutive releases with the same pattern."""
    groups: list[tuple[list[str], Pattern]] = []
    for version, pattern in release_patterns(frame).items():
        if groups and groups[-1][1] == pattern:
            groups[-1][0].append(version)
        else:
            groups.append(([version], pattern))
    return [Era(tuple(versions), pattern) for versions, pattern in groups]


def _stages(era: Era, invariants: Sequence[str]) -> str:
    """The stages where any case of the era violates one of ``invariants``, or ``never``."""
    found = {
        s for _, broken, _ in era.pattern for name, st in broken if name in invariants for s in st
    }
    order = [*STAGES, *sorted(found - set(STAGES))]
    return ", ".join(s for s in order if s in found) or NEVER


def _requests(era: Era) -> str:
    """Compaction requests per compaction-on case, per model: ``scripted 3, responses 3``."""
    on = FIELD_NAMES.index("compaction")
    by_model: dict[str, set[int]] = {}
    for label, _, requests in era.pattern:
        if label.split("/")[on] == "on":
            for model, count in requests:
                by_model.setdefault(model, set()).add(count)
    order = [*[m for m in MODELS if m in by_model], *sorted(set(by_model) - set(MODELS))]
    return ", ".join(f"{m} {' or '.join(map(str, sorted(by_model[m])))}" for m in order)


def orphan_journey(to_compaction: str, stored: str, to_model: str) -> str:
    """Where the orphan output went, in words, from the stages of each destination."""
    if to_compaction == stored == to_model == NEVER:
        return "no orphan output"
    if stored == to_model == NEVER:
        return f"to compaction at {to_compaction}, swallowed: never stored or sent unpaired"
    parts = [f"stored at {stored}"] if stored != NEVER else []
    parts += [f"sent to the model at {to_model}"] if to_model != NEVER else []
    parts += [f"to compaction at {to_compaction}"] if to_compaction != NEVER else []
    return ", ".join(parts)


def era_table(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per era: its releases, requests, where the pending call's pieces went, severity."""
    severities = release_severities(frame)
    rows = []
    for era in eras(frame):
        mine = severities.loc[list(era.releases)]
        to_compaction, stored = _stages(era, ORPHAN_TO_COMPACTION), _stages(era, ORPHAN_STORED)
        to_model = _stages(era, ORPHAN_TO_MODEL)
        affected = sum(1 for _, broken, _ in era.pattern if broken)
        rows.append(
            {
                "releases": era.span,
                "count": len(era.releases),
                "cases affected": f"{affected} of {len(era.pattern)}",
                "compaction requests per compaction-on case": _requests(era),
                "open call compacted at": _stages(era, OPEN_CALL_TO_COMPACTION),
                "orphan output": orphan_journey(to_compaction, stored, to_model),
                "reaches compaction": _reaches_compaction(era),
                "reaches the model": _reaches_model(to_model, _stages(era, NEXT_TURN), mine),
                "severity": ", ".join(dict.fromkeys(str(s) for s in mine["severity"])),
            }
        )
    return pd.DataFrame(rows).set_index("releases")


def _reaches_model(to_model: str, next_turn: str, severities: pd.DataFrame) -> str:
    if to_model == NEVER and next_turn == NEVER:
        return "nothing unpaired"
    failure = _failure(next_turn, severities)
    return f"orphan output at {to_model}" + (f": {failure}" if failure else "")


def _failure(next_turn: str, severities: pd.DataFrame) -> str:
    """How the next turn failed, and which model saw it; ``""`` when it was accepted."""
    status = [s for s in next_turn.split(", ") if s.startswith("HTTP")]
    if not status:
        return ""
    seen = ", ".join(dict.fromkeys(str(m) for m in severities["next_turn_seen_by"] if m))
    return f"the next turn fails with {', '.join(status)} ({seen} model)"


def _reaches_compaction(era: Era) -> str:
    """What compaction received unpaired, and at which stages."""
    parts = [
        f"{what} at {where}"
        for what, invariants in (
            ("open call", OPEN_CALL_TO_COMPACTION),
            ("orphan output", ORPHAN_TO_COMPACTION),
        )
        if (where := _stages(era, invariants)) != NEVER
    ]
    return "; ".join(parts) or "nothing unpaired"


def era_answer(frame: pd.DataFrame) -> str:
    """The eras in one sentence: each span, its size and its severity."""
    table = era_table(frame)
    parts = [
        f"{span} ({row['count']} release{'s' if row['count'] != 1 else ''}): {row['severity']}"
        for span, row in table.iterrows()
    ]
    return f"{int(table['count'].sum())} releases, {len(table)} eras: " + "; ".join(parts) + "."


def era_story(frame: pd.DataFrame) -> str:
    """Each era as a markdown bullet: where the pending call's pieces went, in words."""
    severities = release_severities(frame)
    lines = []
    for era in eras(frame):
        lines.append(f"- **{era.span}**: {_story(era, severities.loc[list(era.releases)])}.")
    return "\n".join(lines)


def _story(era: Era, severities: pd.DataFrame) -> str:
    open_call, to_compaction = (
        _stages(era, OPEN_CALL_TO_COMPACTION),
        _stages(era, ORPHAN_TO_COMPACTION),
    )
    stored, to_model = _stages(era, ORPHAN_STORED), _stages(era, ORPHAN_TO_MODEL)
    if NEVER == open_call == to_compaction == stored == to_model:
        return "nothing unpaired reaches compaction, the stored history or the model"
    said = f"compaction receives the open call at {open_call}" if open_call != NEVER else ""
    failure = _failure(_stages(era, NEXT_TURN), severities)
    if stored == to_model == NEVER:
        swallowed = (
            f"{said} and its orphan output at {to_compaction}, which swallows it: "
            "it is never stored or sent unpaired"
        )
        return (
            f"{swallowed}; {failure}" if failure else f"{swallowed}, and the next turn is accepted"
        )
    parts = [said] if said else []
    parts += [f"the orphan output is stored at {stored}"] if stored != NEVER else []
    parts += [f"sent to the model at {to_model}"] if to_model != NEVER else []
    text = "; ".join(parts[:1] + [", ".join(parts[1:])]) if len(parts) > 1 else parts[0]
    return f"{text}: {failure}" if failure else text
