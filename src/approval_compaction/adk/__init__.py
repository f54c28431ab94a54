"""google-adk: the study's scenario on ``google-adk``, as one folder.

Everything ADK-specific lives here, and the shared code reaches it only by name: the lab
through its plugin registry (``lab.plugins``), the doctor and the display through the one list
of SDK folders (``sdks``):

- ``driver.py``: the one script that runs in a release's own environment (``google-adk``, a
  scripted ``BaseLlm`` and summariser, ADK's own session services): it drives and records, and
  judges nothing;
- ``harness``: runs it with any interpreter that has ``google-adk`` (a release's environment,
  or a team's own) and reads what it wrote; ``items``: ADK's contents and events mapped to the
  wire's shapes, in this one place; ``check``: ``doctor check --adk`` on the team's installed
  ``google-adk`` (these three import nothing of the lab);
- ``packages``: every release in its own cached environment (uv); ``sweep``: every release
  with tool confirmation and events compaction, and the liveness situations, judged by the
  shared invariants; ``changes``: what moved each boundary, from the public record; ``source``:
  permalinks into the release's code;
- ``patched`` and ``sdk_test``: the fix on a patched package and the regression test in
  adk-python's style; ``late``: the late answers split by what the fix changes; ``lint``,
  ``mutants`` and ``upstream``: the fix checked with adk-python's tools, its mutants, and
  adk-python's own tests;
- ``finding``: the shared verdict tables with ADK's words as data; ``report``: the issue for
  adk-python; ``moves``: its moves for the state-space search; ``commands``: the command line;
  ``plugin``: the registry entry the shared code reads (and the search's line for its driver).

The top-level ``adk/`` folder holds what a maintainer copies: the pin (``requirements.txt``),
the fix (``fix/``) and the regression tests in adk-python's own style (``sdk-test/``).
"""

from __future__ import annotations

from .. import Door

# What notebook 13 uses of the folder (a lazy door, as the core's and the lab's are).
_SOURCES: dict[str, tuple[str, ...]] = {
    ".sweep": ("run_adk",),
    ".finding": (
        "adk_boundaries",
        "adk_changes_by_release",
        "adk_left_frame",
        "adk_paths_frame",
        "adk_releases_frame",
        "adk_verdict_frame",
        "load_adk",
        "over_http_sweep_agreement",
    ),
}
_DOOR = Door(__name__, _SOURCES)
__all__ = _DOOR.public
__getattr__ = _DOOR.load
__dir__ = _DOOR.listed
