"""The ADK sweep's plans: every kind, judged by the one record every driver's sweep writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.adk.harness import SITUATIONS, Plan
from approval_compaction.adk.sweep import PLANS, liveness_plans, record
from approval_compaction.adk.words import KINDS as ADK_KINDS
from approval_compaction.analysis.invariants import judge_all
from approval_compaction.lab.releases.driven import NEVER_COMPACTED
from approval_compaction.study.capture import CaseRun, Stage
from approval_compaction.study.scenario import Case


def test_sweep_runs_every_kind_with_every_case() -> None:
    assert [p.kind for p in PLANS] == list(ADK_KINDS)
    assert all(len(p.cases) == 16 and not p.situations for p in PLANS)


def test_sweep_liveness_plans_run_the_situations_instead_of_the_cases() -> None:
    plans = liveness_plans(turns=3)
    assert all(p.cases == () and p.situations == SITUATIONS and p.later == 3 for p in plans)
    assert "long_running" in SITUATIONS and "resumed" in SITUATIONS


def test_sweep_record_names_the_kind_and_where_adk_raised() -> None:
    raised = Stage.from_json({"name": "resume", "stored": [], "outcome": "builtins.ValueError: x"})
    run = CaseRun(Case(), "1.16.0", [raised], 1, 1, mode="window-1", sdk="adk")
    row = record(Plan("window-1"), judge_all([run]))
    assert (row.plan, row.mode, row.raised_at, row.sdk_version) == (
        "window-1", "window-1", "resume", "1.16.0",
    )  # fmt: skip


def test_sweep_record_says_when_compaction_never_ran_in_a_case_that_turns_it_on() -> None:
    """google-adk 2.0.0 and 2.1.0: a root LlmAgent on the node runtime never compacts, so no
    case breaks an invariant; the record says why instead of calling the kind clean."""
    quiet = Stage.from_json({"name": "pause", "stored": []})
    given = Stage.from_json({"name": "pause", "stored": [], "compaction_inputs": [[]]})
    on, off = Case("run", "approve", "on", "memory"), Case("run", "approve", "off", "memory")
    never = [CaseRun(c, "2.0.0", [quiet], 1, 1, sdk="adk") for c in (on, off)]
    ran = [CaseRun(on, "2.2.0", [given], 1, 1, sdk="adk")]
    assert record(Plan("window-0"), judge_all(never)).not_applicable == NEVER_COMPACTED
    assert record(Plan("window-0"), judge_all(ran)).not_applicable == ""


@pytest.mark.slow
@pytest.mark.releases
@pytest.mark.subprocess
@pytest.mark.enable_socket  # the stand-in the harness serves on 127.0.0.1
def test_sweep_over_http_writes_each_kind_of_a_release_with_its_model_named(tmp_path: Path) -> None:
    """2.4.0, the first release with OpenAIResponsesLlm (under ``labs``): every kind runs over
    HTTP and reads as the committed scripted sweep predicted."""
    from approval_compaction.adk.finding import load_adk, result
    from approval_compaction.adk.sweep import sweep_over_http
    from approval_compaction.formats.records import read_records
    from approval_compaction.lab import paths
    from approval_compaction.lab.releases.driven import SweepRecord

    (path,) = [p for p in sweep_over_http(["2.4.0"], tmp_path) if p.suffix == ".json"]
    rows = read_records(path, SweepRecord)
    assert [r.plan for r in rows] == [
        f"{k} over HTTP" for k in ("window-0", "window-1", "tokens-0", "tokens-2")
    ]
    found = load_adk(paths.DATA)
    assert found is not None
    predicted = {r.mode: result(r) for r in found.sweep if r.sdk_version == "2.4.0"}
    assert {r.mode: result(r) for r in rows} == predicted
