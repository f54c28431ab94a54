"""The JavaScript SDK (``@openai/agents``): the study's scenario on it, as one folder.

Everything of the JS SDK lives here, and the shared code reaches it only by name: the lab through
its plugin registry (``lab.plugins``: ``plugin.py``), the doctor through ``sdks``.

- ``driver.mjs`` is the one Node driver (ESM, the SDK's public API, over HTTP to the stand-in):
  it drives and records, and judges nothing; ``harness`` runs it on the ``@openai/agents``
  installed in any folder (the project's pinned one, a release's, or a team's own
  ``node_modules``) and reads what it wrote; ``items`` maps the JS SDK's item protocol
  (``function_call_result``, ``callId``) to the wire's shapes, in this one place, both ways;
  ``check`` is ``doctor check --js`` on a team's package. These three are what the doctor loads:
  they import nothing of the lab, and ``driver.mjs`` ships in the wheel as package data;
- ``packages`` installs every release with npm; ``sweep`` runs every release that has the
  compaction session, judged by the shared invariants; ``patched``, ``sdk_test``, ``typecheck``,
  ``mutants`` and ``upstream``: the fixes on a patched package, the regression tests in the SDK's
  own style, checked with its tools, mutated, and its own suite; ``stall`` runs a plain
  conversation on each release, for the session that stops compacting after its first
  compaction, and ``fakes`` reads which answer the SDK's own tests give ``responses.compact``;
  ``source`` and ``types``: the SDK's shipped code, cited; ``fuzz`` judges the workaround's
  store fuzzer (``js/storefuzz.mjs``: store faults and interleavings);
- ``finding`` and ``stall_finding``: the shared tables with the JS SDK's words as data;
  ``report``: the issues in openai-agents-js's form; ``front``: its part of the front page;
  ``moves``: its moves for the state-space search; ``arguments`` and ``commands``: the command
  line; ``plugin``: the registry entry the shared code reads.

The top-level ``js/`` folder holds what a maintainer or a team copies: ``workaround.mjs``, the
fixes (``fix/``) and the regression tests in the SDK's own style (``sdk-test/``).
"""

from __future__ import annotations

from .. import Door

# What notebook 11 uses of the folder (a lazy door, as the core's and the lab's are).
_SOURCES: dict[str, tuple[str, ...]] = {
    ".harness": ("Plan", "run_plan", "run_situations"),
    ".items": ("wire_item",),
    ".finding": (
        "as_released_modes",
        "js_exposure_frame",
        "js_liveness_frame",
        "js_modes_frame",
        "js_ranges_frame",
        "load_js",
        "load_js_liveness",
    ),
    ".stall": ("stall_plan",),
    ".stall_finding": ("load_stall", "stall_figure", "turns_frame"),
    ".source": ("compaction_lines",),
    ".report": ("js_fix_frame", "js_workaround_ranges"),
}
_DOOR = Door(__name__, _SOURCES)
__all__ = _DOOR.public
__getattr__ = _DOOR.load
__dir__ = _DOOR.listed
