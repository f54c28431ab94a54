"""Releases: what the sweep says, release by release, computed once from its records.

A release is *broken* for an invariant when any case violates it, as ``bisect`` judges it; each
invariant's ``Boundary`` is where it breaks and where it holds again. A release's ``Severity``,
in each compaction mode, is how the bug reaches the user: the first stage at which the user's
code raises (the pause: the compaction request is refused, so no state comes back; or the next
turn: the API refuses its input), as the sweep's runs over HTTP met it (``Meeting`` records), or
in the study's ``input`` mode without a refusal, only the compaction request carries the pending
call without its output (``compaction_input_complete``), or neither.

An ``Era`` is a run of consecutive releases with one pattern: for every case, the invariants it
violates with the stages their details name (``pause: pending-c1`` names ``pause``; an HTTP
failure names its status), how many compaction requests each model's run made, and in every
mode what the user met at each stage (the outcome, the refusal and the store's unpaired items).
An era is described by the journey of the call that was pending at the pause: where compaction
received it without its output, and where its output went without the call (to compaction only,
swallowed there, or stored and sent to the model, which the API refuses with HTTP 400); and per
compaction mode by a ``ModeStory``: where the user meets the refusal, with its text, whether the
human can still approve or reject, what the store holds and what the next turn does.
``ErrorMet`` is each refusal a user meets anywhere in the sweep, with every text it is raised as.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ...analysis.invariants import ACCEPTED, INVARIANTS
from ...study.capture import STAGES
from ...study.words import MODELS, STUDY_MODE
from ..releases.bisect import (
    Judgement,
    bisect,
    broken_spans,
    judge_rows,
    marked_ranges,
    release_range,
    spans,
)
from ..releases.meeting import MEETING_STAGES, RAISED, Meeting
from ..releases.probe import PROBE_MODES
from ..releases.sweep import UNAVAILABLE, ReleaseRecord
from ..releases.versions import sort_versions

NEVER = "never"
HTTP_STATUS = re.compile(r"HTTP (\d{3})")
PAUSE_FAILS = "the pause fails"
RESUME_FAILS = "the resume fails"
NEXT_TURN_FAILS = "the next turn fails"
# nothing is refused; what breaks is in the compaction requests (an open call, and in the
# study's first era its orphan output too: 05's journey table), so never "only"
COMPACTION_ONLY = "the stand-in refuses no request: compaction requests carry the open call"
UNAFFECTED = "neither"
SEVERITIES: tuple[str, ...] = (
    PAUSE_FAILS,
    RESUME_FAILS,
    NEXT_TURN_FAILS,
    COMPACTION_ONLY,
    UNAFFECTED,
)
FAILS_AT: dict[str, str] = dict(zip(MEETING_STAGES, SEVERITIES, strict=False))  # where it raises
_STAGE_ORDER: dict[str, int] = {stage: index for index, stage in enumerate(MEETING_STAGES)}

# Where the pending call's pieces went, by the invariants that see them.
OPEN_CALL_TO_COMPACTION = ("compaction_input_complete",)
ORPHAN_TO_COMPACTION = ("compaction_input_paired",)
ORPHAN_STORED = ("stored_history_paired",)
ORPHAN_TO_MODEL = ("resumed_input_paired", "next_turn_input_paired")
NEXT_TURN = ("next_turn_accepted",)

# A case's pattern: its label, its violations as (invariant, stages), and per model its
# compaction requests; a release's pattern is its cases' patterns in case order.
CasePattern = tuple[str, tuple[tuple[str, tuple[str, ...]], ...], tuple[tuple[str, int], ...]]
# What the user met in one mode and case: per stage its outcome, the refusal and the unpaired
# items the store held (texts that vary with the ``openai`` release are left out).
MeetingPattern = tuple[str, str, tuple[tuple[object, ...], ...]]
ReleasePattern = tuple[tuple[CasePattern, ...], tuple[MeetingPattern, ...]]


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
    """How one release reaches the user in one compaction mode (None: it could not be judged),
    and which models observed it."""

    release: str
    mode: str
    severity: str | None
    next_turn_seen_by: str


@dataclass(frozen=True)
class ModeStory:
    """One compaction mode in one era, in its compaction-on cases: how many cases of all raise,
    where (``never``), the refusals (``HTTP 400 from <endpoint>: <message>``), whether the human
    can still approve or reject after the pause, what the store holds after the pause, what the
    resume and the next turn do and what the store holds after it, and the severity. A value
    that differs between cases lists each."""

    span: str
    mode: str
    cases: int
    raising: int
    raises_at: str
    errors: str
    can_decide: str
    stored_after_pause: str
    resume: str
    next_turn: str
    stored_after_next_turn: str
    severity: str


@dataclass(frozen=True)
class ErrorMet:
    """One refusal a user meets in the sweep's runs: the API's message, the endpoint, status and
    exception, the stages and modes where it is met, the releases (spans), and every text the
    exception is raised with (it depends on the ``openai`` release)."""

    api_message: str
    endpoint: str
    http_status: int | None
    exception: str
    stages: str
    modes: str
    releases: str
    texts: tuple[str, ...]


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
    release's severity per mode, the eras, each era's story per mode, and every refusal met."""

    versions: tuple[str, ...]
    boundaries: tuple[Boundary, ...]
    bisections: tuple[Bisected, ...]
    severities: tuple[Severity, ...]
    eras: tuple[Era, ...]
    modes: tuple[str, ...] = (STUDY_MODE,)
    stories: tuple[ModeStory, ...] = ()
    errors: tuple[ErrorMet, ...] = ()


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


def _severity(
    met: Sequence[Meeting], accepted: Mapping[str, Judgement], complete: Judgement
) -> str | None:
    """The first stage where the user's code raises (from the meetings, else from the
    invariants the user sees), else whether only compaction received an open call."""
    raised = [m.stage for m in met if m.outcome == RAISED]
    if raised:
        return FAILS_AT[min(raised, key=_STAGE_ORDER.__getitem__)]
    if not met:
        if accepted.get("pause_accepted") is False:
            return PAUSE_FAILS
        if accepted.get("next_turn_accepted") is False:
            return NEXT_TURN_FAILS
    if complete is False:
        return COMPACTION_ONLY
    if not met and complete is None and all(v is None for v in accepted.values()):
        return None
    return UNAFFECTED


def meeting_patterns(met: Sequence[Meeting]) -> tuple[MeetingPattern, ...]:
    """One release's meetings as its pattern: per mode and case, each stage's outcome, refusal
    and unpaired stored items."""
    by: dict[tuple[str, str], list[tuple[object, ...]]] = {}
    for m in met:
        seen = (m.stage, m.outcome, m.exception, m.http_status, m.endpoint, m.api_message)
        by.setdefault((m.mode, m.label), []).append((*seen, m.open_calls, m.orphan_outputs))
    return tuple((mode, label, tuple(stages)) for (mode, label), stages in by.items())


def _each(values: Sequence[str]) -> str:
    """The distinct values in order of first appearance, joined (``never`` for none)."""
    return ", ".join(dict.fromkeys(v for v in values if v)) or NEVER


PAIRED = "nothing unpaired"


def _unpaired(m: Meeting) -> str:
    """What the store holds unpaired, in words: ``the call pending-c1 without its output``."""
    parts = [f"the call {m.open_calls} without its output"] if m.open_calls else []
    parts += [f"the output of {m.orphan_outputs} without its call"] if m.orphan_outputs else []
    return " and ".join(parts) or PAIRED


def refusal(m: Meeting) -> str:
    """A refusal in words: ``HTTP 400 from /v1/responses/compact: No tool output found ...``."""
    where = f" from {m.endpoint}" if m.endpoint else ""
    return f"HTTP {m.http_status}{where}: {m.api_message or m.message}"


def _story(span: str, mode: str, met: Sequence[Meeting], severity: str) -> ModeStory:
    labels = list(dict.fromkeys(m.label for m in met))
    on = [m for m in met if m.compaction == "on"]
    at = {stage: [m for m in on if m.stage == stage] for stage in MEETING_STAGES}
    raising = {m.label for m in met if m.outcome == RAISED}
    return ModeStory(
        span=span,
        mode=mode,
        cases=len(labels),
        raising=len(raising),
        raises_at=_each([m.stage for m in met if m.outcome == RAISED]),
        errors=_each([refusal(m) for m in met if m.outcome == RAISED]),
        can_decide=_each(["yes" if m.can_decide else "no" for m in at["pause"]]),
        stored_after_pause=_each([_unpaired(m) for m in at["pause"]]),
        resume=_each([m.outcome for m in at["resume"]]),
        next_turn=_each([m.outcome for m in at["next_turn"]]),
        stored_after_next_turn=_each([_unpaired(m) for m in at["next_turn"]]),
        severity=severity,
    )


def mode_stories(
    met: Sequence[Meeting], span: str, severities: Mapping[str, str] | None = None
) -> tuple[ModeStory, ...]:
    """Each mode's story over the meetings (of one release, or of one era's): its severity is
    the given one, else the first stage where a case raises (``neither``)."""
    stories = []
    for mode in PROBE_MODES:
        mine = [m for m in met if m.mode == mode]
        if mine:
            said = (severities or {}).get(mode) or _severity(mine, {}, None) or UNAFFECTED
            stories.append(_story(span, mode, mine, said))
    return tuple(stories)


def merge_errors(*found: Sequence[ErrorMet]) -> tuple[ErrorMet, ...]:
    """The refusals of several findings once each (the first one's places), every text kept."""
    merged: dict[tuple[str, str, int | None, str], ErrorMet] = {}
    for errors in found:
        for e in errors:
            key = (e.api_message, e.endpoint, e.http_status, e.exception)
            seen = merged.get(key)
            texts = (*seen.texts, *e.texts) if seen else e.texts
            merged[key] = replace(seen or e, texts=tuple(dict.fromkeys(texts)))
    return tuple(merged.values())


def errors_met(met: Sequence[Meeting], order: Sequence[str]) -> tuple[ErrorMet, ...]:
    """Every refusal in the meetings, once, with where it is met and each text it is raised as."""
    by: dict[tuple[str, str, int | None, str], list[Meeting]] = {}
    for m in met:
        if m.outcome == RAISED:
            by.setdefault((m.api_message, m.endpoint, m.http_status, m.exception), []).append(m)
    found = []
    for (message, endpoint, status, exception), mine in by.items():
        releases = {m.sdk_version for m in mine}
        ranges = marked_ranges(order, {v: v in releases for v in order})
        stages = [s for s in MEETING_STAGES if any(m.stage == s for m in mine)]
        modes = [m for m in PROBE_MODES if any(x.mode == m for x in mine)]
        texts = tuple(dict.fromkeys(m.message for m in mine))
        found.append(
            ErrorMet(
                message,
                endpoint,
                status,
                exception,
                ", ".join(stages),
                ", ".join(modes),
                ", ".join(ranges),
                texts,
            )
        )
    return tuple(found)


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


# How a model is named where an era counts its requests.
REQUEST_MODELS = {"scripted": "on the scripted model", "responses": "over HTTP"}


def _requests(pattern: tuple[CasePattern, ...]) -> str:
    """Compaction requests per compaction-on case, per model: ``3 on the scripted model, 3
    over HTTP``."""
    by_model: dict[str, set[int]] = {}
    for label, _, requests in pattern:
        if label.split("/")[2] == "on":  # the compaction choice
            for model, count in requests:
                by_model.setdefault(model, set()).add(count)
    order = [*[m for m in MODELS if m in by_model], *sorted(set(by_model) - set(MODELS))]
    return ", ".join(
        f"{' or '.join(map(str, sorted(by_model[m])))} {REQUEST_MODELS.get(m, m)}" for m in order
    )


def _era(versions: list[str], pattern: tuple[CasePattern, ...], severities: list[Severity]) -> Era:
    first, last = versions[0], versions[-1]
    return Era(
        span=release_range(first, last),
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


def releases_finding(
    rows: Sequence[ReleaseRecord], start: str | None = None, meetings: Sequence[Meeting] = ()
) -> Releases:
    """Every finding of the sweep's records and meetings, each computed once; ``bisect`` starts
    from ``start`` (the pinned release) as on the command line."""
    order = sort_versions(r.sdk_version for r in rows)
    by_release: dict[str, list[ReleaseRecord]] = {}
    for row in rows:
        by_release.setdefault(row.sdk_version, []).append(row)
    met: dict[tuple[str, str], list[Meeting]] = {}
    for meeting in meetings:
        met.setdefault((meeting.sdk_version, meeting.mode), []).append(meeting)
    modes = tuple(m for m in PROBE_MODES if m == STUDY_MODE or any(k[1] == m for k in met))
    deps = {
        v: f"openai {mine[0].openai}, pydantic {mine[0].pydantic}" for v, mine in by_release.items()
    }
    present = {row.invariant for row in rows}  # a sweep before the liveness ones has eight
    names = [name for name in INVARIANTS if name in present]
    judged = {name: judge_rows(rows, name) for name in names}
    seen_by = {
        v: ", ".join(sorted({r.model for r in mine if r.invariant in ACCEPTED} - {""}))
        for v, mine in by_release.items()
    }
    severities = [
        Severity(
            v,
            mode,
            _severity(
                met.get((v, mode), []),
                {name: judged[name].get(v) for name in ACCEPTED} if mode == STUDY_MODE else {},
                judged["compaction_input_complete"].get(v) if mode == STUDY_MODE else None,
            ),
            _each(sorted({m.model for m in met.get((v, mode), [])})).replace(NEVER, "")
            or (seen_by[v] if mode == STUDY_MODE else ""),
        )
        for v in order
        for mode in modes
    ]
    groups: list[tuple[list[int], ReleasePattern]] = []
    for index, version in enumerate(order):
        mine = [m for mode in modes for m in met.get((version, mode), [])]
        pattern = (case_patterns(by_release[version]), meeting_patterns(mine))
        if groups and groups[-1][1] == pattern:
            groups[-1][0].append(index)
        else:
            groups.append(([index], pattern))
    per_release = {(s.release, s.mode): s for s in severities}
    eras: list[Era] = []
    stories: list[ModeStory] = []
    for indexes, pattern in groups:
        versions = [order[i] for i in indexes]
        eras.append(_era(versions, pattern[0], [per_release[(v, STUDY_MODE)] for v in versions]))
        mine = [m for mode in modes for v in versions for m in met.get((v, mode), [])]
        said: dict[str, str] = {
            mode: _each([str(per_release[(v, mode)].severity) for v in versions]) for mode in modes
        }
        stories.extend(mode_stories(mine, eras[-1].span, said))
    boundaries = [_boundary(n, order, judged[n], deps) for n in names]
    return Releases(
        versions=tuple(order),
        boundaries=tuple(boundaries),
        bisections=tuple(_bisected(b, order, judged[b.invariant], start) for b in boundaries),
        severities=tuple(severities),
        eras=tuple(eras),
        modes=modes,
        stories=tuple(stories),
        errors=errors_met(meetings, order),
    )


# What the user meets, by where the first 400 comes: the words of the tables' cells (both SDKs).
MEETS: dict[str, str] = {
    PAUSE_FAILS: "400 at the pause: Runner.run raises, nothing to approve",
    RESUME_FAILS: "400 at the resume",
    NEXT_TURN_FAILS: "400 on the next question, after the decision",
    # r15: "no error" read as the API accepting it; the stand-in does not judge that request
    COMPACTION_ONLY: (
        "no error from the stand-in (the compaction request holds the open call;"
        " no public source shows the compaction endpoint's answer to it)"
    ),
    UNAFFECTED: "no error in these cases",
}
