"""The regression test for langchain: it fails on the pinned release, passes patched, and each
simplification of the fix fails it."""

from __future__ import annotations

import pytest

from approval_compaction.langchain.packages import pinned, release_environment
from approval_compaction.langchain.patched import FIX, patched_environment
from approval_compaction.langchain.sdk_test import MUTANTS, run_mutants, run_sdk_test


def test_sdk_test_every_mutant_changes_a_line_the_fix_adds() -> None:
    added = "".join(line[1:] + "\n" for line in FIX.read_text().splitlines()
                    if line.startswith("+") and not line.startswith("+++"))  # fmt: skip
    for name, before, _ in MUTANTS:
        assert before.splitlines()[0] + "\n" in added or before in added, name


@pytest.mark.slow
@pytest.mark.releases
@pytest.mark.subprocess
def test_sdk_test_fails_on_the_release_passes_patched_and_pins_the_fix() -> None:
    assert run_sdk_test(release_environment(pinned()).python).passed == 0
    patched = patched_environment()
    assert run_sdk_test(patched.python).failed == 0
    assert all(run.failed for run in run_mutants(patched.python).values())
