"""Releases: what the sweep says, release by release, computed once from its records.

A release is *broken* for an invariant when any case violates it, as ``bisect`` judges it; each
invariant's ``Boundary`` is where it breaks and where it holds again. A release's ``Severity``
is how the bug reaches the user: the next turn fails with the API's 400 (``next_turn_accepted``
violated, observed over HTTP where the release ran the responses model), or only the compaction
request carries the pending call without its output (``compaction_input_complete``), or neither.

An ``Era`` is a run of consecutive releases with one pattern: for every case, the invariants it
violates with the stages their details name (``pause: pending-c1`` names ``pause``; an HTTP
failure names its status), and how many compaction requests each model's run made. An era is
described by the journey of the call that was pending at the pause: where compaction received
it without its output, and where its output went without the call (to compaction only,
swallowed there, or stored and sent to the model, which the API refuses with HTTP 400).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..analysis.invariants import INVARIANTS
from ..releases.bisect import Judgement, bisect, broken_spans, judge_rows, spans
from ..releases.sweep import UNAVAILABLE, ReleaseRecord
from ..releases.versions import sort_versions
from ..study.capture import STAGES
from ..study.words import MODELS

NEVER = "never"
HTTP_STATUS = re.compile(r"HTTP (\d{3})")
NEXT_TURN_FAILS = "the next turn fails with HTTP 400"
COMPACTION_ONLY = "only the compaction request carries an open call"
UNAFFECTED = "neither"
SEVERITIES: tuple[str, ...] = (NEXT_TURN_FAILS, COMPACTION_ONLY, UNAFFECTED)

# Where the pending call's pieces went, by the invariants that see them.
OPEN_CALL_TO_COMPACTION = ("compaction_input_complete",)
ORPHAN_TO_COMPACTION = ("compaction_input_paired",)
ORPHAN_STORED = ("stored_history_paired",)
ORPHAN_TO_MODEL = ("resumed_input_paired", "next_turn_input_paired")
NEXT_TURN = ("next_turn_accepted",)

# A case's pattern: its label, its violations as (invariant, stages), and per model its
# compaction requests; a release's pattern is its cases' patterns in case order.
CasePattern = tuple[str, tuple[tuple[str, tuple[str, ...]], ...], tuple[tuple[str, int], ...]]


@dataclass(frozen=True)
class Boundary:
    """One invariant across the releases: how many broken ranges, and for one range its edges
    (the last release holding before it, its first and last, the first holding again), how many
    releases it spans and the dependencies its first broken and first repaired release resolved
    to; for several ranges, every span in words."""

    invariant: str
    broken_ranges: int
    last_holding: str = ""
    first_broken: str = ""
    last_broken: str = ""
    holds_again: str = ""
    spans: str = ""
    broken_releases: int = 0
    first_broken_deps: str = ""
    holds_again_deps: str = ""


@dataclass(frozen=True)
class Severity:
    """How one release reaches the user (None: it could not be judged), and which models
    observed its next turn."""

    release: str
    severity: str | None
    next_turn_seen_by: str


@dataclass(frozen=True)
class Era:
    """Consecutive releases with one pattern: how many cases it affects, the compaction requests
    per compaction-on case and model, the stages where compaction received the open call and
    where the orphan output went (``never``: nowhere), the next turn's failure, the severities
    and the models that observed the next turn."""

    span: str
    count: int
    cases: int
    affected: int
    requests: str
    open_call: str
    orphan_to_compaction: str
    orphan_stored: str
    orphan_to_model: str
    next_turn: str
    severity: str
    seen_by: str

    @property
    def failure(self) -> str:
        """How the next turn failed and which model saw it; ``""`` when it was accepted."""
        status = [s for s in self.next_turn.split(", ") if s.startswith("HTTP")]
        return (
            f"the next turn fails with {', '.join(status)} ({self.seen_by} model)" if status else ""
        )


@dataclass(frozen=True)
class Bisected:
    """``bisect`` on the sweep's results for one invariant, as the command would run it: the
    boundaries it finds (``not contiguous`` when its results are not one range), the releases it
    probed, and whether it agrees with the sweep's boundary."""

    invariant: str
    first_broken: str
    holds_again: str
    probes: int
    probed: str
    agrees_with_sweep: bool


@dataclass(frozen=True)
class Releases:
    """The sweep: the releases in order, each invariant's boundary and its bisection, each
    release's severity, and the eras."""

    versions: tuple[str, ...]
    boundaries: tuple[Boundary, ...]
    bisections: tuple[Bisected, ...]
    severities: tuple[Severity, ...]
    eras: tuple[Era, ...]


def detail_stages(detail: str) -> tuple[str, ...]:
    """The stages a verdict's detail names, in stage order, and an HTTP status if it names one.

    ``"pause: pending-c1; resume: pending-c1"`` names ``pause, resume``; ``"HTTP 400: ..."``
    names ``HTTP 400``.
    """
    named = {part.split(": ", 1)[0].strip() for part in detail.split("; ")}
    stages = tuple(s for s in STAGES if s in named)
    status = HTTP_STATUS.search(detail)
    return (*stages, f"HTTP {status.group(1)}") if status else stages


def case_patterns(rows: Sequence[ReleaseRecord]) -> tuple[CasePattern, ...]:
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


def _boundary(
    name: str, order: list[str], judged: Mapping[str, Judgement], deps: dict[str, str]
) -> Boundary:
    broken = broken_spans(order, judged)
    if len(broken) != 1:
        told = "; ".join(str(s) for s in spans(order, judged)) if broken else ""
        return Boundary(name, len(broken), spans=told)
    span = broken[0]
    after = [v for v in order[order.index(span.last) + 1 :] if judged.get(v) is not None]
    before = [v for v in order[: order.index(span.first)] if judged.get(v) is not None]
    again = after[0] if after else ""
    return Boundary(
        name,
        1,
        last_holding=before[-1] if before else "",
        first_broken=span.first,
        last_broken=span.last,
        holds_again=again,
        broken_releases=span.releases,
        first_broken_deps=deps[span.first],
        holds_again_deps=deps.get(again, ""),
    )


def _no_runs(version: str) -> bool | None:
    raise LookupError(f"{version} is not in the sweep's results")


def _bisected(
    edge: Boundary, order: list[str], judged: Mapping[str, Judgement], start: str | None
) -> Bisected:
    found = bisect(order, edge.invariant, _no_runs, sweep=judged, start=start)
    first = found.first_broken or "" if found.contiguous else "not contiguous"
    again = found.holds_again or ""
    same = (first, again) == (edge.first_broken, edge.holds_again) or edge.broken_ranges != 1
    probed = ", ".join(p.version for p in found.probes)
    return Bisected(edge.invariant, first, again, len(found.probes), probed, same)


def _severity(accepted: Judgement, complete: Judgement) -> str | None:
    if accepted is False:
        return NEXT_TURN_FAILS
    if complete is False:
        return COMPACTION_ONLY
    if accepted is None and complete is None:
        return None
    return UNAFFECTED


def _stages(pattern: tuple[CasePattern, ...], invariants: Sequence[str]) -> str:
    """The stages where any case violates one of ``invariants``, or ``never``."""
    found = {
        s
        for _, broken, _ in pattern
        for name, stages in broken
        if name in invariants
        for s in stages
    }
    order = [*STAGES, *sorted(found - set(STAGES))]
    return ", ".join(s for s in order if s in found) or NEVER


def _requests(pattern: tuple[CasePattern, ...]) -> str:
    """Compaction requests per compaction-on case, per model: ``scripted 3, responses 3``."""
    by_model: dict[str, set[int]] = {}
    for label, _, requests in pattern:
        if label.split("/")[2] == "on":  # the compaction choice
            for model, count in requests:
                by_model.setdefault(model, set()).add(count)
    order = [*[m for m in MODELS if m in by_model], *sorted(set(by_model) - set(MODELS))]
    return ", ".join(f"{m} {' or '.join(map(str, sorted(by_model[m])))}" for m in order)


def _era(versions: list[str], pattern: tuple[CasePattern, ...], severities: list[Severity]) -> Era:
    first, last = versions[0], versions[-1]
    return Era(
        span=first if first == last else f"{first}..{last}",
        count=len(versions),
        cases=len(pattern),
        affected=sum(1 for _, broken, _ in pattern if broken),
        requests=_requests(pattern),
        open_call=_stages(pattern, OPEN_CALL_TO_COMPACTION),
        orphan_to_compaction=_stages(pattern, ORPHAN_TO_COMPACTION),
        orphan_stored=_stages(pattern, ORPHAN_STORED),
        orphan_to_model=_stages(pattern, ORPHAN_TO_MODEL),
        next_turn=_stages(pattern, NEXT_TURN),
        severity=", ".join(dict.fromkeys(str(s.severity) for s in severities)),
        seen_by=", ".join(
            dict.fromkeys(s.next_turn_seen_by for s in severities if s.next_turn_seen_by)
        ),
    )


def releases_finding(rows: Sequence[ReleaseRecord], start: str | None = None) -> Releases:
    """Every finding of the sweep's records, each computed once; ``bisect`` starts from
    ``start`` (the pinned release) as on the command line."""
    order = sort_versions(r.sdk_version for r in rows)
    by_release: dict[str, list[ReleaseRecord]] = {}
    for row in rows:
        by_release.setdefault(row.sdk_version, []).append(row)
    deps = {
        v: f"openai {mine[0].openai}, pydantic {mine[0].pydantic}" for v, mine in by_release.items()
    }
    judged = {name: judge_rows(rows, name) for name in INVARIANTS}
    seen_by = {
        v: ", ".join(sorted({r.model for r in mine if r.invariant == "next_turn_accepted"} - {""}))
        for v, mine in by_release.items()
    }
    severities = [
        Severity(
            v,
            _severity(
                judged["next_turn_accepted"].get(v), judged["compaction_input_complete"].get(v)
            ),
            seen_by[v],
        )
        for v in order
    ]
    groups: list[tuple[list[int], tuple[CasePattern, ...]]] = []
    for index, version in enumerate(order):
        pattern = case_patterns(by_release[version])
        if groups and groups[-1][1] == pattern:
            groups[-1][0].append(index)
        else:
            groups.append(([index], pattern))
    eras = [
        _era([order[i] for i in indexes], pattern, [severities[i] for i in indexes])
        for indexes, pattern in groups
    ]
    boundaries = [_boundary(n, order, judged[n], deps) for n in INVARIANTS]
    return Releases(
        versions=tuple(order),
        boundaries=tuple(boundaries),
        bisections=tuple(_bisected(b, order, judged[b.invariant], start) for b in boundaries),
        severities=tuple(severities),
        eras=tuple(eras),
    )
