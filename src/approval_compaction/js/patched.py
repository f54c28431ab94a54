"""Patched: an installed ``@openai/agents`` with a patch applied to its ``@openai/*`` packages,
in a folder of its own, for the JS patch lab.

The npm tarballs publish ``dist/`` only (their source maps name ``src/*.ts`` but carry no
sources), so a patch is a unified diff against the packages' own files, paths as
``agents-openai/dist/memory/...`` (or ``agents-core/dist/...``) under ``a/`` and ``b/``, the
monorepo's ``packages/`` folder names (``js/fix/`` holds the project's). The base
folder's ``node_modules`` is copied to ``approval-compaction/npm/_patched/<hash>`` in the
user's cache, keyed by the base release and the patch's content, and the patch applied there
(``patch -p1``); the repository's own ``node_modules`` is never written. A patch that does not
apply is one line, and nothing is left behind. ``run_plans`` and the SDK-style test take the
folder like any release's.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from ..lab import paths
from ..lab.releases.driven import PatchError as PatchError
from ..lab.releases.driven import apply_patch, patch_key
from .harness import installed
from .packages import cache_folder, pinned

PATCH_ROOT = Path("node_modules") / "@openai"  # holds agents-core, agents-openai, ...
FIX = paths.ROOT / "js" / "fix" / "agents-openai-0.20.0.diff"  # the pending call's fix
BOTH = paths.ROOT / "js" / "fix" / "agents-openai-0.20.0-both.diff"  # it and the stall's fix


def patched_folder(patch: Path = FIX, base: Path = paths.ROOT) -> Path:
    """A folder like ``base`` whose ``@openai/agents-openai`` has ``patch`` applied (made once)."""
    if not patch.is_file():
        raise PatchError(f"no patch at {patch}")
    if not installed(base):
        raise PatchError(f"no @openai/agents installed in {base}: run `npm ci` there")
    folder = cache_folder() / "_patched" / patch_key(patch, pinned())
    if installed(folder):
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder.parent, prefix=".making-") as making:
        work = Path(making) / "package"
        shutil.copytree(base / "node_modules", work / "node_modules", symlinks=True)
        shutil.copyfile(base / "package.json", work / "package.json")
        refused = apply_patch(patch, work / PATCH_ROOT, strip=1)
        if refused is not None:
            raise PatchError(refused)
        try:
            work.rename(folder)
        except OSError:  # another process made it first: theirs is the same content
            if not installed(folder):
                raise
    return folder
