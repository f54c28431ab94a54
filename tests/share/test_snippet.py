"""Snippet: the upstream comment, and the test as a maintainer would paste it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from factories import cross_record, matrix_record

from approval_compaction import paths
from approval_compaction.analysis.matrix import MatrixRecord
from approval_compaction.errors import InvestigationError
from approval_compaction.formats.records import read_records, records_json
from approval_compaction.releases.crosscheck import TEST_FILE
from approval_compaction.share.reproduce import committed_fix_release, one_line
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
    assert table.splitlines()[-1] == "| compaction requests | 2 in 1 cases | 1 in 1 cases |"


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
    assert "| invariant | 0.23.1 | pinned + workaround | newest |" in text
    assert "| `next_turn_input_paired` | ❌ violated in 1 of 1 cases | not run | not run |" in text
    assert "The test has not been run across releases yet." in text
    assert "Fixed in" not in text
    assert text.count("```") == 4  # the one-line command and the test


def write_column(folder: Path, stem: str, *versions: str) -> None:
    runners = ("run", "run_streamed")[: len(versions)]
    rows = [matrix_record(sdk_version=v, runner=r) for v, r in zip(versions, runners, strict=True)]
    (folder / f"{stem}.json").write_text(records_json(rows))


def test_build_names_each_column_after_the_release_of_its_records(tmp_path: Path) -> None:
    write_column(tmp_path, "matrix", "0.23.1")
    write_column(tmp_path, "fix-matrix", "0.22.0")
    write_column(tmp_path, "fix-newest-matrix", "0.24.0")
    text = build(tmp_path)
    assert "| invariant | 0.23.1 | 0.22.0 + workaround | 0.24.0 |" in text
    assert "--with openai-agents==0.23.1 " in text


def test_build_refuses_a_column_whose_records_mix_releases(tmp_path: Path) -> None:
    write_column(tmp_path, "matrix", "0.23.1")
    write_column(tmp_path, "fix-newest-matrix", "0.24.0", "0.23.1")
    with pytest.raises(InvestigationError, match="records come from 0.23.1, 0.24.0"):
        build(tmp_path)


def committed_snippet() -> str:
    return paths.SNIPPET.read_text()


def test_committed_snippet_columns_name_the_releases_of_their_records() -> None:
    """Header and records agree: each column's release is the one its committed records (and,
    for the newest release, its committed runs) were made on."""
    header = next(line for line in committed_snippet().splitlines() if line.startswith("| inv"))
    names = [cell.strip() for cell in header.strip("|").split("|")][1:]
    releases = [
        {r.sdk_version for r in read_records(paths.DATA / f"{stem}.json", MatrixRecord)}
        for stem in ("matrix", "fix-matrix", "fix-newest-matrix")
    ]
    runs = json.loads((paths.DATA / "fix-newest-matrix-runs.json").read_text())
    assert releases[2] == {run["sdk_version"] for run in runs}
    assert [{name.removesuffix(" + workaround")} for name in names] == releases
    assert one_line(next(iter(releases[0]))) in committed_snippet()


def test_committed_snippet_says_which_release_fixes_it() -> None:
    fixed = committed_fix_release()
    assert fixed is not None
    text = committed_snippet()
    assert f"**Fixed in `openai-agents` {fixed}**" in text
    assert f"with `openai-agents=={fixed}` it passes" in text


def test_committed_snippet_quotes_the_error_the_user_meets() -> None:
    """The quoted message is the one the SDK's client raises over HTTP on the pinned release."""
    from approval_compaction.analysis.outcomes import outcome_frame
    from approval_compaction.study.harness import run_matrix
    from approval_compaction.study.scenario import select_cases
    from approval_compaction.study.wiring import responses_backend

    cases = select_cases("runner=run,decision=approve,compaction=on,state_boundary=json")
    message = outcome_frame(run_matrix(cases, backend=responses_backend))["message"].iloc[0]
    quoted = re.findall(r"HTTP (\d+) `([^`]+)`", committed_snippet().split("\n\n", 1)[0])
    assert quoted == [tuple(message.removeprefix("Error code: ").split(" - ", 1))]
