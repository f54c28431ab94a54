"""Eras on hand-built sweep records: consecutive releases with one pattern group together, and a
change in a violated invariant, a detail's stage or a request count starts a new era."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest
from factories import release_record

from approval_compaction.analysis.invariants import INVARIANTS
from approval_compaction.analysis.table import to_frame
from approval_compaction.releases.eras import (
    NEVER,
    detail_stages,
    era_answer,
    era_story,
    era_table,
    eras,
    orphan_journey,
)
from approval_compaction.releases.severity import COMPACTION_ONLY, NEXT_TURN_FAILS, UNAFFECTED
from approval_compaction.releases.sweep import ReleaseRecord, unavailable_records
from approval_compaction.study.scenario import Case

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
            model = "responses" if name == "next_turn_accepted" else "scripted"
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


def frame_of(*releases: list[ReleaseRecord]) -> pd.DataFrame:
    return to_frame([row for rows in releases for row in rows], ReleaseRecord)


THREE_ERAS = frame_of(
    release("0.1.0", SWALLOWED, 3),
    release("0.1.1", SWALLOWED, 3),
    release("0.2.0", SENT, 2),
    release("0.3.0", FIXED, 1),
)


def test_eras_group_consecutive_releases_with_one_pattern() -> None:
    assert [e.releases for e in eras(THREE_ERAS)] == [("0.1.0", "0.1.1"), ("0.2.0",), ("0.3.0",)]
    assert [e.span for e in eras(THREE_ERAS)] == ["0.1.0..0.1.1", "0.2.0", "0.3.0"]


def test_eras_the_same_pattern_apart_is_two_eras() -> None:
    """An era is consecutive: a pattern that comes back after another is a new era."""
    frame = frame_of(
        release("0.1.0", SWALLOWED, 3), release("0.2.0", SENT, 2), release("0.3.0", SWALLOWED, 3)
    )
    assert [e.span for e in eras(frame)] == ["0.1.0", "0.2.0", "0.3.0"]


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
    assert len(eras(frame_of(release("0.1.0", SWALLOWED, 3), second))) == 2


def test_eras_ignore_call_ids_and_http_wording() -> None:
    """Only the stages a detail names count, so another call id or message is the same era."""
    other = {k: v.replace("c1", "c9") for k, v in SENT.items()}
    other["next_turn_accepted"] = "HTTP 400: openai.BadRequestError: something else"
    assert len(eras(frame_of(release("0.2.0", SENT, 2), release("0.2.1", other, 2)))) == 1


def test_eras_table_describes_each_era_from_its_verdicts() -> None:
    table = era_table(THREE_ERAS)
    assert table.index.tolist() == ["0.1.0..0.1.1", "0.2.0", "0.3.0"]
    assert table["count"].tolist() == [2, 1, 1]
    assert table["cases affected"].tolist() == ["1 of 2", "1 of 2", "0 of 2"]
    assert table["open call compacted at"].tolist() == ["pause", "pause", NEVER]
    swallowed, sent, fixed = table.to_dict("records")
    assert swallowed["orphan output"].startswith("to compaction at resume, swallowed")
    assert swallowed["reaches the model"] == "nothing unpaired"
    assert swallowed["reaches compaction"] == "open call at pause; orphan output at resume"
    assert swallowed["severity"] == COMPACTION_ONLY
    assert sent["orphan output"] == (
        "stored at resume, sent to the model at next_turn, to compaction at next_turn"
    )
    assert sent["reaches the model"] == (
        "orphan output at next_turn: the next turn fails with HTTP 400 (responses model)"
    )
    assert sent["severity"] == NEXT_TURN_FAILS
    assert fixed["orphan output"] == "no orphan output" and fixed["severity"] == UNAFFECTED


def test_eras_requests_are_per_compaction_on_case_and_model() -> None:
    frame = frame_of(release("0.1.0", SWALLOWED, 3))
    frame.loc[
        frame["model"].eq("responses") & frame["compaction"].eq("on"), "compaction_requests"
    ] = 1
    column = era_table(frame)["compaction requests per compaction-on case"]
    assert column.tolist() == ["scripted 3, responses 1"]


def test_eras_unavailable_release_is_its_own_era() -> None:
    down = unavailable_records("0.1.1", "no wheel", [Case(compaction="on"), Case(compaction="off")])
    frame = frame_of(release("0.1.0", SWALLOWED, 3), down, release("0.1.2", SWALLOWED, 3))
    assert [e.span for e in eras(frame)] == ["0.1.0", "0.1.1", "0.1.2"]


def test_eras_answer_is_computed_from_the_table() -> None:
    assert era_answer(THREE_ERAS) == (
        f"4 releases, 3 eras: 0.1.0..0.1.1 (2 releases): {COMPACTION_ONLY}; "
        f"0.2.0 (1 release): {NEXT_TURN_FAILS}; 0.3.0 (1 release): {UNAFFECTED}."
    )


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


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ((NEVER, NEVER, NEVER), "no orphan output"),
        (
            ("resume", NEVER, NEVER),
            "to compaction at resume, swallowed: never stored or sent unpaired",
        ),
        ((NEVER, "resume", "next_turn"), "stored at resume, sent to the model at next_turn"),
    ],
    ids=["none", "swallowed", "sent"],
)
def test_eras_orphan_journey(where: tuple[str, str, str], words: str) -> None:
    assert orphan_journey(*where) == words


def test_eras_story_tells_each_era_from_its_stages() -> None:
    swallowed, sent, fixed = era_story(THREE_ERAS).splitlines()
    assert swallowed == (
        "- **0.1.0..0.1.1**: compaction receives the open call at pause and its orphan output at "
        "resume, which swallows it: it is never stored or sent unpaired, and the next turn is "
        "accepted."
    )
    assert sent == (
        "- **0.2.0**: compaction receives the open call at pause; the orphan output is stored at "
        "resume, sent to the model at next_turn: the next turn fails with HTTP 400 "
        "(responses model)."
    )
    assert (
        fixed
        == "- **0.3.0**: nothing unpaired reaches compaction, the stored history or the model."
    )


def test_eras_story_says_when_a_swallowed_orphan_still_fails_the_next_turn() -> None:
    """Were the API to refuse the next turn for another reason, the story must not say it is
    accepted."""
    frame = frame_of(release("0.1.0", {**SWALLOWED, "next_turn_accepted": HTTP_400}, 3))
    assert era_story(frame).endswith(
        "never stored or sent unpaired; the next turn fails with HTTP 400 (responses model)."
    )
