"""Kinds: the tool kinds a scripted model reply can call, detected by feature in the release.

A kind names one tool the explored agent carries (``tools`` makes them) and the output item the
model emits to call it. ``function`` and ``function_raises`` run without approval; every other
kind asks a human first: a function tool with ``needs_approval=True`` (the original report's), a
custom tool, a local shell tool, an apply_patch tool, and a hosted MCP server that asks for
every approval. A kind the installed release lacks is skipped with the reason, found by looking
for the feature, not the version. The ids of the calls are the explorer's
(``lab.explore.kinds.call_id``: each names its kind and step).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect

from ..study.items import Item, to_item
from ..study.words import KINDS, Kind
from . import model as _model
from . import tools as _tools


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


def _missing(kind: Kind) -> str | None:
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


def available() -> tuple[tuple[Kind, ...], dict[str, str]]:
    """The kinds the installed release supports, and each skipped kind with its reason."""
    skipped: dict[str, str] = {k: why for k in KINDS if (why := _missing(k)) is not None}
    return tuple(k for k in KINDS if k not in skipped), skipped


def call_item(kind: Kind, key: str) -> Item:
    """The output item a model emits to call a tool of this kind, as the step's plain JSON."""
    from openai.types import responses as r

    if kind == "function_approval":
        return _model.function_call(_tools.TOOL_NAME, {"value": key}, call_id=key)
    if kind in ("function", "function_raises"):
        return _model.function_call(kind, {"value": key}, call_id=key)
    if kind == "custom_approval":
        return to_item(
            r.ResponseCustomToolCall(
                type="custom_tool_call", id=f"ct-{key}", call_id=key, name="custom_edit", input=key
            )
        )
    if kind == "shell_approval":
        action = {"commands": [f"echo {key}"], "max_output_length": None, "timeout_ms": None}
        return to_item(
            r.ResponseFunctionShellToolCall.model_validate(
                {"type": "shell_call", "id": f"sh-{key}", "call_id": key, "action": action}
                | {"status": "completed"}
            )
        )
    if kind == "apply_patch_approval":
        operation = {"type": "create_file", "path": f"{key}.txt", "diff": "+synthetic\n"}
        return to_item(
            r.ResponseApplyPatchToolCall.model_validate(
                {"type": "apply_patch_call", "id": f"ap-{key}", "call_id": key}
                | {"operation": operation, "status": "completed"}
            )
        )
    from openai.types.responses.response_output_item import McpApprovalRequest

    return to_item(
        McpApprovalRequest(
            type="mcp_approval_request",
            id=key,
            name="lookup",
            arguments="{}",
            server_label=_tools.MCP_SERVER,
        )
    )
