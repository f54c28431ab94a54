"""The committed data, loaded once: each finding's values are what the README states."""

from __future__ import annotations

from pathlib import Path

import pytest
from factories import matrix_record

from approval_compaction.analysis.invariants import INVARIANTS
from approval_compaction.formats.records import records_json
from approval_compaction.lab.findings.load import Findings, api_errors, load_findings
from approval_compaction.openai_agents.harness import run_matrix
from approval_compaction.study.scenario import select_cases

PINNED, NEWEST = "0.23.1", "0.24.0"
BROKEN = {  # what the pinned release violates, in exactly the compaction-on cases
    "next_turn_input_paired",
    "compaction_input_complete",
    "compaction_input_paired",
    "stored_history_paired",
    "next_turn_accepted",
}


@pytest.fixture(scope="module")
def found(committed: Findings) -> Findings:
    return committed


def test_load_pinned_matrix_violates_in_exactly_the_compaction_on_cases(found: Findings) -> None:
    assert found.pinned is not None
    assert (found.pinned.releases, found.pinned.cases) == ((PINNED,), 16)
    for count in found.pinned.invariants:
        assert count.cases == 16 and count.unjudged == 0, count.invariant
        if count.invariant in BROKEN:
            assert (count.violated, count.shared, count.exact) == (
                8,
                (("compaction", "on"),),
                True,
            ), count.invariant
        else:
            assert count.violated == 0, count.invariant
    assert (found.pinned.violating, found.pinned.violating_choice) == (8, "compaction=on")


def test_load_workaround_violates_nothing_and_still_compacts(found: Findings) -> None:
    assert found.fixed is not None and found.newest is not None
    assert (found.fixed.violated, found.fixed.verdicts) == (0, 16 * len(INVARIANTS))
    assert found.fixed.compacting == found.fixed.compaction_on == 8
    assert found.newest.releases == (NEWEST,) and found.newest.violated == 0


def test_load_sweep_eras_by_what_the_user_meets_then_the_fix(found: Findings) -> None:
    """In ``input`` mode two eras, then the fix; in the modes that compact by
    ``previous_response_id`` the pause is refused in every release before the fix, and what the
    store keeps after the next question splits the second era in two."""
    assert found.releases is not None
    versions = found.releases.versions
    assert (len(versions), versions[0], versions[-1]) == (72, "0.8.0", NEWEST)
    eras = found.releases.eras
    assert [(e.span, e.count) for e in eras] == [
        ("0.8.0..0.22.0", 67),
        ("0.22.1..0.22.3", 3),
        (PINNED, 1),
        (NEWEST, 1),
    ]
    assert [e.orphan_to_model for e in eras] == ["never", "next_turn", "next_turn", "never"]
    assert [e.next_turn for e in eras] == ["never", "HTTP 400", "HTTP 400", "never"]
    assert found.releases.modes == ("input", "auto", "previous_response_id")
    stories = {(s.span, s.mode): s for s in found.releases.stories}
    for era in eras[:-1]:
        for mode in ("auto", "previous_response_id"):
            story = stories[(era.span, mode)]
            assert (story.raises_at, story.can_decide, story.resume) == ("pause", "no", "not run")
            assert story.errors.endswith("No tool output found for function call pending-c1.")
        assert stories[(era.span, "input")].can_decide == "yes"
    assert {s.raises_at for s in found.releases.stories if s.span == NEWEST} == {"never"}
    edges = {b.invariant: b for b in found.releases.boundaries}
    assert {n for n, b in edges.items() if b.broken_ranges} == BROKEN
    assert {b.holds_again for b in edges.values() if b.broken_ranges} == {NEWEST}
    assert edges["next_turn_accepted"].first_broken == "0.22.1"
    assert edges["compaction_input_complete"].first_broken == "0.8.0"
    assert all(b.agrees_with_sweep for b in found.releases.bisections)


def test_load_fix_release_mechanism_and_errors(found: Findings) -> None:
    assert found.fixed_in == NEWEST
    assert found.mechanism is not None
    assert (found.mechanism.old, found.mechanism.new) == (PINNED, NEWEST)
    assert [e.status for e in found.errors] == [400]
    assert "pending-c1" in found.errors[0].message
    met = {(e.endpoint, e.api_message) for e in found.errors_met}
    assert met == {
        ("/v1/responses/compact", "No tool output found for function call pending-c1."),
        ("/v1/responses", "No tool call found for function call output with call_id pending-c1."),
    }
    assert all(len(e.texts) >= 1 for e in found.errors_met)
    assert [s.mode for s in found.meets] == ["input", "auto", "previous_response_id"]
    assert found.crosscheck is not None and found.crosscheck.passing[-1] == NEWEST


def test_load_doctor_answers(found: Findings) -> None:
    assert found.affected is not None and found.upgrade is not None
    pinned, newest = found.affected
    assert (pinned.release, pinned.affected_at, newest.release, newest.affected_at) == (
        PINNED,
        (9, 19),
        NEWEST,
        (),
    )
    assert not found.upgrade.heals and found.upgrade.repaired.next_turn == "accepted"
    assert found.worker is not None and found.worker.same
    assert found.heal is not None and found.heal.after["poisoned"] == 0


def test_load_a_folder_with_one_file_loads_what_it_has(tmp_path: Path) -> None:
    (tmp_path / "matrix.json").write_text(records_json([matrix_record(holds=False)]))
    found = load_findings(tmp_path)
    assert found.pinned is not None and found.pinned.violated == 1
    assert found.releases is found.fixed is found.mechanism is found.affected is None
    assert (found.errors, found.fixed_in) == ((), None)


def test_load_api_errors_word_the_next_turn_as_the_api_does() -> None:
    """The rules' answer to the scripted next turn is what the SDK's client raised over HTTP."""
    from approval_compaction.lab.findings.outcomes import outcome_frame
    from approval_compaction.openai_agents.wiring import responses_backend

    cases = select_cases("runner=run,decision=reject,state_boundary=json")
    errors = api_errors(run_matrix(cases))
    observed = outcome_frame(run_matrix(cases, backend=responses_backend))
    assert [f"Error code: {e.status} - {e.message}" for e in errors] == [
        m for m in observed["message"] if m
    ]
    assert api_errors(run_matrix(select_cases("runner=run,compaction=off"))) == ()
