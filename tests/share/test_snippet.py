"""Snippet: the upstream comment, and the test as a maintainer would paste it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from factories import cross_record, matrix_record

from approval_compaction.analysis.matrix import MatrixRecord
from approval_compaction.errors import InvestigationError
from approval_compaction.formats.records import records_json
from approval_compaction.releases.crosscheck import TEST_FILE
from approval_compaction.share.snippet import before_after, build, releases_sentence, upstream_test


def test_upstream_test_drops_the_project_block_only() -> None:
    text = upstream_test(TEST_FILE.read_text())
    assert "approval_compaction" not in text
    assert "xfail" not in text
    assert 'SESSION_VARIANTS: list[Any] = [pytest.param(None, id="sdk")]' in text
    assert "def test_compaction_keeps_pending_approval_call_paired" in text
    compile(text, "pasted.py", "exec")


def test_upstream_test_refuses_a_file_without_the_block() -> None:
    with pytest.raises(InvestigationError, match="found 0"):
        upstream_test("def test_x() -> None:\n    pass\n")


def test_pasted_test_fails_on_the_pinned_release(tmp_path: Path) -> None:
    """What a maintainer pastes catches the bug: all four cases fail on 0.23.1."""
    (tmp_path / "test_pasted.py").write_text(upstream_test(TEST_FILE.read_text()))
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nasyncio_default_fixture_loop_scope = function\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_pasted.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert "4 failed" in proc.stdout.splitlines()[-1]
    assert proc.stdout.count("calls compacted without their output") >= 4


def row(invariant: str, holds: bool | None, compaction_requests: int = 0) -> MatrixRecord:
    return matrix_record(invariant=invariant, holds=holds, compaction_requests=compaction_requests)


def test_before_after_counts_cases_and_compactions() -> None:
    table = before_after(
        {
            "old": [row("next_turn_input_paired", False, 2), row("decision_enforced", True, 2)],
            "new": [row("next_turn_input_paired", True, 1), row("decision_enforced", True, 1)],
        }
    )
    assert (
        "| `next_turn_input_paired` | ❌ violated in 1 of 1 cases | ✅ holds in 1 of 1 cases |"
        in table
    )
    assert table.splitlines()[-1] == "| compaction requests, all 16 cases | 2 | 1 |"


def test_releases_sentence_spans_failing_and_passing_releases() -> None:
    records = [
        cross_record(sdk_version=v, unfixed=u, agrees=True, workaround=w)
        for v, u, w in [
            ("0.8.0", "failed", "passed"),
            ("0.10.0", "failed", "failed"),
            ("0.24.0", "passed", "passed"),
        ]
    ]
    sentence = releases_sentence(records)
    assert sentence.endswith("session it passes on 2 releases (0.8.0 to 0.24.0).")
    assert "fails on 2 releases (0.8.0 to 0.10.0) and passes on 0.24.0" in sentence
    assert "in 3 of 3" in sentence


def test_build_is_deterministic_and_reads_the_data(tmp_path: Path) -> None:
    rows = [matrix_record(holds=False, compaction_requests=2, sdk_version="0.23.1")]
    (tmp_path / "matrix.json").write_text(records_json(rows))
    text = build(tmp_path)
    assert text == build(tmp_path)
    assert "| invariant | 0.23.1 | 0.23.1 + workaround | newest |" in text
    assert "| `next_turn_input_paired` | ❌ violated in 1 of 1 cases | not run | not run |" in text
    assert "The test has not been run across releases yet." in text
    assert text.count("```") == 2
