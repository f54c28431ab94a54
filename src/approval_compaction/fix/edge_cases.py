"""Edge cases: the workaround's scripts beyond the study's single pending call.

Each edge case is a harness ``Script`` (two pending calls decided differently, both rejected,
a hosted MCP approval request, a store that is not SQLite) run as one case with and without
the workaround. ``plain_turns`` covers the case with no pending call at all, where the
wrapper must compact exactly when the unwrapped session does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents import Agent, HostedMCPTool, RunConfig, Runner, SQLiteSession
from openai.types.responses.response_output_item import McpApprovalRequest

from ..analysis.invariants import evaluate
from ..study.capture import CaseRun
from ..study.compaction import CompactionClient
from ..study.harness import (
    TOOL_NAME,
    Script,
    SessionWrapper,
    build_agent,
    compaction_session,
    run_case,
    run_sync,
)
from ..study.items import Item, to_item
from ..study.model import ScriptedModel, assistant_message, function_call
from ..study.scenario import Case

if TYPE_CHECKING:  # pandas only for edge_table: the explorer imports this module in a bare
    import pandas as pd  # release environment, which has no pandas

SECOND_CALL_ID = "pending-c2"
MCP_REQUEST_ID = "mcpr-1"
MCP_SERVER = "synthetic-mcp"


def two_calls_model(capture: bool = True) -> ScriptedModel:
    """Two protected calls in one response, then the two answers."""
    return ScriptedModel(
        steps=[
            [
                function_call(TOOL_NAME, {"value": "a"}, call_id="pending-c1"),
                function_call(TOOL_NAME, {"value": "b"}, call_id=SECOND_CALL_ID),
            ],
            [assistant_message("finished", item_id="msg-finished")],
            [assistant_message("next answer", item_id="msg-next")],
        ],
        capture=capture,
    )


def approve_first_only(case: Case, interruption: Any) -> bool:
    """Mixed decisions: approve ``pending-c1``, reject every other call."""
    return to_item(interruption.raw_item).get("call_id") == "pending-c1"


def mcp_model(capture: bool = True) -> ScriptedModel:
    """A hosted MCP approval request, then the two answers."""
    request = McpApprovalRequest(
        type="mcp_approval_request",
        id=MCP_REQUEST_ID,
        name="lookup",
        arguments='{"value": "v"}',
        server_label=MCP_SERVER,
    )
    return ScriptedModel(
        steps=[
            [request],
            [assistant_message("finished", item_id="msg-finished")],
            [assistant_message("next answer", item_id="msg-next")],
        ],
        capture=capture,
    )


def mcp_agent(model: ScriptedModel, dispatched: list[str]) -> Agent[Any]:
    """An agent whose only tool is a hosted MCP server that asks for every approval."""
    server = HostedMCPTool(
        tool_config={
            "type": "mcp",
            "server_label": MCP_SERVER,
            "server_url": "https://mcp.invalid/",
            "require_approval": "always",
        }
    )
    return Agent(name="approval-agent", model=model, tools=[server])


class MemoryStore:
    """A ``Session`` that keeps its items in a list: a store that is not SQLite."""

    session_settings = None

    def __init__(self, session_id: str = "case-session") -> None:
        self.session_id = session_id
        self.items: list[Any] = []

    async def get_items(self, limit: int | None = None) -> list[Any]:
        return list(self.items if limit is None else self.items[-limit:] if limit else [])

    async def add_items(self, items: list[Any]) -> None:
        self.items.extend(items)

    async def pop_item(self) -> Any:
        return self.items.pop() if self.items else None

    async def clear_session(self) -> None:
        self.items.clear()


def memory_store(directory: Path) -> MemoryStore:
    return MemoryStore()


@dataclass(frozen=True)
class EdgeCase:
    """A named script and the case whose decision and runner it is run with."""

    name: str
    script: Script
    case: Case


EDGE_CASES: tuple[EdgeCase, ...] = (
    EdgeCase(
        "two pending, mixed decisions", Script(two_calls_model, decide=approve_first_only), Case()
    ),
    EdgeCase("two pending, all rejected", Script(two_calls_model), Case(decision="reject")),
    EdgeCase("hosted MCP approval request", Script(mcp_model, agent=mcp_agent), Case()),
    EdgeCase("store that is not SQLite", Script(store=memory_store), Case()),
)


def run_edge(edge: EdgeCase, wrap_session: SessionWrapper | None = None, **choices: Any) -> CaseRun:
    """Run one edge case, optionally with other case choices (e.g. ``runner="run_streamed"``)."""
    return run_case(replace(edge.case, **choices), wrap_session=wrap_session, script=edge.script)


@dataclass(frozen=True)
class PlainTurn:
    """One turn without any pending call: what compaction sent, and the history it left."""

    compaction_inputs: list[list[Item]]
    stored: list[Item]


async def plain_turns_async(
    directory: Path, wrap_session: SessionWrapper | None = None, questions: Sequence[str] = ()
) -> list[PlainTurn]:
    """Ask plain questions (answered without tools) on an always-compacting SQLite session."""
    questions = questions or ("first question", "next question")
    answers = [
        [assistant_message(f"answer {n}", item_id=f"msg-{n}")] for n in range(len(questions))
    ]
    model, client = ScriptedModel(steps=answers), CompactionClient()
    agent = build_agent(model, [])
    store = SQLiteSession("plain-session", str(directory / "plain.db"))
    session: Any = compaction_session("plain-session", store, client, True)
    if wrap_session is not None:
        session = wrap_session(session)
    turns = []
    try:
        for question in questions:
            before = len(client.requests)
            await Runner.run(
                agent, question, session=session, run_config=RunConfig(tracing_disabled=True)
            )
            stored = [to_item(i) for i in await session.get_items()]
            turns.append(PlainTurn(client.requests[before:], stored))
    finally:
        store.close()
    return turns


def plain_turns(directory: Path, wrap_session: SessionWrapper | None = None) -> list[PlainTurn]:
    """Synchronous ``plain_turns_async``."""
    return run_sync(plain_turns_async(directory, wrap_session))


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
