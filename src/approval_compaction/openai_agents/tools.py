"""Tools: the agent under study, with one tool for each kind of call a model reply can make.

``function_approval`` is the study's own ``needs_approval=True`` function tool (the original
report's); ``function`` and ``function_raises`` run without approval (the second raises, so the
SDK stores its error message as the output); ``custom_approval``, ``shell_approval`` and
``apply_patch_approval`` ask a human first; ``mcp_approval`` is a hosted MCP server that asks for
every approval, approved on the server: nothing runs locally. The agent carries the tools of the
kinds a conversation uses, and an input guardrail that trips on the steps that ask it to.

Making tools costs more than a turn, so each set of kinds is made once per process. What a
tool does is counted for the conversation that runs it, through a context variable the driver
sets (``Dispatches``): conversations can share the tools, concurrently too.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import agents

from ..study.words import KINDS, Kind

AGENT_NAME = "approval-agent"
TOOL_NAME = "protected_lookup"
MCP_SERVER = "synthetic-mcp"
HOSTED = "mcp_approval_request"  # the one approval item whose tool runs on the server


@dataclass
class Dispatches:
    """What one conversation's tools did: each run of a tool that needed approval, each run of
    one that did not, and whether the guardrail trips now."""

    approved: list[str] = field(default_factory=list)
    plain: list[str] = field(default_factory=list)
    trip: bool = False


CURRENT: ContextVar[Dispatches | None] = ContextVar("approval_compaction_dispatches", default=None)


def _approved(value: str) -> None:
    current = CURRENT.get()
    if current is not None:
        current.approved.append(value)


def _plain(value: str) -> None:
    current = CURRENT.get()
    if current is not None:
        current.plain.append(value)


class _Editor:
    """An apply_patch editor that touches no file: it records each operation as a dispatch."""

    def create_file(self, operation: Any) -> str:
        _approved(str(operation.path))
        return "created"

    def update_file(self, operation: Any) -> str:
        _approved(str(operation.path))
        return "updated"

    def delete_file(self, operation: Any) -> str:
        _approved(str(operation.path))
        return "deleted"


def _tool(kind: Kind) -> Any:
    """The tool a call of this kind goes to (made when first asked for: a kind the installed
    release lacks is never made)."""
    if kind == "function_approval":

        @agents.function_tool(name_override=TOOL_NAME, needs_approval=True)
        def protected_lookup(value: str) -> str:
            """Return a synthetic value once a human has approved the call."""
            _approved(value)
            return "synthetic:" + value

        return protected_lookup
    if kind == "function":

        @agents.function_tool(name_override="function")
        def function(value: str) -> str:
            """Return a synthetic value; no approval needed."""
            _plain(value)
            return "plain:" + value

        return function
    if kind == "function_raises":

        @agents.function_tool(name_override="function_raises")
        def function_raises(value: str) -> str:
            """Fail: the SDK stores the error message as this call's output."""
            _plain(value)
            raise RuntimeError(f"synthetic failure for {value}")

        return function_raises
    if kind == "custom_approval":

        def custom(context: Any, text: str) -> str:
            _approved(text)
            return "custom:" + text

        description = "Edit raw text once a human approves."
        return agents.CustomTool(
            name="custom_edit", description=description, on_invoke_tool=custom, needs_approval=True
        )
    if kind == "shell_approval":

        def shell(request: Any) -> str:
            _approved(str(request.data.call_id))
            return "synthetic shell output"

        return agents.ShellTool(executor=shell, needs_approval=True)
    if kind == "apply_patch_approval":
        return agents.ApplyPatchTool(editor=_Editor(), needs_approval=True)
    return agents.HostedMCPTool(
        tool_config={
            "type": "mcp",
            "server_label": MCP_SERVER,
            "server_url": "https://mcp.invalid/",
            "require_approval": "always",
        }
    )


_TOOLS: dict[Kind, Any] = {}


def _trips(context: Any, agent: Any, value: Any) -> agents.GuardrailFunctionOutput:
    current = CURRENT.get()
    tripped = current is not None and current.trip
    return agents.GuardrailFunctionOutput(output_info=None, tripwire_triggered=tripped)


def build_agent(
    model: Any, kinds: Sequence[Kind] = ("function_approval",), guardrail: bool = False
) -> agents.Agent[Any]:
    """The agent under study on ``model``: the tools of ``kinds`` (in ``KINDS`` order) and, with
    ``guardrail``, an input guardrail that trips while the conversation's step says so."""
    for kind in kinds:
        if kind not in _TOOLS:
            _TOOLS[kind] = _tool(kind)
    tools = [_TOOLS[kind] for kind in KINDS if kind in kinds]
    guards = [agents.InputGuardrail(guardrail_function=_trips, name="synthetic_tripwire")]
    return agents.Agent(
        name=AGENT_NAME, model=model, tools=tools, input_guardrails=guards if guardrail else []
    )
