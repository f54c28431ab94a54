"""The workaround: it defers compaction only while a group is open, and compaction goes on."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from agents.memory import (
    OpenAIResponsesCompactionAwareSession,
    Session,
    is_openai_responses_compaction_aware_session,
)
from openai.types.responses import ResponseFunctionToolCall

from approval_compaction import evaluate, paths
from approval_compaction.cli import main
from approval_compaction.fix.edge_cases import EDGE_CASES, edge_table, plain_turns, run_edge
from approval_compaction.fix.workaround import (
    KEPT_DEFERRALS,
    DeferCompactionWhilePending,
    defer_compaction_while_pending,
    open_groups,
)

ROOT = paths.ROOT
USER = {"role": "user", "content": "q"}
CALL = {"type": "function_call", "call_id": "c1", "name": "t", "arguments": "{}"}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "x"}
MCP_REQUEST = {
    "type": "mcp_approval_request",
    "id": "r1",
    "name": "t",
    "arguments": "{}",
    "server_label": "s",
}
MCP_RESPONSE = {"type": "mcp_approval_response", "approval_request_id": "r1", "approve": True}


class FakeCompactionSession:
    """Records each run_compaction call; its history is a list the test sets."""

    session_id = "fake"

    def __init__(self, items: list[Any], takes_wrapper: bool = True) -> None:
        self.items = items
        self.calls: list[tuple[Any, Any]] = []
        self.private_hook_calls = 0
        if not takes_wrapper:
            self.run_compaction = self._run_compaction_legacy  # type: ignore[method-assign]

    async def get_items(self, limit: int | None = None) -> list[Any]:
        return list(self.items)

    async def add_items(self, items: list[Any]) -> None:
        self.items.extend(items)

    async def pop_item(self) -> Any:
        return self.items.pop()

    async def clear_session(self) -> None:
        self.items.clear()

    async def run_compaction(self, args: Any = None, *, wrapper: Any = None) -> None:
        self.calls.append((args, wrapper))

    async def _run_compaction_legacy(self, args: Any = None) -> None:
        self.calls.append((args, "no wrapper parameter"))

    def _get_deferred_compaction_response_id(self) -> str:
        self.private_hook_calls += 1
        return "resp-1"


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([USER, CALL], ["function_call:c1"]),
        ([USER, CALL, OUTPUT], []),
        ([USER, MCP_REQUEST], ["mcp_approval_request:r1"]),
        ([USER, MCP_REQUEST, MCP_RESPONSE], []),
        ([USER, OUTPUT], []),
        ([], []),
    ],
    ids=["open-call", "paired-call", "open-mcp", "answered-mcp", "orphan-output-only", "empty"],
)
def test_open_groups_lists_calls_and_requests_still_waiting(
    items: list[dict[str, Any]], expected: list[str]
) -> None:
    assert open_groups(items) == expected


def test_open_groups_accepts_sdk_models() -> None:
    call = ResponseFunctionToolCall(
        type="function_call", call_id="c9", name="t", arguments="{}", status="completed"
    )
    assert open_groups([USER, call]) == ["function_call:c9"]


async def test_workaround_defers_while_a_call_is_open_then_compacts() -> None:
    inner = FakeCompactionSession([USER, CALL])
    session = defer_compaction_while_pending(inner)
    await session.run_compaction({"response_id": "resp-1"}, wrapper="ctx")
    assert inner.calls == []
    assert [d.open_items for d in session.deferrals] == [("function_call:c1",)]
    await session.add_items([OUTPUT])
    await session.run_compaction({"response_id": "resp-2"}, wrapper="ctx")
    assert inner.calls == [({"response_id": "resp-2"}, "ctx")]


async def test_workaround_defers_while_an_mcp_request_is_open() -> None:
    inner = FakeCompactionSession([USER, MCP_REQUEST])
    session = defer_compaction_while_pending(inner)
    await session.run_compaction()
    await session.add_items([MCP_RESPONSE])
    await session.run_compaction()
    assert len(session.deferrals) == 1
    assert inner.calls == [(None, None)]


async def test_workaround_keeps_only_the_latest_deferrals() -> None:
    session = defer_compaction_while_pending(FakeCompactionSession([USER, CALL]))
    for n in range(KEPT_DEFERRALS + 5):
        await session.run_compaction({"response_id": f"resp-{n}"})
    assert len(session.deferrals) == KEPT_DEFERRALS
    assert session.deferrals[-1].args == {"response_id": f"resp-{KEPT_DEFERRALS + 4}"}


async def test_workaround_calls_a_session_without_wrapper_parameter_plainly() -> None:
    inner = FakeCompactionSession([USER], takes_wrapper=False)
    await defer_compaction_while_pending(inner).run_compaction({"force": True}, wrapper="ctx")
    assert inner.calls == [({"force": True}, "no wrapper parameter")]


def test_workaround_forwards_the_runners_private_hooks() -> None:
    inner = FakeCompactionSession([])
    session = defer_compaction_while_pending(inner)
    assert session._get_deferred_compaction_response_id() == "resp-1"
    assert inner.private_hook_calls == 1
    with pytest.raises(AttributeError):
        _ = session._no_such_hook


def test_workaround_still_counts_as_a_compaction_session() -> None:
    session = defer_compaction_while_pending(FakeCompactionSession([]))
    assert is_openai_responses_compaction_aware_session(session)
    assert isinstance(session, Session)
    assert isinstance(session, OpenAIResponsesCompactionAwareSession)
    assert defer_compaction_while_pending(session) is session


def test_workaround_refuses_a_session_that_cannot_compact() -> None:
    with pytest.raises(TypeError, match="run_compaction"):
        DeferCompactionWhilePending(object())


@pytest.fixture(scope="module")
def fixed_matrix(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    path = tmp_path_factory.mktemp("fix") / "fix.json"
    assert main(["matrix", "--fix", "--format", "json", "--output", str(path)]) == 0
    rows: list[dict[str, Any]] = json.loads(path.read_text())
    return rows


def test_matrix_fix_holds_every_invariant_in_every_case(fixed_matrix: list[dict[str, Any]]) -> None:
    assert len(fixed_matrix) == 16 * 6
    assert [r for r in fixed_matrix if r["holds"] is not True] == []


def test_matrix_fix_still_compacts_when_compaction_is_on(
    fixed_matrix: list[dict[str, Any]],
) -> None:
    requests = {
        (r["runner"], r["decision"], r["state_boundary"], r["compaction"]): r["compaction_requests"]
        for r in fixed_matrix
    }
    assert all(n >= 1 for case, n in requests.items() if case[-1] == "on")
    assert all(n == 0 for case, n in requests.items() if case[-1] == "off")


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


def test_sdk_regression_runs_the_workaround_here() -> None:
    """The SDK-style test imports the workaround in this project, not only the unfixed SDK."""
    path = ROOT / "tests" / "sdk_regression" / "test_compaction_pending_approval.py"
    spec = importlib.util.spec_from_file_location("sdk_regression_module", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert [p.id for p in module.SESSION_VARIANTS] == ["workaround", "unfixed"]


def test_edge_table_reports_each_edge_case_and_runner() -> None:
    table = edge_table({"with workaround": defer_compaction_while_pending})
    assert len(table) == 2 * len(EDGE_CASES)
    assert set(table["with workaround"]) == {"all hold"}
    assert table["with workaround: compactions"].min() >= 1
