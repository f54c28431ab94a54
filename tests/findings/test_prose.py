"""Each renderer carries the facts of its record: its numbers and names appear in the words."""

from __future__ import annotations

from dataclasses import replace

import pytest

from approval_compaction.findings import prose
from approval_compaction.findings.fix import Crosscheck
from approval_compaction.findings.load import Findings, load_findings
from approval_compaction.findings.matrix import Failure, Seen
from approval_compaction.findings.releases import NEVER, Boundary, Era, Releases
from approval_compaction.wire.rules import ApiError


@pytest.fixture(scope="module")
def found() -> Findings:
    return load_findings()


def test_prose_matrix_names_each_invariant_with_its_count(found: Findings) -> None:
    assert found.pinned is not None
    lines = prose.matrix_lines(found.pinned).splitlines()
    assert lines[0] == f"openai-agents {found.pinned.releases[0]}, {found.pinned.cases} cases:"
    for line, count in zip(lines[1:], found.pinned.invariants, strict=True):
        assert f"`{count.invariant}`" in line
        if count.violated:
            assert f"{count.violated} of {count.cases}" in line and count.choices in line
            assert ("exactly" in line) == count.exact
        else:
            assert "holds in every judged case" in line


def test_prose_workaround_line_carries_its_counts(found: Findings) -> None:
    assert found.fixed is not None
    line = prose.workaround_line(found.fixed)
    assert f"{found.fixed.violated} of {found.fixed.verdicts} verdicts" in line
    assert f"{found.fixed.compacting} of {found.fixed.compaction_on} compaction-on" in line


def test_prose_seen_names_each_error_and_the_agreement() -> None:
    failure = Failure("next_turn", "openai.BadRequestError", 400, "No tool call found")
    text = prose.seen_sentence(Seen(4, 2, (failure,), True, 3))
    assert text.startswith("2 of 4 cases end with openai.BadRequestError (HTTP 400)")
    assert "next_turn stage: No tool call found" in text and "compaction=on" in text
    assert text.endswith("agrees in 3 of 4 cases.")
    assert (
        prose.seen_sentence(Seen(4, 0, (), False, None))
        == "All 4 cases are answered at every turn."
    )


def test_prose_releases_and_eras_carry_spans_and_counts(found: Findings) -> None:
    assert found.releases is not None
    said = prose.releases_sentence(found.releases)
    assert said.startswith(f"Of {len(found.releases.versions)} releases")
    for edge in found.releases.boundaries:
        if edge.broken_ranges:
            assert f"{edge.invariant} is broken {edge.first_broken}..{edge.last_broken}" in said
    eras = prose.eras_sentence(found.releases)
    for era in found.releases.eras:
        assert f"{era.span} ({era.count} release" in eras and era.severity in eras
    severities = prose.severity_sentence(found.releases)
    assert "the next turn fails with HTTP 400 on 0.22.1..0.23.1 (4 releases)" in severities


def test_prose_releases_when_nothing_breaks_or_breaks_twice() -> None:
    calm = Releases(("0.1.0", "0.2.0"), (Boundary("x", 0),), (), (), ())
    assert prose.releases_sentence(calm) == "Of 2 releases, 0.1.0..0.2.0: every invariant holds."
    twice = replace(calm, boundaries=(Boundary("x", 2),))
    assert "x breaks in 2 separate ranges" in prose.releases_sentence(twice)
    still = replace(calm, boundaries=(Boundary("x", 1, first_broken="0.2.0", last_broken="0.2.0"),))
    assert "x is broken 0.2.0..0.2.0 (still broken)" in prose.releases_sentence(still)


ERA = Era("0.1.0", 1, 2, 1, "scripted 3", "pause", "resume", NEVER, NEVER, NEVER, "", "")


def test_prose_era_story_follows_the_pending_calls_pieces() -> None:
    story = prose.era_story(Releases((), (), (), (), (ERA,)))
    assert story.startswith("- **0.1.0**: compaction receives the open call at pause")
    assert "orphan output at resume" in story and story.endswith("next turn is accepted.")


def test_prose_era_story_says_when_a_swallowed_orphan_still_fails_the_next_turn() -> None:
    """Were the API to refuse the next turn for another reason, the story must not say it is
    accepted."""
    failing = replace(ERA, next_turn="HTTP 400", seen_by="responses")
    story = prose.era_story(Releases((), (), (), (), (failing,)))
    assert story.endswith("unpaired; the next turn fails with HTTP 400 (responses model).")
    sent = replace(failing, orphan_stored="resume", orphan_to_model="next_turn")
    told = prose.era_story(Releases((), (), (), (), (sent,)))
    assert "stored at resume, sent to the model at next_turn: the next turn fails" in told
    fixed = replace(ERA, open_call=NEVER, orphan_to_compaction=NEVER)
    assert "nothing unpaired reaches" in prose.era_story(Releases((), (), (), (), (fixed,)))


def test_prose_mechanism_names_function_blocks_and_lines(found: Findings) -> None:
    assert found.mechanism is not None
    text = prose.mechanism_sentence(found.mechanism)
    for fact in (found.mechanism.function, found.mechanism.old_block, found.mechanism.new_block):
        assert f"`{fact}`" in text
    assert (
        f"(line {found.mechanism.old_line})" in text
        and f"(line {found.mechanism.new_line})" in text
    )
    assert prose.where_in_the_sdk(found.mechanism).startswith("**Where in the SDK**")
    assert prose.where_in_the_sdk(None) == ""


def test_prose_error_and_fix_quote_the_message_and_release() -> None:
    error = ApiError(400, "No tool call found for function call output with call_id c1.")
    assert f"HTTP 400 `{error.message}`" in prose.error_sentence([error])
    assert prose.error_sentence([]) == "The Responses API accepts every next-turn request."
    assert "**Fixed in `openai-agents` 0.24.0**" in prose.fixed_sentence("0.24.0")
    assert prose.fixed_sentence(None) == ""


def test_prose_crosscheck_spans_failing_and_passing_releases() -> None:
    text = prose.crosscheck_sentence(
        Crosscheck(("0.8.0", "0.10.0"), ("0.24.0",), 3, 3, ("0.24.0",))
    )
    assert "fails on 2 releases (0.8.0 to 0.10.0) and passes on 0.24.0" in text
    assert "in 3 of 3" in text and text.endswith("passes on 0.24.0.")
    assert prose.crosscheck_sentence(None) == "The test has not been run across releases yet."


def test_prose_doctor_answers_carry_their_records(found: Findings) -> None:
    assert found.affected and found.upgrade and found.worker and found.heal
    pinned, newest = found.affected
    affected = prose.affected_sentence(pinned, newest)
    assert f"after {', '.join(map(str, pinned.affected_at))} prior turns" in affected
    assert f"On openai-agents {newest.release}" in affected
    upgrade = prose.upgrade_sentence(found.upgrade)
    assert f"from {found.upgrade.pinned} to {found.upgrade.newest} does not heal" in upgrade
    assert "behaves exactly like" in prose.worker_sentence(found.worker)
    heal = prose.heal_sentence(found.heal)
    assert f"found {found.heal.before['poisoned']} poisoned of {found.heal.sessions}" in heal
    assert f"{found.heal.items_restored_same} of {found.heal.items_compared} items" in heal
