"""The workaround's edge cases: scripts beyond one pending call, with and without the workaround."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from approval_compaction import evaluate
from approval_compaction.fix.edge_cases import (
    EDGE_CASES,
    MCP_REQUEST_ID,
    SECOND_CALL_ID,
    MemoryStore,
    approve_first_only,
    edge_table,
    mcp_model,
    plain_turns,
    run_edge,
    two_calls_model,
)
from approval_compaction.fix.workaround import defer_compaction_while_pending
from approval_compaction.study.harness import DEFAULT_SCRIPT, PENDING_CALL_ID
from approval_compaction.study.items import to_item
from approval_compaction.study.scenario import Case

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


def test_plain_turns_compact_at_once_as_unwrapped(tmp_path: Path) -> None:
    (tmp_path / "unwrapped").mkdir(), (tmp_path / "wrapped").mkdir()
    unwrapped = plain_turns(tmp_path / "unwrapped")
    wrapped = plain_turns(tmp_path / "wrapped", defer_compaction_while_pending)
    assert [len(turn.compaction_inputs) for turn in wrapped] == [1, 1]
    assert wrapped == unwrapped


def test_edge_table_reports_each_edge_case_and_runner() -> None:
    table = edge_table({"with workaround": defer_compaction_while_pending})
    assert len(table) == 2 * len(EDGE_CASES)
    assert set(table["with workaround"]) == {"all hold"}
    assert table["with workaround: compactions"].min() >= 1


# --- the scripts, on small inputs ------------------------------------------------------------


def test_edge_cases_have_distinct_names_and_each_varies_the_study_script() -> None:
    assert len({edge.name for edge in EDGE_CASES}) == len(EDGE_CASES)
    assert all(edge.script != DEFAULT_SCRIPT for edge in EDGE_CASES)


def test_two_calls_model_pauses_on_two_calls() -> None:
    first = two_calls_model().steps[0]
    assert [to_item(item)["call_id"] for item in first] == [PENDING_CALL_ID, SECOND_CALL_ID]


def test_mcp_model_asks_for_one_hosted_approval() -> None:
    (request,) = mcp_model().steps[0]
    item = to_item(request)
    assert (item["type"], item["id"]) == ("mcp_approval_request", MCP_REQUEST_ID)


@pytest.mark.parametrize(
    ("call_id", "approved"), [(PENDING_CALL_ID, True), (SECOND_CALL_ID, False), ("other", False)]
)
def test_approve_first_only_approves_the_first_pending_call(call_id: str, approved: bool) -> None:
    interruption = SimpleNamespace(raw_item={"type": "function_call", "call_id": call_id})
    assert approve_first_only(Case(decision="reject"), interruption) is approved


def test_run_edge_takes_other_case_choices() -> None:
    store_edge = next(e for e in EDGE_CASES if "SQLite" in e.name)
    run = run_edge(store_edge, runner="run_streamed", compaction="off")
    assert run.case == Case(runner="run_streamed", compaction="off")
    assert run.error is None and run.compaction_requests == 0


def test_memory_store_keeps_items_in_order_and_limits_from_the_end() -> None:
    async def scenario() -> list[Any]:
        store = MemoryStore()
        await store.add_items([{"n": 1}, {"n": 2}])
        await store.add_items([{"n": 3}])
        seen = [await store.get_items(), await store.get_items(2), await store.get_items(0)]
        seen.append(await store.pop_item())
        await store.clear_session()
        seen += [await store.get_items(), await store.pop_item()]
        return seen

    everything, last_two, none, popped, cleared, empty_pop = asyncio.run(scenario())
    assert everything == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert last_two == [{"n": 2}, {"n": 3}] and none == []
    assert popped == {"n": 3} and cleared == [] and empty_pop is None
