"""Comparison: variants laid side by side, and runs read back from their JSON file."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.display.views import stage_table
from approval_compaction.fix.workaround import defer_compaction_while_pending
from approval_compaction.lab.share.results import write_matrix
from approval_compaction.openai_agents.comparison import (
    compaction_counts,
    compactions_by_boundary,
    load_runs,
    per_variant,
    pick,
    refused_by_mode,
    stage_summaries,
)
from approval_compaction.openai_agents.harness import run_matrix
from approval_compaction.study.capture import CaseRun
from approval_compaction.study.scenario import CaseValueError, select_cases

CASES = "runner=run,state_boundary=json,decision=reject"


@pytest.fixture(scope="module")
def variants() -> dict[str, list[CaseRun]]:
    cases = select_cases(CASES)
    return {
        "unfixed": run_matrix(cases),
        "workaround": run_matrix(cases, wrap_session=defer_compaction_while_pending),
    }


def test_compactions_name_the_stages_that_compacted(variants: dict[str, list[CaseRun]]) -> None:
    table = compaction_counts(variants)
    assert table.loc["run/reject/on/json"].tolist() == [
        "2 (pause 1, next_turn 1)",
        "1 (next_turn 1)",
    ]
    assert table.loc["run/reject/off/json"].tolist() == ["0", "0"]


def test_per_variant_stacks_one_view_per_variant(variants: dict[str, list[CaseRun]]) -> None:
    table = per_variant(variants, "run/reject/on/json", stage_table, "resume")
    assert "orphan output" in table.loc["unfixed", "status"].tolist()
    assert "orphan output" not in table.loc["workaround", "status"].tolist()


def test_pick_names_a_missing_case(variants: dict[str, list[CaseRun]]) -> None:
    with pytest.raises(CaseValueError, match="run_streamed/approve/on/json"):
        pick(variants["unfixed"], "run_streamed/approve/on/json")


def test_load_runs_reads_back_what_write_matrix_wrote(
    variants: dict[str, list[CaseRun]], tmp_path: Path
) -> None:
    write_matrix(variants["workaround"], tmp_path, "fix-matrix")
    assert load_runs(tmp_path / "fix-matrix-runs.json") == variants["workaround"]


def test_stage_summaries_show_where_each_variant_compacted(
    variants: dict[str, list[CaseRun]],
) -> None:
    table = stage_summaries(variants, "run/reject/on/json")
    assert table.loc["unfixed", "compaction_requests"].tolist() == [1, 0, 0, 1]
    assert table.loc["workaround", "compaction_requests"].tolist() == [0, 0, 0, 1]


def test_compactions_by_boundary_keeps_the_on_cases_one_row_per_boundary(
    variants: dict[str, list[CaseRun]],
) -> None:
    table = compactions_by_boundary(variants)
    assert table.index.tolist() == ["json"] and table.index.name == "boundary"
    assert table.loc["json"].tolist() == ["2 (pause 1, next_turn 1)", "1 (next_turn 1)"]


def test_compactions_by_boundary_refuses_on_cases_that_differ(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pandas as pd

    from approval_compaction.openai_agents import comparison

    counts = pd.DataFrame(
        {"v": ["2 (pause 1, next_turn 1)", "1 (next_turn 1)", "0"]},
        index=["run/reject/on/json", "run_streamed/reject/on/json", "run/reject/off/json"],
    )
    monkeypatch.setattr(comparison, "compaction_counts", lambda variants: counts)
    with pytest.raises(CaseValueError):  # two json `on` cases compacting differently
        compactions_by_boundary({})


def test_refused_by_mode_shows_the_workaround_clears_every_modes_refusal() -> None:
    """r16: 06 advised the workaround in every mode but showed it in `input` mode only. Over HTTP
    on the pinned release, as released the stand-in refuses the pause in `auto` and
    `previous_response_id` mode and the next question in `input` mode; with the workaround it
    refuses nothing."""
    table = refused_by_mode()
    assert list(table.index) == ["input", "auto", "previous_response_id"]
    assert table.loc["input", "as released"] == "at next_turn: 8 of 8"
    assert table.loc["auto", "as released"] == "at pause: 8 of 8"
    assert table.loc["previous_response_id", "as released"] == "at pause: 8 of 8"
    assert table["with the workaround"].eq("none").all()


def test_refused_by_mode_runs_only_the_workaround_when_not_released(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """r24: 06 ran notebook 05's as-released scenario again to show only the workaround's
    column: without ``released`` no run is made bare."""
    from approval_compaction.openai_agents import comparison

    wraps: list[object] = []  # each run's wrapper

    def fake_run_matrix(cases: object, *, wrap_session: object, **_: object) -> list[CaseRun]:
        wraps.append(wrap_session)
        return []

    monkeypatch.setattr(comparison, "run_matrix", fake_run_matrix)
    table = refused_by_mode(released=False)
    assert list(table.columns) == ["with the workaround"]
    assert None not in wraps and len(wraps) == 3  # one run per compaction mode
