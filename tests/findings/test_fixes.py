"""Fixes: the evidence each upstream fix's report renders (the repository's tools, its suite,
the mutants), read from data/ files and turned into tables."""

from __future__ import annotations

import json
from pathlib import Path

from approval_compaction.formats.records import write_records
from approval_compaction.lab.findings.fixes import (
    checks,
    checks_frame,
    mutants,
    upstream,
)
from approval_compaction.lab.mutation import MutantRecord
from approval_compaction.lab.releases.driven import CheckRecord

TSC = "tsc --noEmit (its tsconfig.json)"
ESLINT = "eslint (its eslint.config.mjs rules)"
ROWS = [
    CheckRecord("pending", "tsc", TSC, 1, 0, ""),
    CheckRecord("stall", "tsc", TSC, 1, 2, "a.ts(3,1): error TS2304\na.ts(9,1): error TS2304"),
    CheckRecord("pending", "eslint", ESLINT, 1, 1, ""),
    CheckRecord("stall", "eslint", ESLINT, 1, 0, ""),
    CheckRecord("tests", "tsc", TSC, 2, 0, ""),
]


def _mutant(fix: str, name: str) -> MutantRecord:
    return MutantRecord(fix, name, "drops a check", 4, 1, "kills it", True, "kills it", "")


def test_checks_frame_one_row_a_tool_one_column_a_subject_in_the_order_asked() -> None:
    frame = checks_frame(ROWS, ["stall", "pending"])
    assert list(frame.columns) == ["stall", "pending"]
    assert frame.index.name == "tool"
    assert frame.loc[TSC].to_dict() == {
        "stall": "2 problems: a.ts(3,1): error TS2304",
        "pending": "clean",
    }
    assert frame.loc[ESLINT, "pending"] == "1 problems"  # a count with nothing said
    assert "tests" not in frame.columns


def test_checks_and_mutants_read_what_was_written_and_nothing_when_absent(tmp_path: Path) -> None:
    write_records(tmp_path / "checks.json", ROWS, CheckRecord)
    assert checks(tmp_path / "checks.json") == ROWS
    assert checks(tmp_path / "absent.json") == []
    rows = [_mutant("a.diff", "dropped"), _mutant("b.diff", "widened")]
    write_records(tmp_path / "mutants.json", rows, MutantRecord)
    assert mutants(tmp_path / "mutants.json") == rows
    assert [r.mutant for r in mutants(tmp_path / "mutants.json", "b.diff")] == ["widened"]
    assert mutants(tmp_path / "absent.json", "a.diff") == []


def test_upstream_is_none_until_a_run_is_recorded(tmp_path: Path) -> None:
    assert upstream(tmp_path / "js-upstream.json") is None
    (tmp_path / "js-upstream.json").write_text(json.dumps({"runs": [], "source": "a checkout"}))
    assert upstream(tmp_path / "js-upstream.json") == {"runs": [], "source": "a checkout"}
