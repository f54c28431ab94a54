"""The Python SDK (``openai-agents``): the study's scenario on it, as one folder.

Its driver runs conversations through the SDK's public API in this interpreter (or a release's)
and captures what each stage stored and sent: the steps of a conversation and the one driver
that takes them (``driver``), with the agent's tools (``tools``), the model wiring (``wiring``:
our scripted model, ``model``, and its compaction client, or the SDK's own over HTTP), the
RunState JSON boundary (``state``), the process boundary (``worker``, whose process runs
``worker_main``), the sixteen cases as conversations (``harness``, shared out to forked copies
of this process by ``study.fork``), the liveness situations (``situations``) and the workaround's
edge cases beyond one pending call (``edge_cases``). Nothing here imports pandas or
matplotlib, so a release's probe can run it with only the SDK installed.

What every SDK's driver shares (the scenario's cases, the typed words, captured runs, the moves
and the worker process) is ``study``'s. It is registered as the others are (``sdks.FOLDERS``:
``python``; ``words``: its words for a table's title) and sits above the lab with the other
folders; the doctor and the lab reach it by name (``sdks.sdk_module``). It holds no plugin yet:
its studies are still the lab's (docs/layout.md).
"""

from __future__ import annotations

from .. import Door

# What the notebooks use of the folder (a lazy door, as the other folders' are; the core's door
# hands on the same names).
_SOURCES: dict[str, tuple[str, ...]] = {
    ".harness": ("run_case", "run_matrix"),
    ".wiring": ("backend_for",),
}
_DOOR = Door(__name__, _SOURCES)
__all__ = _DOOR.public
__getattr__ = _DOOR.load
__dir__ = _DOOR.listed
