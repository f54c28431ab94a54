"""Folding: identical variants are found by comparing runs, and a variant that differs is named
with where it differs; the block order puts the violations in one rectangle."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pandas as pd
import pytest
from factories import SUMMARY, make_run, output

from approval_compaction.analysis.vocabulary import HOLDS, VIOLATED
from approval_compaction.errors import InvestigationError
from approval_compaction.lab.findings.folding import (
    PARTS,
    UnknownCaseError,
    UnknownPartError,
    block_order,
    choice_effects,
    compare_to,
    difference,
    fold,
    fold_frame,
    violating_runs,
)
from approval_compaction.study.capture import CaseRun
from approval_compaction.study.scenario import Case, all_cases


def runs_of(cases: list[Case]) -> list[CaseRun]:
    return [make_run(case, result=case.decision) for case in cases]


ALL = runs_of(all_cases())


def test_folding_identical_runners_fold_into_one() -> None:
    base = Case(runner="run")
    other = Case(runner="run_streamed")
    (only,) = fold([make_run(base), make_run(other)], PARTS)
    assert only.cases == (base.label, other.label)
    assert only.representative == base.label
    assert only.shared == {"decision": "approve", "compaction": "on", "state_boundary": "json"}


def test_folding_finds_the_variant_that_differs_and_where() -> None:
    """A streamed run that stored its output twice at the resume is not folded away."""
    base = make_run(Case(runner="run"))
    odd_stored = [SUMMARY, output(), output()]
    odd = make_run(Case(runner="run_streamed"), resume={"stored": odd_stored})
    assert len(fold([base, odd], PARTS)) == 2
    assert difference(base, odd, "stored") == "resume"
    assert difference(base, odd, "model_inputs") == ""
    table = compare_to([base, odd], base.case.label)
    assert table.loc[odd.case.label, "stored"] == "differs at resume"
    assert table.loc[odd.case.label, "verdicts"] == "same"
    assert not table.loc[odd.case.label, "identical"]


def test_folding_verdict_difference_names_the_invariants() -> None:
    on, off = make_run(Case(compaction="on")), make_run(Case(compaction="off"))
    found = difference(on, off, "verdicts").split(", ")
    assert "compaction_input_complete" in found and "stored_history_paired" in found
    assert "decision_enforced" not in found


def test_folding_a_stage_reached_by_one_run_only_is_a_difference() -> None:
    whole = make_run(Case())
    stopped = replace(whole, stages=whole.stages[:3], case=Case(runner="run_streamed"))
    assert difference(whole, stopped, "stored") == "next_turn"


def test_folding_verdicts_fold_the_sixteen_cases_by_compaction() -> None:
    folds = fold(ALL)
    assert [len(f.cases) for f in folds] == [8, 8]
    assert [f.choices for f in folds] == ["compaction=on", "compaction=off"]
    frame = fold_frame(ALL)
    assert frame["cases"].tolist() == [8, 8]
    assert frame.loc[0, "representative"] == "run/approve/on/json"


def test_folding_stage_tables_keep_the_decisions_apart() -> None:
    """The output's text differs by decision here, so the stage tables fold only 16 into 4."""
    assert len(fold(ALL, PARTS)) == 4


def test_folding_choice_effects_name_what_each_choice_changes() -> None:
    table = choice_effects(ALL)
    assert table.loc["runner", "pairs"] == 8
    assert (table.loc["runner", list(PARTS)] == "identical").all()
    assert table.loc["decision", "verdicts"] == "identical"
    assert table.loc["decision", "stored"] == "differs in 8 (at resume, next_turn)"
    assert table.loc["compaction", "verdicts"].startswith("differs in 8")
    assert (table.loc["state_boundary", list(PARTS)] == "identical").all()


def test_folding_choice_without_pairs_is_not_inert() -> None:
    runs = runs_of([Case(runner="run")])
    assert choice_effects(runs).loc["runner", "pairs"] == 0
    assert choice_effects(runs).loc["decision", "pairs"] == 0


def test_folding_violating_runs_are_the_compaction_on_ones() -> None:
    assert {run.run.case.compaction for run in violating_runs(ALL)} == {"on"}
    assert len(violating_runs(ALL)) == 8


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: compare_to(ALL, "run/maybe/on/json"), "no run of case 'run/maybe/on/json'"),
        (lambda: fold(ALL, ["stored", "colour"]), "unknown part 'colour'"),
    ],
    ids=["unknown-case", "unknown-part"],
)
def test_folding_bad_input_is_a_one_line_error(call: Any, message: str) -> None:
    with pytest.raises((UnknownCaseError, UnknownPartError), match=message) as caught:
        call()
    assert isinstance(caught.value, InvestigationError) and "\n" not in str(caught.value)


def test_folding_block_order_makes_the_violations_one_rectangle() -> None:
    v, h = VIOLATED.word, HOLDS.word
    table = pd.DataFrame(
        {"a": [h, h, h, h], "b": [h, v, h, v], "c": [h, v, h, v]},
        index=["off-1", "on-1", "off-2", "on-2"],
    )
    ordered = block_order(table)
    assert ordered.index.tolist() == ["on-1", "on-2", "off-1", "off-2"]
    assert ordered.columns.tolist() == ["b", "c", "a"]
    assert (ordered.iloc[:2, :2] == v).all().all()
    assert not (ordered.iloc[2:] == v).any().any() and not (ordered["a"] == v).any()
