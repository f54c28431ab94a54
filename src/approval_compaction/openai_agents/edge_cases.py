"""Edge cases: the workaround's scripts beyond the study's single pending call.

Each edge case is a harness ``Script`` (two pending calls decided differently, both rejected,
a hosted MCP approval request, a store that is not SQLite) run as one case (``run_edge``), with
or without a session wrapper such as the workaround. The lab judges them
(``lab.findings.edge_cases.edge_table``); this module needs only the SDK, as the driver does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..study.capture import CaseRun
from ..study.scenario import Case, SessionWrapper
from .harness import MCP_REQUEST, PENDING_CALL, PENDING_CALL_ID, Script, run_case
from .model import function_call
from .tools import TOOL_NAME

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
