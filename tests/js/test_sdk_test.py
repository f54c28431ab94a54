"""The SDK-style regression test (js/sdk-test, vitest) on the pinned and the patched package."""

from __future__ import annotations

import pytest
from needs import require

from approval_compaction.js.patched import patched_folder
from approval_compaction.js.sdk_test import run_sdk_test, vitest_installed

pytestmark = [
    pytest.mark.enable_socket,
    pytest.mark.subprocess,
    pytest.mark.usefixtures("node_harness"),
]


@pytest.fixture
def _vitest() -> None:
    if not vitest_installed():
        require("vitest is missing: `make js-sdk-test` installs js/sdk-test", "JS regression")


@pytest.mark.usefixtures("_vitest")
def test_regression_test_fails_on_the_pinned_release_and_passes_patched() -> None:
    """Every case of the SDK-style test fails on 0.20.0 (the pending call is compacted at the
    pause, and so is a call of each kind the runner pairs) but the application's own compaction,
    and every case passes once the fix is applied."""
    bare, fixed = run_sdk_test(), run_sdk_test(patched_folder())
    assert (bare.tests, bare.passed, bare.failed) == (39, 1, 38)
    assert [name.split(": ")[1] for name in bare.failing if "program" in name] == [
        "compacts automatically only once the 'program' has its answer"
    ]
    assert (fixed.tests, fixed.passed, fixed.failed) == (39, 39, 0)
