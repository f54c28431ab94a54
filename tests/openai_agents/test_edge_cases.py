"""The workaround's edge cases: the Python SDK's scripts beyond one pending call, run with and
without the workaround."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from approval_compaction.analysis.invariants import evaluate
from approval_compaction.fix.workaround import defer_compaction_while_pending
from approval_compaction.openai_agents.driver import Continue, Setup, converse
from approval_compaction.openai_agents.edge_cases import (
    EDGE_CASES,
    SECOND_CALL_ID,
    TWO_CALLS,
    run_edge,
)
from approval_compaction.openai_agents.harness import (
    DEFAULT_SCRIPT,
    MCP_REQUEST,
    MCP_REQUEST_ID,
    PENDING_CALL_ID,
)
from approval_compaction.study.capture import Stage
from approval_compaction.study.scenario import Case, SessionWrapper

EDGE_IDS = [edge.name.replace(" ", "-").replace(",", "") for edge in EDGE_CASES]


@pytest.mark.parametrize("runner", ["run", "run_streamed"])
@pytest.mark.parametrize("edge", EDGE_CASES, ids=EDGE_IDS)
def test_edge_case_holds_every_invariant_with_workaround(edge: Any, runner: str) -> None:
    run = run_edge(edge, defer_compaction_while_pending, runner=runner)
    assert run.error is None
    assert [(v.invariant, v.detail) for v in evaluate(run) if v.holds is not True] == []
    assert run.compaction_requests >= 1


@pytest.mark.parametrize("edge", EDGE_CASES, ids=EDGE_IDS)
def test_edge_case_breaks_pairing_without_workaround(edge: Any) -> None:
    """Control: each edge case reproduces the orphaned output when nothing defers."""
    run = run_edge(edge)
    broken = {v.invariant for v in evaluate(run) if v.holds is False}
    assert {"next_turn_input_paired", "compaction_input_complete"} <= broken


def test_mixed_decisions_run_only_the_approved_call() -> None:
    mixed = next(e for e in EDGE_CASES if "mixed" in e.name)
    run = run_edge(mixed, defer_compaction_while_pending)
    assert (run.approvals, run.dispatches) == (1, 1)
    resume = run.stage("resume")
    assert resume is not None
    outputs = [i for i in resume.model_inputs[0] if i.get("type") == "function_call_output"]
    assert [o["call_id"] for o in outputs] == [PENDING_CALL_ID, SECOND_CALL_ID]
    assert outputs[0]["output"] == "synthetic:a" and outputs[1]["output"] != "synthetic:b"


def plain_turns(directory: Path, wrap_session: SessionWrapper | None = None) -> list[Stage]:
    """Two plain questions (answered without tools) on an always-compacting SQLite session:
    what compaction sent at each, and the history it left."""
    setup = Setup(trigger="always", wrap=wrap_session)
    transcript = converse(setup, [Continue(1), Continue(1)], directory / "history.db")
    return [turn.stage for turn in transcript.turns if turn.stage is not None]


def test_plain_turns_compact_at_once_as_unwrapped(tmp_path: Path) -> None:
    (tmp_path / "unwrapped").mkdir(), (tmp_path / "wrapped").mkdir()
    unwrapped = plain_turns(tmp_path / "unwrapped")
    wrapped = plain_turns(tmp_path / "wrapped", defer_compaction_while_pending)
    assert [len(turn.compaction_inputs) for turn in wrapped] == [1, 1]
    assert [(t.compaction_inputs, t.stored) for t in wrapped] == [
        (t.compaction_inputs, t.stored) for t in unwrapped
    ]


# --- the scripts, on small inputs ------------------------------------------------------------


def test_edge_cases_have_distinct_names_and_each_varies_the_study_script() -> None:
    assert len({edge.name for edge in EDGE_CASES}) == len(EDGE_CASES)
    assert all(edge.script != DEFAULT_SCRIPT for edge in EDGE_CASES)


def test_two_calls_pause_on_two_protected_calls() -> None:
    assert [item["call_id"] for item in TWO_CALLS] == [PENDING_CALL_ID, SECOND_CALL_ID]
    run = run_edge(EDGE_CASES[1])
    pause = run.stage("pause")
    assert pause is not None and len(pause.interruptions) == 2


def test_mcp_edge_case_asks_for_one_hosted_approval() -> None:
    assert (MCP_REQUEST["type"], MCP_REQUEST["id"]) == ("mcp_approval_request", MCP_REQUEST_ID)
    mcp = next(e for e in EDGE_CASES if "MCP" in e.name)
    pause = run_edge(mcp).stage("pause")
    assert pause is not None
    assert [i["type"] for i in pause.interruptions] == ["mcp_approval_request"]


def test_run_edge_takes_other_case_choices() -> None:
    store_edge = next(e for e in EDGE_CASES if "SQLite" in e.name)
    run = run_edge(store_edge, runner="run_streamed", compaction="off")
    assert run.case == Case(runner="run_streamed", compaction="off")
    assert run.error is None and run.compaction_requests == 0
