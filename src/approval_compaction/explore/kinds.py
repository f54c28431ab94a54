"""Kinds: the tool kinds a scripted model reply can call, detected by feature in the release.

A kind names one tool the explored agent carries and the output item the model emits to call
it. ``function`` and ``function_raises`` run without approval (the second raises, so the SDK
stores its error message as the output); every other kind asks a human first: a function tool
with ``needs_approval=True`` (the original report's), a custom tool, a local shell tool, an
apply_patch tool, and a hosted MCP server that asks for every approval. A kind the installed
release lacks is skipped with the reason, found by looking for the feature, not the version.

Call ids encode their kind and step (``custom_approval-2-0``: the first call of step 2), so a
violation's offending id says which kind it came from.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from collections.abc import Callable
from typing import Any

KINDS: tuple[str, ...] = (
    "function_approval",
    "function",
    "function_raises",
    "custom_approval",
    "shell_approval",
    "apply_patch_approval",
    "mcp_approval",
)
APPROVAL_KINDS = frozenset(KINDS) - {"function", "function_raises"}
HOSTED_KINDS = frozenset({"mcp_approval"})  # approved on the server: nothing runs locally
Dispatch = Callable[[str], None]


def call_id(kind: str, step: int, position: int) -> str:
    """The id of one call: its kind, the step that made it and its place in the reply."""
    return f"{kind}-{step}-{position}"


def kind_of(key: str) -> str:
    """The kind an offending call id came from (``?`` for an id this module did not make)."""
    kind = key.rsplit("-", 2)[0]
    return kind if kind in KINDS else "?"


def _has(module: str, name: str) -> bool:
    try:
        return hasattr(importlib.import_module(module), name)
    except ImportError:
        return False


def _field(module: str, name: str, field: str) -> bool:
    if not _has(module, name):
        return False
    cls = getattr(importlib.import_module(module), name)
    return dataclasses.is_dataclass(cls) and field in {f.name for f in dataclasses.fields(cls)}


def _missing(kind: str) -> str | None:
    """Why the installed release cannot run this kind, or None when it can."""
    responses = "openai.types.responses"
    if kind in ("function", "function_raises"):
        return None
    if kind == "function_approval":
        import agents

        ok = "needs_approval" in inspect.signature(agents.function_tool).parameters
        return None if ok else "function_tool has no needs_approval"
    needs: dict[str, tuple[str, str]] = {
        "custom_approval": ("CustomTool", "ResponseCustomToolCall"),
        "shell_approval": ("ShellTool", "ResponseFunctionShellToolCall"),
        "apply_patch_approval": ("ApplyPatchTool", "ResponseApplyPatchToolCall"),
    }
    if kind in needs:
        tool, item = needs[kind]
        if not _field("agents", tool, "needs_approval"):
            return f"agents.{tool} with needs_approval is absent"
        return None if _has(responses, item) else f"{responses}.{item} is absent"
    if not _has("agents", "HostedMCPTool"):
        return "agents.HostedMCPTool is absent"
    ok = _has(f"{responses}.response_output_item", "McpApprovalRequest")
    return None if ok else "McpApprovalRequest is absent"


def available() -> tuple[tuple[str, ...], dict[str, str]]:
    """The kinds the installed release supports, and each skipped kind with its reason."""
    skipped = {kind: why for kind in KINDS if (why := _missing(kind)) is not None}
    return tuple(k for k in KINDS if k not in skipped), skipped


def call_item(kind: str, key: str) -> Any:
    """The output item a model emits to call a tool of this kind."""
    from openai.types import responses as r

    from ..study.harness import TOOL_NAME
    from ..study.model import function_call

    if kind == "function_approval":
        return function_call(TOOL_NAME, {"value": key}, call_id=key)
    if kind in ("function", "function_raises"):
        return function_call(kind, {"value": key}, call_id=key)
    if kind == "custom_approval":
        return r.ResponseCustomToolCall(
            type="custom_tool_call", id=f"ct-{key}", call_id=key, name="custom_edit", input=key
        )
    if kind == "shell_approval":
        action = {"commands": [f"echo {key}"], "max_output_length": None, "timeout_ms": None}
        return r.ResponseFunctionShellToolCall.model_validate(
            {"type": "shell_call", "id": f"sh-{key}", "call_id": key, "action": action}
            | {"status": "completed"}
        )
    if kind == "apply_patch_approval":
        operation = {"type": "create_file", "path": f"{key}.txt", "diff": "+synthetic\n"}
        return r.ResponseApplyPatchToolCall.model_validate(
            {"type": "apply_patch_call", "id": f"ap-{key}", "call_id": key}
            | {"operation": operation, "status": "completed"}
        )
    from openai.types.responses.response_output_item import McpApprovalRequest

    from ..fix.edge_cases import MCP_SERVER

    return McpApprovalRequest(
        type="mcp_approval_request", id=key, name="lookup", arguments="{}", server_label=MCP_SERVER
    )


class _Editor:
    """An apply_patch editor that touches no file: it records each operation as a dispatch."""

    def __init__(self, dispatch: Dispatch) -> None:
        self.dispatch = dispatch

    def create_file(self, operation: Any) -> str:
        self.dispatch(str(operation.path))
        return "created"

    def update_file(self, operation: Any) -> str:
        self.dispatch(str(operation.path))
        return "updated"

    def delete_file(self, operation: Any) -> str:
        self.dispatch(str(operation.path))
        return "deleted"


def extra_tools(kinds: tuple[str, ...], dispatch: Dispatch, plain: Dispatch) -> list[Any]:
    """The tools beyond the study's own approval tool, for the kinds given.

    ``dispatch`` records a run of a tool that needed approval, ``plain`` one that did not.
    """
    import agents

    from ..fix.edge_cases import mcp_agent

    tools: list[Any] = []
    if "function" in kinds:

        @agents.function_tool(name_override="function")
        def function(value: str) -> str:
            """Return a synthetic value; no approval needed."""
            plain(value)
            return "plain:" + value

        tools.append(function)
    if "function_raises" in kinds:

        @agents.function_tool(name_override="function_raises")
        def function_raises(value: str) -> str:
            """Fail: the SDK stores the error message as this call's output."""
            plain(value)
            raise RuntimeError(f"synthetic failure for {value}")

        tools.append(function_raises)
    if "custom_approval" in kinds:

        def custom(context: Any, text: str) -> str:
            dispatch(text)
            return "custom:" + text

        tools.append(
            agents.CustomTool(
                name="custom_edit",
                description="Edit raw text once a human approves.",
                on_invoke_tool=custom,
                needs_approval=True,
            )
        )
    if "shell_approval" in kinds:

        def shell(request: Any) -> str:
            dispatch(str(request.data.call_id))
            return "synthetic shell output"

        tools.append(agents.ShellTool(executor=shell, needs_approval=True))
    if "apply_patch_approval" in kinds:
        tools.append(agents.ApplyPatchTool(editor=_Editor(dispatch), needs_approval=True))
    if "mcp_approval" in kinds:
        tools.extend(mcp_agent(None, []).tools)  # type: ignore[arg-type]  # model unused
    return tools
