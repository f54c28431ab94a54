"""The sweep's findings on hand-built records: each invariant's boundary and its bisection, each
release's severity, and the eras (consecutive releases with one pattern group together, and a
change in a violated invariant, a detail's stage or a request count starts a new era)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from factories import release_record

from approval_compaction.analysis.invariants import ACCEPTED, INVARIANTS
from approval_compaction.lab.findings.releases import (
    COMPACTION_ONLY,
    NEVER,
    NEXT_TURN_FAILS,
    PAUSE_FAILS,
    UNAFFECTED,
    Era,
    Releases,
    detail_stages,
    releases_finding,
)
from approval_compaction.lab.releases.bisect import Judgement
from approval_compaction.lab.releases.meeting import Meeting
from approval_compaction.lab.releases.sweep import ReleaseRecord, unavailable_records
from approval_compaction.study.scenario import Case, all_cases

HTTP_400 = "HTTP 400: openai.BadRequestError: No tool call found for call_id c1."
# What the compaction-on case shows in each kind of release: violated invariant -> detail.
SWALLOWED = {
    "compaction_input_complete": "pause: c1",
    "compaction_input_paired": "resume: c1",
}
SENT = {
    "compaction_input_complete": "pause: c1",
    "compaction_input_paired": "next_turn: c1",
    "stored_history_paired": "resume: c1",
    "next_turn_input_paired": "next_turn: c1",
    "next_turn_accepted": HTTP_400,
}
FIXED: dict[str, str] = {}


def release(version: str, broken: dict[str, str], requests: int, **on: Any) -> list[ReleaseRecord]:
    """One release: a compaction-on case with ``broken`` invariants (and ``requests`` compaction
    requests), and a compaction-off control where everything holds."""
    rows = []
    for compaction in ("on", "off"):
        for name in INVARIANTS:
            detail = broken.get(name, "") if compaction == "on" else ""
            model = "responses" if name in ACCEPTED else "scripted"
            rows.append(
                release_record(
                    sdk_version=version,
                    compaction=compaction,
                    invariant=name,
                    model=model,
                    holds=not detail,
                    detail=detail,
                    status="violated" if detail else "holds",
                    compaction_requests=requests if compaction == "on" else 0,
                    **(on if compaction == "on" else {}),
                )
            )
    return rows


def found(*releases: list[ReleaseRecord]) -> Releases:
    return releases_finding([row for rows in releases for row in rows])


def eras(*releases: list[ReleaseRecord]) -> list[Era]:
    return list(found(*releases).eras)


THREE_ERAS = (
    release("0.1.0", SWALLOWED, 3),
    release("0.1.1", SWALLOWED, 3),
    release("0.2.0", SENT, 2),
    release("0.3.0", FIXED, 1),
)


def test_eras_group_consecutive_releases_with_one_pattern() -> None:
    assert [(e.span, e.count) for e in eras(*THREE_ERAS)] == [
        ("0.1.0..0.1.1", 2),
        ("0.2.0", 1),
        ("0.3.0", 1),
    ]


def test_eras_the_same_pattern_apart_is_two_eras() -> None:
    """An era is consecutive: a pattern that comes back after another is a new era."""
    apart = eras(
        release("0.1.0", SWALLOWED, 3), release("0.2.0", SENT, 2), release("0.3.0", SWALLOWED, 3)
    )
    assert [e.span for e in apart] == ["0.1.0", "0.2.0", "0.3.0"]


@pytest.mark.parametrize(
    "second",
    [
        release("0.1.1", SWALLOWED, 2),
        release("0.1.1", {**SWALLOWED, "compaction_input_paired": "next_turn: c1"}, 3),
        release("0.1.1", {"compaction_input_complete": "pause: c1"}, 3),
    ],
    ids=["request-count", "detail-stage", "violated-invariant"],
)
def test_eras_a_change_in_the_pattern_starts_a_new_era(second: list[ReleaseRecord]) -> None:
    assert len(eras(release("0.1.0", SWALLOWED, 3), second)) == 2


def test_eras_ignore_call_ids_and_http_wording() -> None:
    """Only the stages a detail names count, so another call id or message is the same era."""
    other = {k: v.replace("c1", "c9") for k, v in SENT.items()}
    other["next_turn_accepted"] = "HTTP 400: openai.BadRequestError: something else"
    assert len(eras(release("0.2.0", SENT, 2), release("0.2.1", other, 2))) == 1


def test_eras_describe_where_the_pending_calls_pieces_went() -> None:
    swallowed, sent, fixed = eras(*THREE_ERAS)
    assert [(e.cases, e.affected) for e in (swallowed, sent, fixed)] == [(2, 1), (2, 1), (2, 0)]
    assert [e.open_call for e in (swallowed, sent, fixed)] == ["pause", "pause", NEVER]
    assert (swallowed.orphan_to_compaction, swallowed.orphan_stored) == ("resume", NEVER)
    assert (swallowed.orphan_to_model, swallowed.next_turn) == (NEVER, NEVER)
    assert (swallowed.severity, swallowed.failure) == (COMPACTION_ONLY, "")
    assert (sent.orphan_to_compaction, sent.orphan_stored) == ("next_turn", "resume")
    assert (sent.orphan_to_model, sent.next_turn) == ("next_turn", "HTTP 400")
    assert (sent.severity, sent.seen_by) == (NEXT_TURN_FAILS, "responses")
    assert sent.failure == "the next turn fails with HTTP 400 (responses model)"
    assert fixed.orphan_to_compaction == fixed.orphan_stored == fixed.orphan_to_model == NEVER
    assert fixed.severity == UNAFFECTED
    assert [e.requests for e in (swallowed, sent, fixed)] == [
        "3 on the scripted model, 3 over HTTP",
        "2 on the scripted model, 2 over HTTP",
        "1 on the scripted model, 1 over HTTP",
    ]


def test_eras_requests_are_per_compaction_on_case_and_model() -> None:
    rows = [
        replace(r, compaction_requests=1) if r.model == "responses" and r.compaction == "on" else r
        for r in release("0.1.0", SWALLOWED, 3)
    ]
    assert eras(rows)[0].requests == "3 on the scripted model, 1 over HTTP"


def test_eras_unavailable_release_is_its_own_era() -> None:
    down = unavailable_records("0.1.1", "no wheel", [Case(compaction="on"), Case(compaction="off")])
    spans = [
        e.span for e in eras(release("0.1.0", SWALLOWED, 3), down, release("0.1.2", SWALLOWED, 3))
    ]
    assert spans == ["0.1.0", "0.1.1", "0.1.2"]


def test_severities_name_how_each_release_reaches_the_user() -> None:
    severities = found(*THREE_ERAS).severities
    assert [(s.release, s.severity) for s in severities] == [
        ("0.1.0", COMPACTION_ONLY),
        ("0.1.1", COMPACTION_ONLY),
        ("0.2.0", NEXT_TURN_FAILS),
        ("0.3.0", UNAFFECTED),
    ]
    assert {s.next_turn_seen_by for s in severities} == {"responses"}


@pytest.mark.parametrize(
    ("detail", "stages"),
    [
        ("pause: c1", ("pause",)),
        ("next_turn: c2; pause: c1; resume: c1", ("pause", "resume", "next_turn")),
        (HTTP_400, ("HTTP 400",)),
        ("predicted by the stand-in's rules: HTTP 400: no call", ("HTTP 400",)),
        ("", ()),
    ],
    ids=["one", "several-in-stage-order", "http", "predicted", "empty"],
)
def test_eras_detail_stages(detail: str, stages: tuple[str, ...]) -> None:
    assert detail_stages(detail) == stages


def boundary_records(
    pattern: dict[str, Judgement], broken_cases: int | None = None
) -> list[ReleaseRecord]:
    """Sweep records where only next_turn_input_paired follows the pattern; the rest hold.

    With ``broken_cases``, a broken release violates it in that many cases only (the first ones).
    """
    status = {True: "holds", False: "violated", None: "not applicable"}
    rows = []
    for n, (version, holds) in enumerate(pattern.items()):
        for index, case in enumerate(all_cases()):
            for name in INVARIANTS:
                value = holds if name == "next_turn_input_paired" else True
                if value is False and broken_cases is not None and index >= broken_cases:
                    value = True
                rows.append(
                    release_record(
                        sdk_version=version,
                        **case.as_dict(),
                        invariant=name,
                        holds=value,
                        status=status[value],
                        openai=f"3.{n}.0",
                        pydantic="2.13.0",
                    )
                )
    return rows


def test_boundaries_name_each_edge_with_its_dependencies() -> None:
    versions = {"0.1.0": True, "0.2.0": None, "0.3.0": False, "0.10.0": False, "0.11.0": True}
    sweep = releases_finding(boundary_records(versions), start="0.3.0")
    edge = sweep.boundaries[INVARIANTS.index("next_turn_input_paired")]
    assert (edge.last_holding, edge.first_broken) == ("0.1.0", "0.3.0")
    assert (edge.last_broken, edge.holds_again) == ("0.10.0", "0.11.0")
    assert (edge.broken_ranges, edge.broken_releases) == (1, 2)
    assert edge.first_broken_deps == "openai 3.2.0, pydantic 2.13.0"
    assert edge.holds_again_deps == "openai 3.4.0, pydantic 2.13.0"
    assert sweep.versions == ("0.1.0", "0.2.0", "0.3.0", "0.10.0", "0.11.0")
    assert {b.broken_ranges for b in sweep.boundaries if b is not edge} == {0}
    assert all(b.agrees_with_sweep for b in sweep.bisections)
    found_edge = sweep.bisections[INVARIANTS.index("next_turn_input_paired")]
    assert (found_edge.first_broken, found_edge.holds_again) == ("0.3.0", "0.11.0")
    assert found_edge.probes == len(found_edge.probed.split(", "))


def test_boundaries_show_spans_when_broken_twice() -> None:
    versions = {"0.1.0": False, "0.2.0": True, "0.3.0": False, "0.4.0": True}
    sweep = releases_finding(boundary_records(versions), start="0.3.0")
    edge = sweep.boundaries[0]
    assert edge.broken_ranges == 2 and edge.first_broken == ""
    assert edge.spans.startswith("broken 0.1.0 (1 release); holds  0.2.0 (1 release)")
    assert sweep.bisections[0].first_broken == "not contiguous"


def test_boundaries_still_broken_in_the_newest_release() -> None:
    edge = releases_finding(boundary_records({"0.1.0": True, "0.2.0": False})).boundaries[0]
    assert (edge.first_broken, edge.holds_again, edge.holds_again_deps) == ("0.2.0", "", "")
    assert edge.first_broken_deps == "openai 3.1.0, pydantic 2.13.0"


def test_boundaries_are_in_release_order_not_text_order() -> None:
    sweep = releases_finding(boundary_records({"0.10.0": True, "0.9.0": True, "0.9.1": True}))
    assert sweep.versions == ("0.9.0", "0.9.1", "0.10.0")
    assert {b.broken_ranges for b in sweep.boundaries} == {0}


def test_boundaries_any_violating_case_breaks_the_release() -> None:
    edge = releases_finding(boundary_records({"0.1.0": True, "0.2.0": False}, 1)).boundaries[0]
    assert (edge.first_broken, edge.broken_releases) == ("0.2.0", 1)


# --- what the user meets, by mode ------------------------------------------------------------

REFUSED = "No tool output found for function call c1."


def met(version: str, mode: str, stage: str, outcome: str, **fields: Any) -> Meeting:
    values: dict[str, Any] = {
        "sdk_version": version,
        "model": "responses",
        "mode": mode,
        "compact_rules": "faithful",
        "runner": "run",
        "decision": "approve",
        "compaction": "on",
        "state_boundary": "json",
        "stage": stage,
        "outcome": outcome,
        "can_decide": outcome == "paused",
        "exception": "",
        "http_status": None,
        "endpoint": "",
        "message": "",
        "api_message": "",
        "stored_items": 2,
        "open_calls": "",
        "orphan_outputs": "",
        "compaction_requests": 1,
    }
    return Meeting(**{**values, **fields})


def refused_pause(version: str, mode: str, text: str = "Error code: 400 - a") -> list[Meeting]:
    """A pause the compaction endpoint refused, then the next question answered."""
    error = {
        "exception": "openai.BadRequestError",
        "http_status": 400,
        "endpoint": "/v1/responses/compact",
        "api_message": REFUSED,
        "message": text,
    }
    return [
        met(version, mode, "pause", "raised", open_calls="c1", **error),
        met(version, mode, "resume", "not run", stored_items=0),
        met(version, mode, "next_turn", "answered"),
    ]


def answered(version: str, mode: str) -> list[Meeting]:
    return [
        met(version, mode, "pause", "paused", open_calls="c1"),
        met(version, mode, "resume", "answered"),
        met(version, mode, "next_turn", "answered"),
    ]


def test_severities_are_per_mode_from_what_the_user_met() -> None:
    rows = [*release("0.1.0", SWALLOWED, 3), *release("0.2.0", FIXED, 1)]
    meetings = [
        *answered("0.1.0", "input"),
        *refused_pause("0.1.0", "auto"),
        *answered("0.2.0", "input"),
        *answered("0.2.0", "auto"),
    ]
    found = releases_finding(rows, meetings=meetings)
    assert found.modes == ("input", "auto")
    assert [(s.release, s.mode, s.severity) for s in found.severities] == [
        ("0.1.0", "input", COMPACTION_ONLY),
        ("0.1.0", "auto", PAUSE_FAILS),
        ("0.2.0", "input", UNAFFECTED),
        ("0.2.0", "auto", UNAFFECTED),
    ]


def test_stories_say_where_the_user_meets_the_refusal_and_what_is_left() -> None:
    rows = release("0.1.0", SWALLOWED, 3)
    found = releases_finding(
        rows, meetings=[*answered("0.1.0", "input"), *refused_pause("0.1.0", "auto")]
    )
    story = {s.mode: s for s in found.stories}
    auto = story["auto"]
    assert (auto.span, auto.raises_at, auto.can_decide, auto.resume) == (
        "0.1.0",
        "pause",
        "no",
        "not run",
    )
    assert auto.errors == f"HTTP 400 from /v1/responses/compact: {REFUSED}"
    assert (auto.stored_after_pause, auto.next_turn) == (
        "the call c1 without its output",
        "answered",
    )
    assert (auto.raising, auto.cases, auto.severity) == (1, 1, PAUSE_FAILS)
    assert (story["input"].raises_at, story["input"].can_decide) == (NEVER, "yes")


def test_eras_split_where_only_what_the_user_meets_changes() -> None:
    """Two releases with the same invariants are two eras when a mode meets something else."""
    rows = [*release("0.1.0", SWALLOWED, 3), *release("0.1.1", SWALLOWED, 3)]
    meetings = [*refused_pause("0.1.0", "auto"), *answered("0.1.1", "auto")]
    assert [e.span for e in releases_finding(rows, meetings=meetings).eras] == ["0.1.0", "0.1.1"]
    same = [*refused_pause("0.1.0", "auto"), *refused_pause("0.1.1", "auto", "Error code: 400 - b")]
    assert len(releases_finding(rows, meetings=same).eras) == 1  # the exception's text aside


def test_errors_met_once_each_with_every_text_and_their_releases() -> None:
    rows = [
        *release("0.1.0", SWALLOWED, 3),
        *release("0.1.1", SWALLOWED, 3),
        *release("0.2.0", FIXED, 1),
    ]
    meetings = [
        *refused_pause("0.1.0", "auto", "Error code: 400 - a"),
        *refused_pause("0.1.1", "previous_response_id", "Error code: 400 - b"),
        *answered("0.2.0", "auto"),
    ]
    (error,) = releases_finding(rows, meetings=meetings).errors
    assert (error.api_message, error.endpoint, error.http_status) == (
        REFUSED,
        "/v1/responses/compact",
        400,
    )
    assert (error.stages, error.modes, error.releases) == (
        "pause",
        "auto, previous_response_id",
        "0.1.0..0.1.1",
    )
    assert error.texts == ("Error code: 400 - a", "Error code: 400 - b")
