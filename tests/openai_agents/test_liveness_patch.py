"""The liveness patch's runs on openai-agents: the committed runs on the patched SDK
(``liveness_patch_runs``) and over HTTP (``liveness_patch_http``), and the lab's way to them."""

from __future__ import annotations

import pytest

from approval_compaction.analysis.liveness import LivenessRun, resume_paired
from approval_compaction.formats.records import read_json
from approval_compaction.lab import paths
from approval_compaction.lab.releases.later_turns import LIVENESS_MODES
from approval_compaction.lab.releases.later_turns_patch import (
    DOCUMENTED_LIMIT,
    DOCUMENTED_TEST,
    MCP_SITUATION,
    liveness_summary,
    the_patch,
)
from approval_compaction.openai_agents import liveness_patch
from approval_compaction.openai_agents.situations import RESUMED_SITUATIONS as LATE
from approval_compaction.openai_agents.situations import SITUATIONS
from approval_compaction.sdks import sdk_module


def test_liveness_patch_is_the_module_the_lab_loads_by_name() -> None:
    """``liveness-patch --part liveness``/``http`` and ``liveness --patch`` find the runs here."""
    assert sdk_module("python", "liveness_patch") is liveness_patch
    assert callable(liveness_patch.patched_liveness) and callable(liveness_patch.over_http)


def _patched_runs(modes: tuple[str, ...]) -> dict[str, object]:
    data = read_json(paths.DATA_FILES.liveness_patch_runs, dict)
    assert data["patch"] == the_patch().label
    return {**data, "runs": [r for r in data["runs"] if r["mode"] in modes]}


def test_committed_liveness_runs_on_the_patch_keep_every_run_bounded() -> None:
    """In the modes the patch is for (``input`` and ``auto``) every run keeps compacting, the
    abandoned hosted MCP approval request among them."""
    data = _patched_runs(("input", "auto"))
    total = len(data["runs"])  # type: ignore[arg-type]
    assert (
        total
        and liveness_summary(data)
        == f"{total} of {total} runs keep the session usable and both liveness invariants"
    )
    mcp = {r["mode"] for r in data["runs"] if r["scenario"] == MCP_SITUATION}  # type: ignore[attr-defined]
    assert mcp == {"input", "auto"}


def test_committed_late_resumes_on_the_patch_stay_paired_in_every_mode() -> None:
    """The patch keeps the abandoned call (the MCP request) stored, so a state resumed after the
    user moved on finds it: nothing unpaired is stored, in any mode. Judged both ways, what the
    patch leaves is sent: while a late MCP resume waits, its request goes to the model without
    its response (a pairing rule no public source gives for MCP approvals)."""
    data = _patched_runs(LIVENESS_MODES)
    runs = [LivenessRun.from_json(r) for r in data["runs"]]  # type: ignore[attr-defined]
    assert {r.scenario for r in runs} >= set(SITUATIONS)
    late = [r for r in runs if r.scenario in LATE]
    assert {(r.scenario, r.mode) for r in late} == {(s, m) for s in LATE for m in LIVENESS_MODES}
    verdicts = {(r.scenario, r.mode): resume_paired(r) for r in late}
    assert all(v.stored == () for v in verdicts.values()), verdicts
    function = {k: v for k, v in verdicts.items() if k[0] != "mcp_resumed"}
    assert function and all(v.holds for v in function.values()), function
    mcp = [v for k, v in verdicts.items() if k[0] == "mcp_resumed"]
    assert mcp and all(v.sent == ("pending-mcpr1",) for v in mcp), mcp


@pytest.mark.xfail(
    strict=True,
    reason="a documented limit, left unpatched: the class docstring says "
    f'"{DOCUMENTED_LIMIT}" and {DOCUMENTED_TEST} pins it, so with a dead item pinned '
    "the SDK returns rather than compact a partial suffix by a response chain, and the history "
    "grows for ever (use auto or input)",
)
def test_committed_liveness_runs_on_the_patch_keep_previous_response_id_bounded() -> None:
    data = _patched_runs(("previous_response_id",))
    total = len(data["runs"])  # type: ignore[arg-type]
    assert (
        total
        and liveness_summary(data)
        == f"{total} of {total} runs keep the session usable and both liveness invariants"
    )


def test_committed_http_runs_on_the_patch_stay_bounded_and_send_the_mcp_request_alone() -> None:
    data = read_json(paths.DATA_FILES.liveness_patch_http, dict)
    assert data["patch"] == the_patch().label
    assert set(data["runs"]) == {"released", "patched"}
    for run in data["runs"]["patched"]:
        kept = [t["kept"] for t in run["turns"]]
        assert kept == sorted(kept, reverse=True), f"{run['scenario']} grew: {kept}"
        sent = {key for t in run["turns"] for key in t["sent_unpaired"]}
        # only the hosted MCP approval request an abandoned approval leaves (the rule is unknown)
        assert sent <= ({"pending-mcpr1"} if run["scenario"] == MCP_SITUATION else set()), sent
    released = {r["scenario"]: r for r in data["runs"]["released"]}
    poisoned = released["poisoned"]["turns"]
    assert any(t["sent_unpaired"] for t in poisoned)  # the release sends the orphan output
    mcp = [t["compacted"] for t in released[MCP_SITUATION]["turns"]]
    assert mcp and not any(mcp)  # the release never compacts after an abandoned MCP request
