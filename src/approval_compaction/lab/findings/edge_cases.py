"""Edge cases: the workaround's scripts beyond the study's single pending call.

Each edge case is a harness ``Script`` (two pending calls decided differently, both rejected,
a hosted MCP approval request, a store that is not SQLite) run as one case with and without
the workaround. ``plain_turns`` covers the case with no pending call at all, where the
wrapper must compact exactly when the unwrapped session does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ...analysis.invariants import evaluate
from ...openai_agents.driver import SessionWrapper
from ...openai_agents.harness import MCP_REQUEST, PENDING_CALL, PENDING_CALL_ID, Script, run_case
from ...openai_agents.model import function_call
from ...openai_agents.tools import TOOL_NAME
from ...study.capture import CaseRun
from ...study.scenario import Case

if TYPE_CHECKING:  # pandas only for edge_table: the study runs in a bare release environment
    import pandas as pd

SECOND_CALL_ID = "pending-c2"
TWO_CALLS = (
    function_call(TOOL_NAME, {"value": "a"}, call_id=PENDING_CALL_ID),
    function_call(TOOL_NAME, {"value": "b"}, call_id=SECOND_CALL_ID),
)


@dataclass(frozen=True)
class EdgeCase:
    """A named script and the case whose decision and runner it is run with."""

    name: str
    script: Script
    case: Case


EDGE_CASES: tuple[EdgeCase, ...] = (
    EdgeCase("two pending, mixed decisions", Script(TWO_CALLS, decision="mixed"), Case()),
    EdgeCase("two pending, all rejected", Script(TWO_CALLS), Case(decision="reject")),
    EdgeCase(
        "hosted MCP approval request", Script((MCP_REQUEST,), kinds=("mcp_approval",)), Case()
    ),
    EdgeCase("store that is not SQLite", Script((PENDING_CALL,), store="memory"), Case()),
)


def run_edge(edge: EdgeCase, wrap_session: SessionWrapper | None = None, **choices: Any) -> CaseRun:
    """Run one edge case, optionally with other case choices (e.g. ``runner="run_streamed"``)."""
    return run_case(replace(edge.case, **choices), wrap_session=wrap_session, script=edge.script)


def edge_table(wrappers: dict[str, SessionWrapper | None]) -> pd.DataFrame:
    """Per edge case and runner, for each wrapper: the invariants violated, and compactions."""
    import pandas as pd

    rows = []
    for edge in EDGE_CASES:
        for runner in ("run", "run_streamed"):
            row: dict[str, Any] = {"edge case": edge.name, "runner": runner}
            for name, wrap in wrappers.items():
                run = run_edge(edge, wrap, runner=runner)
                broken = [v.invariant for v in evaluate(run) if v.holds is not True]
                row[name] = ", ".join(broken) or "all hold"
                row[f"{name}: compactions"] = run.compaction_requests
            rows.append(row)
    return pd.DataFrame(rows).set_index(["edge case", "runner"])
