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

from .. import Door

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
_DOOR = Door(__name__, _SOURCES)
__all__ = _DOOR.public
__getattr__ = _DOOR.load
__dir__ = _DOOR.listed
