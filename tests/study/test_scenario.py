"""The scenario's cases and the filters that select them."""

from __future__ import annotations

import pytest

from approval_compaction.study.scenario import Case, CaseValueError, all_cases, select_cases


def test_scenario_has_sixteen_distinct_cases() -> None:
    cases = all_cases()
    assert len(cases) == 16 and len(set(cases)) == 16


def test_scenario_filter_selects_matching_cases() -> None:
    chosen = select_cases("decision=reject,compaction=on")
    assert len(chosen) == 4
    assert all(c.decision == "reject" and c.compaction == "on" for c in chosen)


def test_scenario_filter_accepts_alternatives() -> None:
    assert len(select_cases("runner=run|run_streamed,state_boundary=json")) == 8


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Case(runner="walk"), "unknown runner 'walk': expected one of run, run_streamed"),
        (lambda: select_cases("decision=maybe"), "unknown decision 'maybe'"),
        (lambda: select_cases("colour=red"), "unknown case field 'colour'"),
        (lambda: select_cases("runner"), "case filter 'runner' is not field=value"),
    ],
    ids=["bad-runner", "bad-decision", "bad-field", "no-equals"],
)
def test_scenario_bad_value_is_one_line_error(make: object, message: str) -> None:
    with pytest.raises(CaseValueError) as info:
        make()  # type: ignore[operator]
    assert message in str(info.value) and "\n" not in str(info.value)
