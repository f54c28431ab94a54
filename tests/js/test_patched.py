"""The patch lab: the fix applied to a copy of the pinned @openai/agents; a bad patch."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.analysis.invariants import judge_all
from approval_compaction.js.harness import run_plans
from approval_compaction.js.patched import PatchError, patched_folder
from approval_compaction.js.sweep import PLANS
from approval_compaction.lab.releases.driven import record

pytestmark = [
    pytest.mark.enable_socket,
    pytest.mark.subprocess,
    pytest.mark.usefixtures("node_harness"),
]


FIX = Path(__file__).resolve().parents[2] / "js" / "fix"


@pytest.mark.parametrize(
    "patch",
    ["agents-openai-0.20.0.diff", "agents-openai-0.20.0-both.diff"],
    ids=["pending", "both"],
)
def test_patched_package_holds_every_invariant_in_every_mode(patch: str) -> None:
    """The pending call's fix, alone and with the stall's: the sixteen cases hold in every plan,
    and the cases whose hook says yes still compact."""
    for plan, runs in zip(PLANS, run_plans(PLANS, patched_folder(FIX / patch)), strict=True):
        assert record(plan, judge_all(runs)).violating == 0, plan.label
        assert any(stage.compaction_inputs for run in runs for stage in run.stages), plan.label


def test_patch_that_does_not_apply_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.diff"
    bad.write_text("--- a/dist/nothing.mjs\n+++ b/dist/nothing.mjs\n@@ -1 +1 @@\n-a\n+b\n")
    with pytest.raises(PatchError, match=r"^bad\.diff does not apply: ") as raised:
        patched_folder(bad)
    assert "\n" not in str(raised.value)
