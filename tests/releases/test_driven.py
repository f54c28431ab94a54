"""What every driver's sweep shares: a plan's record from its runs, or from a failed install."""

from dataclasses import dataclass

from approval_compaction.analysis.invariants import judge_all
from approval_compaction.lab.releases.driven import (
    NEVER_COMPACTED,
    never_compacted,
    record,
    unavailable,
)
from approval_compaction.study.harness import run_matrix
from approval_compaction.study.scenario import Case


@dataclass(frozen=True)
class _Plan:
    label: str = "input"
    mode: str = "input"
    response_store: bool | None = None
    trigger: str | int = "case"
    session: str = "memory"
    process: bool = False


def test_unavailable_keeps_the_reason_and_counts_no_case() -> None:
    row = unavailable("0.3.0", _Plan(process=True), "npm install failed")
    assert (row.sdk_version, row.cases, row.violating) == ("0.3.0", 0, 0)
    assert row.not_applicable == "npm install failed" and row.session == "process"


def test_record_counts_the_cases_that_break_an_invariant_and_where_the_user_met_it() -> None:
    cases = [Case("run", "approve", "on", "json"), Case("run", "approve", "off", "json")]
    row = record(_Plan(), judge_all(run_matrix(cases)))
    assert (row.cases, row.violating) == (2, 1)
    assert "stored_history_paired" in row.invariants.split()
    assert row.raised_at == ""  # the scripted model answers every request: nothing raised
    assert row.not_applicable == ""


def test_never_compacted_only_when_cases_turn_compaction_on_and_none_ran() -> None:
    ran = run_matrix([Case("run", "approve", "on", "json")])
    assert never_compacted(ran) == ""
    assert never_compacted(run_matrix([Case("run", "approve", "off", "json")])) == ""
    idle = [r.__class__(**{**r.__dict__, "stages": ()}) for r in ran]
    assert never_compacted(idle) == NEVER_COMPACTED
