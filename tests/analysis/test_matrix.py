"""The sixteen cases on the pinned SDK: the original report's table, and failure handling."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from approval_compaction.analysis.matrix import records
from approval_compaction.analysis.table import seed_table, to_frame
from approval_compaction.openai_agents.harness import run_matrix
from approval_compaction.study.scenario import all_cases


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return to_frame(records(run_matrix(all_cases())))


def _holds(frame: pd.DataFrame, invariant: str, **choices: str) -> set[Any]:
    rows = frame[frame["invariant"] == invariant]
    for field, value in choices.items():
        rows = rows[rows[field] == value]
    return set(rows["holds"])


@pytest.mark.parametrize("runner", ["run", "run_streamed"])
@pytest.mark.parametrize("decision", ["approve", "reject"])
@pytest.mark.parametrize("compaction", ["on", "off"])
def test_matrix_reproduces_seed_next_turn_pairing(
    frame: pd.DataFrame, runner: str, decision: str, compaction: str
) -> None:
    """Upstream #5340: an orphan pending-c1 output reaches the next turn iff compaction is on."""
    choices = {"runner": runner, "decision": decision, "compaction": compaction}
    rows = frame[
        (frame["state_boundary"] == "json") & (frame["invariant"] == "next_turn_input_paired")
    ]
    for field, value in choices.items():
        rows = rows[rows[field] == value]
    assert len(rows) == 1
    row = rows.iloc[0]
    assert row["holds"] == (compaction == "off")
    assert row["detail"] == ("" if compaction == "off" else "next_turn: pending-c1")
    assert row["dispatches"] == (1 if decision == "approve" else 0)


def test_matrix_resumed_input_stays_paired_in_every_case(frame: pd.DataFrame) -> None:
    """The report: the immediate resumed model input keeps its call/output pairing."""
    assert _holds(frame, "resumed_input_paired") == {True}


def test_matrix_rejection_is_enforced_in_every_case(frame: pd.DataFrame) -> None:
    assert _holds(frame, "decision_enforced") == {True}
    assert set(frame[frame["decision"] == "reject"]["dispatches"]) == {0}


def test_matrix_memory_boundary_behaves_like_json(frame: pd.DataFrame) -> None:
    keys = ["runner", "decision", "compaction", "invariant"]
    json_rows = frame[frame["state_boundary"] == "json"].set_index(keys)["holds"]
    memory_rows = frame[frame["state_boundary"] == "memory"].set_index(keys)["holds"]
    assert json_rows.sort_index().equals(memory_rows.sort_index())


def test_matrix_compaction_hook_decides_whether_compaction_requests_happen(
    frame: pd.DataFrame,
) -> None:
    assert set(frame[frame["compaction"] == "off"]["compaction_requests"]) == {0}
    assert min(frame[frame["compaction"] == "on"]["compaction_requests"]) >= 1


def test_matrix_seed_table_folds_runners(frame: pd.DataFrame) -> None:
    table = seed_table(frame).set_index(["decision", "compaction hook"])
    cell = "unpaired output in next-turn input"
    assert table.loc[("approve", "always true"), cell] == "present in both runner modes"
    assert table.loc[("reject", "always false"), cell] == "absent in both runner modes"
    assert table.loc[("reject", "always true"), "tool dispatches"] == "0"


def test_matrix_scripted_next_turn_compacts_the_orphan_away_so_liveness_holds() -> None:
    """Issue 61 (r6): 04's heatmap shows `compaction_runs` and `history_bounded` holding beside
    `next_turn_accepted` violated, and says why: the scripted model answers the next turn the
    API would refuse, its compaction takes the orphan output into the summary, and the later
    turns compact and stay bounded from a paired store."""
    from approval_compaction.analysis.liveness import case_liveness
    from approval_compaction.analysis.pairing import orphan_outputs
    from approval_compaction.openai_agents.harness import run_case
    from approval_compaction.study.scenario import Case

    run = run_case(Case(compaction="on"), later=3)
    next_turn = run.stages[-1]
    assert next_turn.name == "next_turn"
    assert any(orphan_outputs(items) for items in next_turn.model_inputs)  # the API refuses it
    assert any(orphan_outputs(items) for items in next_turn.compaction_inputs)
    assert not orphan_outputs(next_turn.stored)
    assert [v.holds for v in case_liveness(run)] == [True, True]
