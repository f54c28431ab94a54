"""Every generated block of the README is what the committed data says."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction import paths
from approval_compaction.analysis.invariants import DEFINITIONS
from approval_compaction.analysis.liveness import LIVENESS
from approval_compaction.lab.findings.load import load_findings
from approval_compaction.lab.share.readme import (
    END,
    INVARIANTS_END,
    INVARIANTS_START,
    START,
    MissingFindingsError,
    ReadmeMarkersError,
    blocks,
    findings_block,
    update,
    with_block,
)


def test_readme_every_block_matches_committed_data() -> None:
    """The findings, the notebook table and the SDK's suite, each as the committed data says."""
    text = (paths.ROOT / "README.md").read_text()
    written = blocks(text=text)
    assert [start for start, _, _ in written] == [
        "<!-- findings:start -->",
        "<!-- notebooks:start -->",
        "<!-- upstream-suite:start -->",
        "<!-- rules:start -->",
        "<!-- invariants:start -->",
    ]
    for start, end, block in written:
        assert with_block(text, block, start, end) == text, f"{start} is stale: run `make run`"


def test_readme_findings_carry_each_records_source_and_question() -> None:
    block = findings_block(load_findings())
    for source in (
        "matrix.json",
        "meetings.json",
        "sweep.json",
        "sweep-meetings.json",
        "fix-matrix.json",
        "mechanism.json",
    ):
        assert f"`data/{source}`" in block
    for name in ("check-pinned", "upgrade", "worker", "heal"):
        assert f"`data/doctor-{name}.json`" in block


def test_readme_findings_need_every_result_file(tmp_path: Path) -> None:
    with pytest.raises(MissingFindingsError, match="every result file"):
        findings_block(load_findings(tmp_path), tmp_path)


def test_readme_invariants_table_is_written_where_the_readme_marks_it(tmp_path: Path) -> None:
    """Each invariant's one meaning, in the verdicts' order, between its markers."""
    readme = tmp_path / "README.md"
    fresh = (paths.ROOT / "README.md").read_text()
    readme.write_text(with_block(fresh, "", INVARIANTS_START, INVARIANTS_END))
    assert update(readme)
    table = readme.read_text().split(INVARIANTS_START, 1)[1].split(INVARIANTS_END, 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert rows == [f"| `{i.name}` | {i.meaning} |" for i in (*DEFINITIONS, *LIVENESS)]


def test_readme_update_rewrites_a_stale_block_and_nothing_else(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    fresh = (paths.ROOT / "README.md").read_text()
    readme.write_text(with_block(fresh, "stale"))
    assert update(readme) and readme.read_text() == fresh
    assert not update(readme)


def test_readme_block_replaces_only_between_markers() -> None:
    text = f"intro\n{START}\nold\n{END}\noutro\n"
    assert with_block(text, "new") == f"intro\n{START}\nnew\n{END}\noutro\n"


def test_readme_without_markers_is_one_line_error() -> None:
    with pytest.raises(ReadmeMarkersError, match="README has no"):
        with_block("no markers here", "x")
