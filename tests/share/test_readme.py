"""The README's findings block is what the committed data says."""

from __future__ import annotations

import pytest

from approval_compaction import paths
from approval_compaction.analysis.invariants import INVARIANTS
from approval_compaction.share.readme import (
    END,
    NOTEBOOKS_END,
    NOTEBOOKS_START,
    START,
    ReadmeMarkersError,
    findings_block,
    notebooks_block,
    with_block,
)


def test_readme_findings_match_committed_data() -> None:
    text = (paths.ROOT / "README.md").read_text()
    assert with_block(text, findings_block()) == text, "README is stale: run `make run`"


def test_readme_findings_name_the_pinned_violation() -> None:
    block = findings_block()
    assert "`next_turn_input_paired` is violated in 8 of 16 cases" in block
    assert f"0 of {16 * len(INVARIANTS)} verdicts violated" in block
    assert "`next_turn_accepted` is violated in 8 of 16 cases" in block


def test_readme_findings_carry_the_doctor_answers_from_committed_data() -> None:
    from approval_compaction.doctor.findings import block

    answers = block()
    for question in ("SDK's defaults?", "upgrading heal", "another worker?", "poisoned, and"):
        assert question in answers
    assert answers in (paths.ROOT / "README.md").read_text(), "README is stale: run `make run`"


def test_readme_block_replaces_only_between_markers() -> None:
    text = f"intro\n{START}\nold\n{END}\noutro\n"
    assert with_block(text, "new") == f"intro\n{START}\nnew\n{END}\noutro\n"


def test_readme_without_markers_is_one_line_error() -> None:
    with pytest.raises(ReadmeMarkersError, match="README has no"):
        with_block("no markers here", "x")


def test_readme_notebook_table_matches_what_the_notebooks_did() -> None:
    text = (paths.ROOT / "README.md").read_text()
    block = notebooks_block()
    assert with_block(text, block, NOTEBOOKS_START, NOTEBOOKS_END) == text, (
        "README is stale: run `make run`"
    )
    assert "01-walkthrough.ipynb" in block
