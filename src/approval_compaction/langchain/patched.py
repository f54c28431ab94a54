"""Patched: a ``langchain`` release with a patch applied, in an environment of its own.

The wheel ships ``langchain/`` as source, so a patch is a unified diff against the installed
package's own files, paths as ``langchain/agents/...`` under ``a/`` and ``b/`` (the top-level
``langchain/fix/`` holds the project's), applied in its ``site-packages`` (``patch -p1``). The
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

FIX = paths.ROOT / "langchain" / "fix" / "langchain-1.5.2.diff"


def label(patch: Path = FIX, version: str | None = None) -> str:
    """The patched package's name in records: ``1.5.2+langchain-1.5.2.diff``."""
    return RELEASES.label(patch, version)


def patched_environment(patch: Path = FIX, version: str | None = None) -> Environment:
    """The release's environment with ``patch`` applied to its ``langchain`` (made once)."""
    return RELEASES.patched(patch, version, strip=1)
