"""Each renderer carries the facts of its record: the record's numbers and names appear."""

from __future__ import annotations

from dataclasses import replace

import pytest

from approval_compaction.lab.findings import prose
from approval_compaction.lab.findings.fix import Crosscheck
from approval_compaction.lab.findings.load import Findings, load_findings
from approval_compaction.lab.findings.matrix import Failure, Seen
from approval_compaction.lab.findings.releases import NEVER, Era, ErrorMet, ModeStory, Releases
from approval_compaction.wire.rules import ApiError


@pytest.fixture(scope="module")
def found() -> Findings:
    return load_findings()


def test_prose_matrix_and_workaround_carry_their_counts(found: Findings) -> None:
    assert found.pinned is not None and found.fixed is not None
    lines = prose.matrix_lines(found.pinned).splitlines()[1:]
    for line, count in zip(lines, found.pinned.invariants, strict=True):
        assert f"`{count.invariant}`" in line
        assert not count.violated or f"{count.violated} of {count.cases} cases: " in line
    fixed = prose.workaround_line(found.fixed)
    assert f"{found.fixed.violated} of {found.fixed.verdicts} " in fixed
    assert f"{found.fixed.compacting} of {found.fixed.compaction_on} " in fixed


def test_prose_seen_carries_each_error_and_the_agreement() -> None:
    failure = Failure("next_turn", "openai.BadRequestError", 400, "No tool call found")
    text = prose.seen_sentence(Seen(4, 2, (failure,), True, 3))
    assert text.startswith("2 of 4 cases")
    assert all(str(fact) in text for fact in (failure.exception, 400, failure.message))
    assert "in 3 of 4 cases" in text


def test_prose_releases_carry_edges_spans_and_severities(found: Findings) -> None:
    assert found.releases is not None
    said = prose.releases_sentence(found.releases)
    for edge in found.releases.boundaries:
        if edge.broken_ranges:
            assert f"{edge.invariant} is broken {edge.first_broken}..{edge.last_broken}" in said
    eras = prose.eras_sentence(found.releases)
    assert all(
        f"{e.span} ({e.count} release" in eras and e.severity in eras for e in found.releases.eras
    )
    severities = prose.severity_sentence(found.releases)
    assert "With `input`, the next turn fails on 0.22.1..0.23.1 (4 releases)" in severities
    assert "With `auto` and `previous_response_id`, the pause fails on 0.8.0..0.23.1" in severities


ERA = Era("0.1.0", 1, 2, 1, "scripted 3", "pause", "resume", NEVER, NEVER, NEVER, "", "")


def story(era: Era) -> str:
    return prose.era_story(Releases((), (), (), (), (era,)))


def test_prose_era_story_follows_the_pending_calls_pieces() -> None:
    assert "open call at pause and its orphan output at resume" in story(ERA)
    sent = replace(ERA, orphan_stored="resume", orphan_to_model="next_turn", next_turn="HTTP 400")
    assert "stored at resume, sent to the model at next_turn" in story(sent)


def test_prose_era_story_says_when_a_swallowed_orphan_still_fails_the_next_turn() -> None:
    """Were the API to refuse the next turn for another reason, the story must not say it is
    accepted."""
    failing = replace(ERA, next_turn="HTTP 400", seen_by="responses")
    assert failing.failure in story(failing) and "accepted" not in story(failing)


STORY = ModeStory(
    "0.1.0",
    "auto",
    16,
    8,
    "pause",
    "HTTP 400 from /v1/responses/compact: No tool output found for function call c1.",
    "no",
    "the call c1 without its output",
    "not run",
    "answered",
    "nothing unpaired",
    "the pause fails",
)


def test_prose_mode_story_carries_where_the_user_meets_the_refusal_and_after() -> None:
    text = prose.mode_story(STORY)
    assert f"at the pause in {STORY.raising} of {STORY.cases} cases" in text
    assert f"`{STORY.errors}`" in text and "nothing to approve or reject" in text
    assert STORY.stored_after_pause in text and STORY.stored_after_next_turn in text
    quiet = replace(STORY, raising=0, raises_at=NEVER, errors=NEVER, can_decide="yes")
    assert "no request is refused" in prose.mode_story(quiet)


def test_prose_meets_puts_the_sdk_default_first_and_groups_modes_that_read_the_same() -> None:
    both = [
        replace(STORY, mode="input", raising=0, raises_at=NEVER),
        STORY,
        replace(STORY, mode="previous_response_id"),
    ]
    said = prose.meets_sentence(both)
    assert said.startswith(
        "on openai-agents 0.1.0, with `auto` (the SDK's default) and `previous_response_id`"
    )
    assert "; with `input` (the original report's), no request is refused" in said


def test_prose_errors_met_lists_every_text_in_code_spans() -> None:
    error = ErrorMet(
        "No tool output found for function call c1.",
        "/v1/responses/compact",
        400,
        "openai.BadRequestError",
        "pause",
        "auto",
        "0.1.0..0.2.0",
        ("Error code: 400 - a", "Error code: 400 - b"),
    )
    line = prose.errors_met_lines([error])
    assert all(f"`{text}`" in line for text in (error.api_message, *error.texts))
    assert "HTTP 400 from `/v1/responses/compact` at the pause (`auto`; 0.1.0..0.2.0)" in line


def test_prose_mechanism_carries_function_blocks_and_lines(found: Findings) -> None:
    assert found.mechanism is not None
    text = prose.where_in_the_sdk(found.mechanism)
    m = found.mechanism
    assert all(f"`{fact}`" in text for fact in (m.function, m.old_block, m.new_block))
    assert f"(line {m.old_line})" in text and f"(line {m.new_line})" in text
    assert prose.where_in_the_sdk(None) == ""


def test_prose_error_fix_and_crosscheck_carry_messages_and_releases() -> None:
    error = ApiError(400, "No tool call found for function call output with call_id c1.")
    assert f"HTTP 400 `{error.message}`" in prose.error_sentence([error])
    assert "0.24.0" in prose.fixed_sentence("0.24.0") and prose.fixed_sentence(None) == ""
    text = prose.crosscheck_sentence(Crosscheck(("0.8.0", "0.10.0"), ("0.24.0",), 3, 4, ()))
    assert "2 releases (0.8.0 to 0.10.0)" in text and "in 3 of 4 " in text


def test_prose_doctor_answers_carry_their_records(found: Findings) -> None:
    assert found.affected and found.upgrade and found.worker and found.heal
    pinned, newest = found.affected
    affected = prose.affected_sentence(pinned, newest)
    assert f"after {', '.join(map(str, pinned.affected_at))} prior turns" in affected
    assert newest.release in affected
    upgrade = prose.upgrade_sentence(found.upgrade)
    assert found.upgrade.pinned in upgrade and found.upgrade.poisoned.orphan_outputs in upgrade
    assert all(
        r.stored_after_resume in prose.worker_sentence(found.worker) for r in found.worker.rows
    )
    heal = prose.heal_sentence(found.heal)
    assert f"{found.heal.items_restored_same} of {found.heal.items_compared} items" in heal


def test_prose_liveness_names_the_stuck_releases_and_the_pin_from_the_eras() -> None:
    """The words follow the record: each era's releases, what it breaks, the item pinning it;
    modes whose eras read the same are said together."""
    from approval_compaction.analysis.liveness import LivenessRun, LiveTurn, Pin, liveness_records
    from approval_compaction.lab.findings.liveness import liveness_eras
    from approval_compaction.lab.findings.prose import liveness_eras_lines, liveness_sentence
    from approval_compaction.lab.releases.liveness import LIVENESS_MODES, SITUATIONS

    pin = Pin(1, "function_call", "pending-c1", "open call")
    ok = tuple(LiveTurn(2, True, 1) for _ in range(3))
    bad = tuple(LiveTurn(n + 2, True, n + 1, unpaired=(pin,)) for n in range(3))
    runs = [
        LivenessRun(s, v, m, False, bad if (s, v) == ("lost", "0.10.0") else ok)
        for v in ("0.9.0", "0.10.0")
        for m in LIVENESS_MODES
        for s in SITUATIONS
    ]
    found = liveness_eras(liveness_records(runs))
    lines = liveness_eras_lines(found).splitlines()
    assert len(lines) == len(SITUATIONS)
    lost = next(line for line in lines if line.startswith("- **lost**"))
    assert f"in {' and '.join(f'`{m}`' for m in LIVENESS_MODES)} modes" in lost
    assert "keeps compacting on 0.9.0" in lost and "**stuck** on 0.10.0" in lost
    assert "`history_bounded` broken" in lost and "pending-c1" in lost
    assert "0.9.0 keeps every situation compacting" in liveness_sentence(found)


def test_prose_liveness_says_whether_a_late_resume_stayed_paired() -> None:
    from approval_compaction.analysis.liveness import LivenessRun, LiveTurn, Pin, liveness_records
    from approval_compaction.lab.findings.liveness import liveness_eras
    from approval_compaction.lab.findings.prose import liveness_eras_lines

    orphan = Pin(5, "function_call_output", "pending-c1", "orphan output")
    ok = tuple(LiveTurn(2, True, 1) for _ in range(3))
    sent = tuple(
        LiveTurn(2, True, 1, unpaired=(orphan,), sent_unpaired=("pending-c1",)) for _ in ok
    )
    runs = [
        LivenessRun("resumed", "0.9.0", "input", False, ok, own=ok, resumed=True),
        LivenessRun("resumed", "0.10.0", "input", False, sent, own=sent, resumed=True),
    ]
    lines = liveness_eras_lines(liveness_eras(liveness_records(runs))).splitlines()
    resumed = next(line for line in lines if line.startswith("- **resumed**"))
    assert "0.9.0, the late resume storing and sending nothing unpaired" in resumed
    unpaired = f"the late resume leaving unpaired items (stored {orphan.text}; sent pending-c1)"
    assert unpaired in resumed
