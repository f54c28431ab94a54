"""Liveness patch: the proposed SDK patch, and the committed proofs the patch lab computed."""

from __future__ import annotations

import argparse
import json
from collections import Counter

import needs
import pytest

from approval_compaction.formats.records import read_json
from approval_compaction.lab import paths
from approval_compaction.lab.releases.later_turns import LIVENESS_MODES
from approval_compaction.lab.releases.later_turns_patch import (
    BASE,
    DOCUMENTED_LIMIT,
    DOCUMENTED_TEST,
    MCP_SITUATION,
    liveness_command,
    liveness_summary,
    the_patch,
)
from approval_compaction.lab.releases.patched import PatchError, read_patch, strip_level


def test_the_patch_is_a_diff_of_the_sdk_source_labelled_by_its_content() -> None:
    patch = read_patch(paths.LIVENESS_PATCH)
    assert strip_level(patch.text, patch.name) == 2  # a/src/agents/...: git apply in the repo
    patched = the_patch()
    assert patched.base == BASE
    assert patched.label == patch.label
    changed = {line[6:] for line in patch.text.splitlines() if line.startswith("+++ b/")}
    assert changed == {
        "src/agents/memory/openai_responses_compaction_session.py",
        "src/agents/run_internal/session_persistence.py",
    }


def test_committed_test_outcomes_fail_without_the_patch_and_pass_with_it() -> None:
    data = read_json(paths.DATA_FILES.liveness_patch_test, dict)
    assert data["patch"] == the_patch().label  # the committed results are this patch's
    by_sdk = Counter((o["sdk"], o["outcome"]) for o in data["outcomes"])
    assert by_sdk[("released", "failed")] > 0
    patched = [o for o in data["outcomes"] if o["sdk"] == "patched"]
    assert patched and all(o["outcome"] == "passed" for o in patched)
    released = {o["test"] for o in data["outcomes"] if o["sdk"] == "released"}
    assert released == {o["test"] for o in patched}  # the same cases ran on both


def test_committed_mcp_runs_on_the_release_are_stuck_in_every_mode() -> None:
    """What the MCP hunk is for: on the release an abandoned hosted MCP approval request stops
    compaction in every mode (``make liveness``'s runs of the newest release)."""
    data = read_json(paths.DATA_FILES.liveness, dict)
    key = (MCP_SITUATION, the_patch().base, False)
    runs = [r for r in data["runs"] if (r["scenario"], r["sdk_version"], r["workaround"]) == key]
    released = {**data, "runs": runs}
    assert {r["mode"] for r in runs} == set(LIVENESS_MODES)
    assert (
        liveness_summary(released)
        == f"0 of {len(LIVENESS_MODES)} runs keep the session usable and both liveness invariants"
    )


def test_committed_suite_shows_previous_response_id_is_a_documented_limit() -> None:
    """Left unpatched on purpose: the class docstring documents it on both SDKs, and the SDK's
    test that pins it ran and passed on both."""
    documented = read_json(paths.DATA_FILES.liveness_patch_suite, dict)["documented"]
    assert set(documented) == {"released", "patched"}
    for found in documented.values():
        assert found["docstring"] is True
        assert found["tests"] and set(found["tests"].values()) == {"passed"}
        assert all(t.startswith(DOCUMENTED_TEST) for t in found["tests"])


def test_liveness_summary_counts_a_run_that_grows() -> None:
    data = read_json(paths.DATA_FILES.liveness, dict)
    summary = liveness_summary(data)  # the released runs: some situations are stuck
    kept, total = summary.split(" runs")[0].split(" of ")
    assert int(kept) < int(total)


def test_poisoned_history_of_the_test_is_the_committed_one() -> None:
    """The upstream test types the store 0.23.1 wrote: it is the one a real run recorded."""
    namespace: dict[str, object] = {}
    text = paths.LIVENESS_TEST.read_text()
    start = text.index("POISONED_HISTORY: list[Any] = ")
    end = text.index("\n]\n", start) + 2
    exec("from typing import Any\nCALL_ID = 'pending-c1'\n" + text[start:end], namespace)
    committed = read_json(paths.DATA_FILES.liveness, dict)["poisoned_history"]
    assert json.loads(json.dumps(namespace["POISONED_HISTORY"])) == committed


def test_liveness_refuses_a_patch_that_is_missing(tmp_path: object) -> None:
    args = argparse.Namespace(
        patch=[f"{tmp_path}/missing.diff"], sdk=None, release=None, turns=1, output=None
    )
    with pytest.raises(PatchError, match="no patch file"):
        liveness_command(args)


@pytest.mark.releases
def test_the_patch_applies_to_the_release() -> None:
    from approval_compaction.lab.releases.patched import throwaway_environment

    needs.release(BASE)

    with throwaway_environment(the_patch()) as env:
        site = next(env.folder.glob("lib/python*/site-packages"))
        source = (site / "agents/memory/openai_responses_compaction_session.py").read_text()
        assert "_starts_compaction_suffix" in source
        assert "_after_unanswered_mcp_request" in source


def test_readme_names_the_documented_limit_as_the_patch_lab_checks_it() -> None:
    readme = (paths.DOCS / "liveness.md").read_text()
    assert f'"{DOCUMENTED_LIMIT}"' in " ".join(readme.split())
    assert f"`{DOCUMENTED_TEST.split('::')[-1]}`" in readme


def test_committed_mcp_test_fails_on_the_release_for_compaction_and_passes_patched() -> None:
    """The short test a reporter pastes (notebook 10): on the release an unanswered hosted MCP
    approval request stops compaction at the first later turn; the patched SDK passes."""
    data = read_json(paths.DATA_FILES.liveness_patch_mcp, dict)
    assert data["patch"] == the_patch().label
    found = {o["sdk"]: (o["outcome"], o["message"]) for o in data["outcomes"]}
    assert found["patched"] == ("passed", "")
    outcome, message = found["released"]
    assert outcome == "failed"
    assert message.startswith("AssertionError: compaction must run at every later turn")


@pytest.mark.releases
def test_mcp_test_fails_on_the_release_as_committed() -> None:
    """Re-run on the release's own environment: the committed outcome is what the file does."""
    from approval_compaction.lab.releases.later_turns_patch import run_regression

    env = needs.release(BASE)
    ran = [o.__dict__ for o in run_regression(env, "released", paths.LIVENESS_MCP_TEST)]
    committed = read_json(paths.DATA_FILES.liveness_patch_mcp, dict)["outcomes"]
    assert ran == [o for o in committed if o["sdk"] == "released"]
