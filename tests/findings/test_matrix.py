"""A matrix's finding on hand-built records, and what the user met over HTTP on live runs."""

from __future__ import annotations

from typing import Any

import pytest
from factories import matrix_record

from approval_compaction.analysis.invariants import INVARIANTS
from approval_compaction.analysis.matrix import MatrixRecord
from approval_compaction.lab.findings.load import Findings
from approval_compaction.lab.findings.matrix import (
    Failure,
    compaction_requests,
    matrix_finding,
    seen,
    store_stories,
)
from approval_compaction.lab.releases.meeting import all_meetings
from approval_compaction.openai_agents.harness import run_matrix
from approval_compaction.openai_agents.wiring import responses_backend
from approval_compaction.study.scenario import all_cases, select_cases


def records(broken: Any, requests: int = 1, **fields: Any) -> list[MatrixRecord]:
    """Every case and invariant; ``next_turn_input_paired`` holds where ``broken(case)`` is
    False, is violated where it is True and is not judged where it is None."""
    rows = []
    for case in all_cases():
        verdict = broken(case)
        for name in INVARIANTS:
            holds = (
                True
                if name != "next_turn_input_paired"
                else (None if verdict is None else not verdict)
            )
            on = case.compaction == "on"
            rows.append(
                matrix_record(
                    **case.as_dict(),
                    invariant=name,
                    holds=holds,
                    compaction_requests=requests if on else 0,
                    **fields,
                )
            )
    return rows


def test_matrix_violations_in_exactly_the_cases_of_one_choice() -> None:
    found = matrix_finding(records(lambda c: c.compaction == "on", requests=2))
    count = found.invariants[0]
    assert (count.invariant, count.cases, count.violated, count.unjudged) == (
        "next_turn_input_paired",
        16,
        8,
        0,
    )
    assert (count.shared, count.exact, count.choices) == (
        (("compaction", "on"),),
        True,
        "compaction=on",
    )
    assert [c.violated for c in found.invariants[1:]] == [0] * (len(INVARIANTS) - 1)
    assert (found.cases, found.violating, found.violating_choice) == (16, 8, "compaction=on")
    assert (found.compaction_requests, found.compaction_on, found.compacting) == (16, 8, 8)
    assert (found.verdicts, found.violated, found.holding) == (
        16 * len(INVARIANTS),
        8,
        16 * len(INVARIANTS) - 8,
    )


def test_matrix_shared_choices_that_select_more_cases_are_not_exact() -> None:
    """Three of the compaction-on cases: they share compaction=on, which selects eight."""
    three = {c.label for c in select_cases("compaction=on")[:3]}
    count = matrix_finding(records(lambda c: c.label in three)).invariants[0]
    assert count.violated == 3 and ("compaction", "on") in count.shared
    assert not count.exact


def test_matrix_counts_cases_that_could_not_be_judged() -> None:
    found = matrix_finding(records(lambda c: None if c.compaction == "on" else False, requests=0))
    count = found.invariants[0]
    assert (count.violated, count.unjudged) == (0, 8)
    assert (found.compacting, found.violating, found.violating_choice) == (0, 0, "")


def test_matrix_counts_only_the_invariants_its_records_judge() -> None:
    """A matrix whose cases were not continued has no liveness records: it says nothing of them
    (rather than that they hold in every judged case of none)."""
    found = matrix_finding([matrix_record(invariant="decision_enforced")])
    assert [(c.invariant, c.cases) for c in found.invariants] == [("decision_enforced", 1)]
    both = [matrix_record(invariant=n) for n in reversed(INVARIANTS)]
    assert [c.invariant for c in matrix_finding(both).invariants] == list(INVARIANTS)


def test_matrix_releases_are_in_release_order() -> None:
    mixed = [matrix_record(sdk_version="0.24.0"), matrix_record(sdk_version="0.9.0")]
    assert matrix_finding(mixed).releases == ("0.9.0", "0.24.0")


def test_seen_over_http_the_compaction_on_case_fails_and_the_prediction_agrees() -> None:
    cases = select_cases("runner=run,decision=approve,state_boundary=json")
    found = seen(run_matrix(cases, backend=responses_backend), run_matrix(cases))
    assert (found.cases, found.failing, found.compaction_on_only, found.agreeing) == (2, 1, True, 2)
    (failure,) = found.failures
    assert failure == Failure(
        "next_turn",
        "openai.BadRequestError",
        400,
        failure.message,
    )
    assert "No tool call found for function call output with call_id pending-c1." in failure.message


def test_seen_without_a_prediction_says_none_was_made() -> None:
    cases = select_cases("runner=run,decision=approve,compaction=off,state_boundary=json")
    found = seen(run_matrix(cases, backend=responses_backend))
    assert (found.failing, found.failures, found.agreeing) == (0, (), None)


# --- auto by ModelSettings(store=...) ----------------------------------------------------------


@pytest.fixture(scope="module")
def auto_runs() -> dict[str, list[Any]]:
    """``auto`` over HTTP on the compaction-on cases of one runner, the store unset and False."""
    cases = select_cases("runner=run,compaction=on")
    return {
        word: run_matrix(cases, backend=responses_backend, mode="auto", response_store=store)
        for word, store in (("default", None), ("false", False))
    }


def test_compaction_requests_name_the_history_as_the_store_decides(
    auto_runs: dict[str, list[Any]],
) -> None:
    """Unset: the pause's compaction names the response (and is refused); after that refusal the
    next question's compaction sends ``input`` (only a suffix of the store matches its exchange).
    ``store=False``: the pause's compaction sends ``input`` and is answered."""
    seen = {
        word: {(r.store, r.stage, r.names_history_by, r.status) for r in compaction_requests(runs)}
        for word, runs in auto_runs.items()
    }
    assert seen["default"] == {
        ("default", "pause", "previous_response_id", 400),
        ("default", "next_turn", "input", 200),
    }
    assert seen["false"] == {("false", "pause", "input", 200)}


def test_compaction_requests_of_the_scripted_wiring_are_none() -> None:
    assert compaction_requests(run_matrix(select_cases("runner=run,compaction=on"), later=0)) == []


def test_store_stories_tell_the_pause_failing_unset_and_the_next_turn_failing_false(
    auto_runs: dict[str, list[Any]],
) -> None:
    default = all_meetings(auto_runs["default"])
    stories = {s.store: s.story for s in store_stories(default, auto_runs["false"])}
    assert list(stories) == ["default", "false"]
    assert (stories["default"].raises_at, stories["default"].can_decide) == ("pause", "no")
    assert (stories["false"].raises_at, stories["false"].can_decide) == ("next_turn", "yes")
    assert stories["false"].resume == "answered" and stories["false"].next_turn == "raised"
    assert {s.raising for s in stories.values()} == {len(auto_runs["false"])}


def test_store_stories_leave_out_a_setting_without_records() -> None:
    assert store_stories([], []) == ()


def test_committed_store_false_matrix_is_what_the_pinned_release_runs_now(
    committed: Findings,
) -> None:
    """``data/matrix-store-false.json`` (written by ``data``) holds what ``auto`` with
    ``ModelSettings(store=False)`` over HTTP judges today, and the README's table reads it."""
    from approval_compaction.analysis.matrix import records
    from approval_compaction.formats.records import read_records
    from approval_compaction.lab import paths

    fresh = run_matrix(mode="auto", backend=responses_backend, response_store=False, jobs=0)
    assert records(fresh) == read_records(paths.DATA_FILES.store_false_matrix, MatrixRecord)
    assert [s.store for s in committed.stores] == ["default", "false"]
