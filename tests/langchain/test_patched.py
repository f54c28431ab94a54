"""The patched package: the fix applies to the pinned release, the reproduction then passes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from approval_compaction.langchain.patched import FIX, PatchError, label, patched_environment
from approval_compaction.langchain.report import REPRO


def test_patched_label_names_the_release_and_the_patch() -> None:
    assert label(FIX, "1.5.2") == "1.5.2+langchain-1.5.2.diff"


def test_patched_a_missing_patch_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(PatchError, match="^no patch at "):
        patched_environment(tmp_path / "none.diff")


@pytest.mark.slow
@pytest.mark.releases
@pytest.mark.subprocess
def test_patched_the_reproduction_passes_on_the_patched_package() -> None:
    env = patched_environment()
    done = subprocess.run([str(env.python), str(REPRO)], capture_output=True, text=True,
                          timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0 and "unanswered tool calls: []" in done.stdout
