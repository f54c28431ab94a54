"""The liveness situations on the pinned @openai/agents, through the harness, judged by
analysis.liveness: the workaround keeps the session compacting; the bare release does not."""

from __future__ import annotations

from dataclasses import replace

import pytest

from approval_compaction import paths
from approval_compaction.analysis.liveness import judge_liveness, resume_paired, session_usable
from approval_compaction.js.harness import run_situations
from approval_compaction.js.sweep import SITUATIONS, liveness_plans, run_js_liveness

pytestmark = [
    pytest.mark.enable_socket,
    pytest.mark.subprocess,
    pytest.mark.usefixtures("node_harness"),
]
TURNS = 3


def test_workaround_keeps_compacting_in_every_situation_and_mode() -> None:
    """Each situation in each plan, the session wrapped by js/workaround.mjs: every later turn
    compacts, the history stays bounded, no turn is refused, and a late resume stores nothing
    unpaired. Judged both ways, a late hosted MCP resume sends its approval request without its
    response while it waits (a pairing rule no public source gives for MCP approvals); a late
    function call's resume sends nothing unpaired."""
    runs = run_js_liveness(paths.ROOT, workaround=True, turns=TURNS)
    assert sorted({(r.scenario, r.mode) for r in runs}) == sorted(
        (s, m)
        for s in SITUATIONS
        for m in ("input", "previous_response_id", "auto", "auto-store-false")
    )
    for run in runs:
        where = f"{run.scenario} in {run.mode}"
        assert run.error == "" and len(run.turns) == TURNS, where
        assert [v.holds for v in judge_liveness(run)] == [True, True], where
        assert session_usable(run).holds is True, where
        if run.scenario.endswith("resumed"):
            verdict = resume_paired(run)
            assert run.resumed and verdict.stored == (), where
            if run.scenario.startswith("mcp"):
                assert verdict.sent and all(k.startswith("mcpr_") for k in verdict.sent), where
            else:
                assert verdict.holds is True, where


def test_bare_release_stops_compacting_after_its_first_compaction() -> None:
    """The clean control on 0.20.0 as it is: the first later turn compacts, no later one does
    (the runner sends nothing before the compaction item; the session's coverage check then
    finds stored user messages the exchange does not cover)."""
    (plan,) = [replace(p, situations=("clean",)) for p in liveness_plans(turns=TURNS)[:1]]
    ((run,),) = run_situations([plan])
    assert [t.compacted for t in run.turns] == [True, False, False]
    assert [v.holds for v in judge_liveness(run)] == [False, False]
