"""The JS regression test (vitest) and the patch lab, on the pinned @openai/agents."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from needs import require

from approval_compaction.analysis.invariants import judge_all
from approval_compaction.lab.js.harness import installed, run_plans
from approval_compaction.lab.js.patched import PatchError, patched_folder
from approval_compaction.lab.js.sdk_test import run_sdk_test, vitest_installed
from approval_compaction.lab.js.sweep import PLANS, record

pytestmark = [pytest.mark.enable_socket, pytest.mark.subprocess]


@pytest.fixture(autouse=True)
def _node() -> None:
    if shutil.which("node") is None:
        require("node is not installed: `make setup` installs Debian's nodejs", "JS harness")
    if not installed():
        require("the JS harness's packages are missing: `make setup` runs npm ci", "JS harness")


@pytest.fixture
def _vitest() -> None:
    if not vitest_installed():
        require("vitest is missing: `make js-sdk-test` installs js/sdk-test", "JS regression")


@pytest.mark.usefixtures("_vitest")
def test_regression_test_fails_on_the_pinned_release_and_passes_patched() -> None:
    """Every case of the SDK-style test fails on 0.20.0 (the pending call is compacted at the
    pause) and passes once the fix is applied."""
    bare, fixed = run_sdk_test(), run_sdk_test(patched_folder())
    assert (bare.tests, bare.passed, bare.failed) == (32, 0, 32)
    assert (fixed.tests, fixed.passed, fixed.failed) == (32, 32, 0)


def test_patched_package_holds_every_invariant_in_every_mode() -> None:
    for plan, runs in zip(PLANS, run_plans(PLANS, patched_folder()), strict=True):
        assert record(plan, judge_all(runs)).violating == 0, plan.label
        assert any(stage.compaction_inputs for run in runs for stage in run.stages), plan.label


def test_patch_that_does_not_apply_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.diff"
    bad.write_text("--- a/dist/nothing.mjs\n+++ b/dist/nothing.mjs\n@@ -1 +1 @@\n-a\n+b\n")
    with pytest.raises(PatchError, match=r"^bad\.diff does not apply: ") as raised:
        patched_folder(bad)
    assert "\n" not in str(raised.value)
