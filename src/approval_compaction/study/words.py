"""Words: the study's shared vocabulary, each a ``Literal`` type with its values, defined once.

The scenario's choices (``Runner``, ``Decision``, ``Compaction``, ``StateBoundary``), the model
wirings (``Model``), the SDK's compaction modes (``Mode``), the boundaries a paused state crosses
(``Boundary``: the case's two and a fresh process), how a step decides each pending item
(``DecisionRule``), how an asked turn ends (``Ending``) and the kinds of tool call a model reply
can make (``Kind``). Each tuple lists the values in the order tables and pickers show them; a
module that needs another order (a search strategy lists its simplest value first) keeps its
own tuple of the same type.
"""

from __future__ import annotations

from typing import Literal

Model = Literal["scripted", "responses"]
MODELS: tuple[Model, ...] = ("scripted", "responses")

Runner = Literal["run", "run_streamed"]
RUNNERS: tuple[Runner, ...] = ("run", "run_streamed")

Decision = Literal["approve", "reject"]
DECISIONS: tuple[Decision, ...] = ("approve", "reject")
DecisionRule = Literal["approve", "reject", "mixed"]  # mixed: approve the first, reject the rest

Compaction = Literal["on", "off"]
COMPACTIONS: tuple[Compaction, ...] = ("on", "off")

Mode = Literal["auto", "input", "previous_response_id"]
MODES: tuple[Mode, ...] = ("auto", "input", "previous_response_id")  # the SDK's default first

StateBoundary = Literal["json", "memory"]
STATE_BOUNDARIES: tuple[StateBoundary, ...] = ("json", "memory")
Boundary = Literal["memory", "json", "process"]

Ending = Literal["answer", "guardrail", "max_turns"]
ENDINGS: tuple[Ending, ...] = ("answer", "guardrail", "max_turns")

Kind = Literal[
    "function_approval",
    "function",
    "function_raises",
    "custom_approval",
    "shell_approval",
    "apply_patch_approval",
    "mcp_approval",
]
KINDS: tuple[Kind, ...] = (
    "function_approval",
    "function",
    "function_raises",
    "custom_approval",
    "shell_approval",
    "apply_patch_approval",
    "mcp_approval",
)
