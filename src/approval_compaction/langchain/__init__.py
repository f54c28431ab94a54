"""LangChain: the study's scenario on ``langchain`` 1.x's ``create_agent``, as one folder.

Everything LangChain-specific lives here, and the shared code reaches it only through the
lab's plugin registry (``lab.plugins``), by name:

- ``driver.py``: the one script that runs in a release's own environment (``langchain``,
  ``langchain-openai``, ``langgraph-checkpoint-sqlite``): ``HumanInTheLoopMiddleware`` pausing
  a tool call, a compaction step before each model call (``SummarizationMiddleware``, or the
  docs' ``trim_messages`` step), ``ChatOpenAI`` over HTTP to the stand-in; it drives and
  records, and judges nothing;
- ``harness``: runs it from a scratch folder with the stand-in served on 127.0.0.1, and reads
  its lines back; ``items``: LangChain's messages mapped to the wire's shapes, in this one
  place;
- ``packages``: every 1.x release in its own cached environment (uv), ``sweep``: every
  release's plans judged by the shared invariants, and the boundaries bisected; ``changes``:
  what moved each boundary, from the public record;
- ``finding``: the shared verdict tables with LangChain's words as data; ``report``: the issue
  in langchain's form; ``moves``: its moves for the state-space search; ``commands``: the
  command line; ``plugin``: the registry entry the shared code reads (and the search's line
  for its driver).

The top-level ``langchain/`` folder holds what a maintainer copies: the pin
(``requirements.txt``), the fix (``fix/``) and the regression test in langchain's own style
(``sdk-test/``).
"""

from __future__ import annotations

import importlib
from typing import Any

# What notebook 14 uses of the folder (a lazy door, as the core's and the lab's are).
_SOURCES: dict[str, tuple[str, ...]] = {
    ".sweep": ("SETTINGS", "SITUATIONS", "run_langchain", "run_situation"),
    ".items": ("message_items",),
    ".finding": (
        "boundaries",
        "changes_frame",
        "control_bugs",
        "late_call_frame",
        "liveness_frame",
        "load",
        "verdict_frame",
        "with_control",
    ),
    ".packages": ("pinned",),
    ".report": ("search_said", "situations_frame"),
}
_MODULES: dict[str, str] = {}  # no module is taken whole
_MODULE_OF: dict[str, str] = {name: module for module, names in _SOURCES.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` on first use, and keep the name here."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
