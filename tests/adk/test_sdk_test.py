"""The regression test for adk-python: the file a maintainer pastes, and its outcome on the
pinned release as it is and patched (slow: it runs in their environments)."""

from __future__ import annotations

import pytest

from approval_compaction.adk.packages import pinned, release_environment
from approval_compaction.adk.patched import BOTH_FIXES, LONG_RUNNING_FIX, patched_environment
from approval_compaction.adk.sdk_test import (
    ADK_REGRESSION_TEST,
    LONG_RUNNING_TEST,
    run_sdk_test,
)


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
    failing = (
        "test_late_answer_reaches_the_summarizer_with_its_call[confirmation-tokens_retention2]"
    )
    assert released.failed > 0 and failing in released.failing
    patched = run_sdk_test(patched_environment().python)
    assert (patched.tests, patched.failed) == (released.tests, 0)


def test_long_running_test_names_what_it_extends_in_adk_pythons_layout() -> None:
    text = LONG_RUNNING_TEST.read_text()
    assert LONG_RUNNING_TEST.parent == ADK_REGRESSION_TEST.parent
    assert "#7236" in text and "#7237" in text
    assert "  def " in text and "    def " not in text
    assert max(len(line) for line in text.splitlines()) <= 80  # pyink's line length


@pytest.mark.slow
@pytest.mark.releases
@pytest.mark.subprocess
def test_long_running_test_fails_on_the_pinned_release_and_passes_with_its_fix() -> None:
    """A long-running call nobody answers stops compaction for good on the pinned release, and
    is sent to the model without its result, in every trigger; with the fix (alone, or beside
    the late answer's) every test passes."""
    released = run_sdk_test(release_environment(pinned()).python, LONG_RUNNING_TEST)
    for title in ("does_not_stop_compaction", "is_not_sent_without_its_result"):
        failing = [
            f
            for f in released.failing
            if f.startswith(f"test_unanswered_long_running_call_{title}[")
        ]
        assert len(failing) == 8, title
    assert released.passed > 0
    for patch in (LONG_RUNNING_FIX, BOTH_FIXES):
        patched = run_sdk_test(patched_environment(patch).python, LONG_RUNNING_TEST)
        assert (patched.tests, patched.failed) == (released.tests, 0)
