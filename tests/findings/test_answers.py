"""The notebooks' answer lines: each renders a record of the notebook's own runs."""

from __future__ import annotations

import pytest
from factories import make_run

from approval_compaction import Case, records, run_case, to_frame
from approval_compaction.analysis.invariants import INVARIANTS
from approval_compaction.fix.workaround import defer_compaction_while_pending
from approval_compaction.lab.findings.answers import (
    finding,
    fold_answer,
    variant_summary,
    walkthrough_answer,
    workaround_answer,
)
from approval_compaction.study.capture import CaseRun
from approval_compaction.study.harness import run_matrix
from approval_compaction.study.scenario import all_cases, select_cases

ALL = [make_run(case, result=case.decision) for case in all_cases()]
CASES = "runner=run,state_boundary=json,decision=reject"


@pytest.fixture(scope="module")
def variants() -> dict[str, list[CaseRun]]:
    cases = select_cases(CASES)
    return {
        "unfixed": run_matrix(cases),
        "workaround": run_matrix(cases, wrap_session=defer_compaction_while_pending),
    }


def test_answers_finding_names_the_shared_choice_of_violating_cases() -> None:
    runs = [run_case(Case(compaction="on")), run_case(Case(compaction="off"))]
    text = finding(to_frame(records(runs)))
    assert "`next_turn_input_paired` is violated in 1 of 2 cases" in text
    assert "compaction=on" in text


def test_answers_walkthrough_differs_between_violating_case_and_control() -> None:
    broken = walkthrough_answer(run_case(Case(compaction="on")))
    control = walkthrough_answer(run_case(Case(compaction="off")))
    assert "`pending-c1` is no longer stored" in broken
    assert "`pending-c1` stays in the stored history" in control


def test_answers_fold_is_computed_from_the_runs() -> None:
    answer = fold_answer(ALL)
    assert answer.startswith("16 cases, 2 verdict patterns: the 8 cases with compaction=on")
    assert "`runner` (run vs run_streamed) changes nothing" in answer
    odd = [*ALL[:-1], make_run(all_cases()[-1], resume={"dispatches": 2})]
    assert "changes nothing" not in fold_answer(odd).split("`state_boundary`")[1]


def test_answers_variant_summary_counts_verdicts_and_compactions(
    variants: dict[str, list[CaseRun]],
) -> None:
    table = variant_summary(variants)
    # the compaction-on case breaks five: four on pairing, and the next turn is not accepted
    assert table.loc["unfixed", "verdicts_violated"] == 5
    assert table.loc["workaround", "verdicts_violated"] == 0
    assert table.loc["unfixed", "compaction_requests"] == 2
    assert table.loc["workaround", "compaction_requests"] == 1
    assert table["compaction_on_cases_without_any"].tolist() == [0, 0]


def test_answers_workaround_says_yes_only_when_the_workaround_holds(
    variants: dict[str, list[CaseRun]],
) -> None:
    assert workaround_answer(variants, "workaround", "unfixed").startswith(
        f"Yes: with the workaround {2 * len(INVARIANTS)} of {2 * len(INVARIANTS)}"
    )
    assert workaround_answer(variants, "unfixed", "workaround").startswith("No:")


def test_answers_liveness_eras_answer_reads_the_sweep_records() -> None:
    from approval_compaction.analysis.liveness import LivenessRun, LiveTurn, liveness_records
    from approval_compaction.lab.findings.answers import liveness_eras_answer

    never = tuple(LiveTurn(n + 3, False, n + 3) for n in range(3))  # never compacts, grows
    runs = [LivenessRun("poisoned", "0.24.0", "input", False, never)]
    said = liveness_eras_answer(liveness_records(runs))
    assert "on 1 releases" not in said and "continued 3 later turns" in said
    assert "**stuck** on 0.24.0 (`compaction_runs` and `history_bounded` broken)" in said
