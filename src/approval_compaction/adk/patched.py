"""Patched: a ``google-adk`` release with a patch applied, in an environment of its own, for the
ADK fix.

The wheel ships ``google/adk/`` as source, the files adk-python keeps under ``src/google/adk/``
(the same text: the sdist's ``src/`` is the repository's), so a patch is a unified diff as the
repository takes it, paths as ``src/google/adk/...`` under ``a/`` and ``b/`` (``adk/fix/`` holds
the project's), applied in the installed package's ``site-packages`` with ``patch -p2``. The
environment is made as the release's is (``packages``), under
``_patched/<hash>`` in the same cache, keyed by the release and the patch's content, and the
patch applied in its ``site-packages`` (``patch -p2``); the release's own environment is never
written. A patch that does not apply is one line, and nothing is left behind.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

from ..errors import InvestigationError
from ..lab import paths
from ..lab.releases.environments import Environment, install, record, recorded, uv_binary
from .packages import cache_folder, environment, pinned

FIX = paths.ROOT / "adk" / "fix" / "google-adk-2.13.0.diff"
# A long-running call nobody answers no longer stops compaction for good; and both fixes.
LONG_RUNNING_FIX = FIX.with_name("google-adk-2.13.0-long-running.diff")
BOTH_FIXES = FIX.with_name("google-adk-2.13.0-both.diff")
MARKER = "approval-compaction-patch.json"


class PatchError(InvestigationError):
    """A patch that cannot be applied to the installed package, in one line."""


def patch_key(patch: Path, version: str) -> str:
    digest = hashlib.sha256(version.encode() + b"\0" + patch.read_bytes()).hexdigest()
    return digest[:16]


def label(patch: Path = FIX, version: str | None = None) -> str:
    """The patched package's name in records: ``2.13.0+google-adk-2.13.0.diff``."""
    return f"{version or pinned()}+{patch.name}"


def patched_environment(patch: Path = FIX, version: str | None = None) -> Environment:
    """The release's environment with ``patch`` applied to its ``google/adk`` (made once)."""
    if not patch.is_file():
        raise PatchError(f"no patch at {patch}")
    release = version or pinned()
    key = patch_key(patch, release)
    env = replace(environment(release), folder=cache_folder() / "_patched" / key)
    if env.ready() and recorded(env.folder / MARKER, key):
        return env
    shutil.rmtree(env.folder, ignore_errors=True)
    error = install(env, uv_binary())
    if error is not None:
        raise PatchError(f"google-adk {release}: {error}")
    site = next(env.folder.glob("lib/python*/site-packages"))
    given = str(patch.resolve())  # patch runs in site-packages: a relative path would not be found
    done = subprocess.run(
        ["patch", "-p2", "--forward", "--batch", "--no-backup-if-mismatch", "-i", given],
        cwd=site, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        shutil.rmtree(env.folder, ignore_errors=True)
        said = [line for line in f"{done.stdout}\n{done.stderr}".splitlines() if line.strip()]
        raise PatchError(f"{patch.name} does not apply: {said[-1] if said else 'no output'}")
    record(env.folder / MARKER, key)
    return env
