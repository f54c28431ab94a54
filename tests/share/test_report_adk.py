"""The issue for adk-python, from the committed data."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.errors import InvestigationError
from approval_compaction.formats.markdown import GITHUB_LIMIT, github_length
from approval_compaction.lab.share.report_adk import build_adk_report


def test_report_adk_has_the_issue_forms_sections_and_links_what_it_extends() -> None:
    text = build_adk_report()
    for heading in ("**Describe the bug**", "**To Reproduce**", "**Expected behavior**"):
        assert heading in text
    assert "issues/7236" in text and "pull/7237" in text
    assert "test_compaction_late_answer.py" in text and "```diff" in text
    assert github_length(text) <= GITHUB_LIMIT


def test_report_adk_without_data_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(InvestigationError, match="adk-data"):
        build_adk_report(tmp_path)
