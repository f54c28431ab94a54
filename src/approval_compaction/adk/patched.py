"""Patched: a ``google-adk`` release with a patch applied, in an environment of its own, for the
ADK fix.

The wheel ships ``google/adk/`` as source, the files adk-python keeps under ``src/google/adk/``
(the same text: the sdist's ``src/`` is the repository's), so a patch is a unified diff as the
repository takes it, paths as ``src/google/adk/...`` under ``a/`` and ``b/`` (``adk/fix/`` holds
the project's), applied in the installed package's ``site-packages`` with ``patch -p2``. The
shared ``UvPackage.patched`` (``lab.releases.driven``) makes the environment as the release's is,
under ``_patched/<hash>`` in the same cache, keyed by the release and the patch's content; the
release's own environment is never written. A patch that does not apply is one line, and
nothing is left behind.
"""

from __future__ import annotations

from pathlib import Path

from ..lab import paths
from ..lab.releases.driven import PatchError as PatchError
from ..lab.releases.driven import patch_key as patch_key
from ..lab.releases.environments import Environment
from .packages import RELEASES

FIX = paths.ROOT / "adk" / "fix" / "google-adk-2.13.0.diff"
# A long-running call nobody answers no longer stops compaction for good; and both fixes.
LONG_RUNNING_FIX = FIX.with_name("google-adk-2.13.0-long-running.diff")
BOTH_FIXES = FIX.with_name("google-adk-2.13.0-both.diff")


def label(patch: Path = FIX, version: str | None = None) -> str:
    """The patched package's name in records: ``2.13.0+google-adk-2.13.0.diff``."""
    return RELEASES.label(patch, version)


def patched_environment(patch: Path = FIX, version: str | None = None) -> Environment:
    """The release's environment with ``patch`` applied to its ``google/adk`` (made once)."""
    return RELEASES.patched(patch, version, strip=2)
