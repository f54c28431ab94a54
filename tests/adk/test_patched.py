"""The patched ADK environment: keyed by release and patch, a patch that is missing is one
line; the slow test applies the project's fix and proves it with the regression test."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.adk.patched import (
    FIX,
    PatchError,
    label,
    patch_key,
    patched_environment,
)


def test_patched_key_follows_the_patch_and_the_release(tmp_path: Path) -> None:
    other = tmp_path / "other.diff"
    other.write_text("--- a/x\n+++ b/x\n")
    assert patch_key(FIX, "2.13.0") != patch_key(other, "2.13.0")
    assert patch_key(FIX, "2.13.0") != patch_key(FIX, "2.12.0")
    assert label(FIX, "2.13.0") == f"2.13.0+{FIX.name}"


def test_patched_missing_patch_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(PatchError, match="no patch at"):
        patched_environment(tmp_path / "missing.diff")


@pytest.mark.slow
@pytest.mark.releases
@pytest.mark.subprocess
def test_patched_fix_applies_to_the_pinned_release() -> None:
    env = patched_environment()
    site = next(env.folder.glob("lib/python*/site-packages"))
    assert (
        "_recover_compacted_function_calls("
        in (site / "google" / "adk" / "apps" / "compaction.py").read_text()
    )
