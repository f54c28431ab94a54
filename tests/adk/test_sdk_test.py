"""The regression test for adk-python: the file a maintainer pastes, and its outcome on the
pinned release as it is and patched (slow: it runs in their environments)."""

from __future__ import annotations

import pytest

from approval_compaction.lab.adk.packages import pinned, release_environment
from approval_compaction.lab.adk.patched import patched_environment
from approval_compaction.lab.adk.sdk_test import ADK_REGRESSION_TEST, run_sdk_test


def test_sdk_test_names_the_issues_it_extends_in_adk_pythons_layout() -> None:
    text = ADK_REGRESSION_TEST.read_text()
    assert ADK_REGRESSION_TEST.parts[-4:-1] == ("tests", "unittests", "apps")
    assert "#7236" in text and "#7237" in text
    assert "  def " in text and "    def " not in text  # adk-python's two-space indents


@pytest.mark.slow
@pytest.mark.releases
@pytest.mark.subprocess
def test_sdk_test_fails_on_the_pinned_release_and_passes_patched() -> None:
    """The late answer reaches the summariser without its call on the pinned release; the fix
    restores the call into the window."""
    released = run_sdk_test(release_environment(pinned()).python)
    assert released.failed > 0 and "confirmation-tokens_retention2" in released.failing
    patched = run_sdk_test(patched_environment().python)
    assert (patched.tests, patched.failed) == (released.tests, 0)
