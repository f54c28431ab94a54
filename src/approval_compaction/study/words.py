"""Words: the study's shared vocabulary, each a ``Literal`` type with its values, defined once.

The scenario's choices (``Runner``, ``Decision``, ``Compaction``, ``StateBoundary``), the model
wirings (``Model``), the SDK's compaction modes (``Mode``), the boundaries a paused state crosses
(``Boundary``: the case's two and a fresh process), how a step decides each pending item
(``DecisionRule``), how an asked turn ends (``Ending``), the kinds of tool call a model reply can
make (``Kind``), how the compaction endpoint is answered (``CompactRules``, defined with the rules
in ``wire.rules``: ``faithful`` or ``lenient``), and the agent's ``ModelSettings(store=...)`` as a
command line names it (``StoreWord``: ``default`` leaves it unset, the SDK's default;
``STORE_SETTINGS`` gives each word's value, ``STORE_WORD`` each value's word). Each tuple holds
its type's values in the order tables and pickers show them; a module that needs another order (a
search strategy lists its simplest value first) keeps its own tuple of the same type.
"""

from __future__ import annotations

from typing import Literal, get_args

from ..wire.rules import CompactRules as CompactRules  # defined with the rules, named here

Model = Literal["scripted", "responses"]
Runner = Literal["run", "run_streamed"]
Decision = Literal["approve", "reject"]
DecisionRule = Literal["approve", "reject", "mixed"]  # mixed: approve the first, reject the rest
Compaction = Literal["on", "off"]
Mode = Literal["auto", "input", "previous_response_id"]  # the SDK's default first
StateBoundary = Literal["json", "memory"]
# The tool a driver's agent pauses on for approval (a function tool, a hosted MCP server, the
# shell, apply_patch or computer tool), as a driver's plan and the doctor's exports name it.
ToolKind = Literal["function", "mcp", "shell", "apply_patch", "computer"]
Boundary = Literal["memory", "json", "process"]
# The liveness situations, by name: the Python SDK's driver builds each as steps, another SDK's
# driver runs those its SDK can express.
Situation = Literal[
    "poisoned", "abandoned", "lost", "clean", "mcp_abandoned", "resumed", "mcp_resumed"
]
SITUATIONS: tuple[Situation, ...] = get_args(Situation)
Ending = Literal["answer", "guardrail", "max_turns"]
StoreWord = Literal["default", "true", "false"]  # ModelSettings(store=...): unset, True, False
ResponseStore = bool | None  # the agent's ModelSettings.store; None: not set (the SDK's default)
Kind = Literal[
    "function_approval",
    "function",
    "function_raises",
    "custom_approval",
    "shell_approval",
    "apply_patch_approval",
    "mcp_approval",
]

MODELS: tuple[Model, ...] = get_args(Model)
RUNNERS: tuple[Runner, ...] = get_args(Runner)
DECISIONS: tuple[Decision, ...] = get_args(Decision)
COMPACTIONS: tuple[Compaction, ...] = get_args(Compaction)
MODES: tuple[Mode, ...] = get_args(Mode)
TOOL_KINDS: tuple[ToolKind, ...] = get_args(ToolKind)
# The study's compaction mode (the original report's): the matrix runs it, and the probes and
# liveness runs take it first, the other modes after it in MODES's order.
STUDY_MODE: Mode = "input"
STUDY_FIRST: tuple[Mode, ...] = (STUDY_MODE, *(m for m in MODES if m != STUDY_MODE))
STATE_BOUNDARIES: tuple[StateBoundary, ...] = get_args(StateBoundary)
ENDINGS: tuple[Ending, ...] = get_args(Ending)
KINDS: tuple[Kind, ...] = get_args(Kind)
COMPACT_RULES: tuple[CompactRules, ...] = get_args(CompactRules)
STORE_WORDS: tuple[StoreWord, ...] = get_args(StoreWord)
STORE_SETTINGS: dict[StoreWord, ResponseStore] = {"default": None, "true": True, "false": False}
STORE_WORD: dict[ResponseStore, StoreWord] = {value: word for word, value in STORE_SETTINGS.items()}
# The one name every published page gives `auto` mode with the agent's ModelSettings(store=False),
# in every SDK's language.
AUTO_STORE_FALSE = "auto, store=False"
# The release this project pins (requirements.txt) and the newest one, which fixes the bug (tests
# check both); plain strings, so a release's own interpreter imports them with nothing else.
PINNED = "0.23.1"
NEWEST = "0.24.0"
