"""The traced run's record: what data/mechanism.json keeps of it reads back whole."""

from __future__ import annotations

import json
from dataclasses import asdict

from approval_compaction.lab.mechanism.catalogue import PINNED
from approval_compaction.lab.mechanism.record import recorded_release
from approval_compaction.lab.mechanism.trace import (
    BOUNDARY_CASES,
    REPORT_CASE,
    Trace,
    as_tuples,
)


def test_a_trace_reads_back_from_its_json() -> None:
    trace = recorded_release(PINNED).trace
    assert Trace.from_json(json.loads(json.dumps(asdict(trace)))) == trace


def test_the_boundary_cases_are_the_report_case_across_json_and_memory() -> None:
    assert BOUNDARY_CASES["json"] == REPORT_CASE
    assert BOUNDARY_CASES["memory"].state_boundary == "memory"
    assert as_tuples({"a": ["x", "y"]}) == {"a": ("x", "y")}
