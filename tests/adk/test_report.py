"""The issue for adk-python, from the committed data."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.adk.report import adk_suite_frame, build_adk_report
from approval_compaction.errors import InvestigationError
from approval_compaction.formats.markdown import GITHUB_LIMIT, github_length


def test_report_adk_has_the_issue_forms_sections_and_links_what_it_extends() -> None:
    text = build_adk_report()
    for heading in ("**Describe the bug**", "**To Reproduce**", "**Expected behavior**"):
        assert heading in text
    assert "issues/7236" in text and "pull/7237" in text
    assert "test_compaction_late_answer.py" in text and "```diff" in text
    assert github_length(text) <= GITHUB_LIMIT


def test_report_adk_answers_who_is_hit_and_how_each_linked_issue_differs() -> None:
    text = build_adk_report()
    who = text.index("Who is hit.")
    assert "LlmEventSummarizer" in text[who : who + 600]
    for number in ("4740", "5602", "6179", "7236"):
        assert f"https://github.com/google/adk-python/issues/{number}: " in text
    assert "/blob/v2.13.0/src/google/adk/apps/compaction.py#L" in text
    assert "```diff\ndiff --git a/src/google/adk/apps/compaction.py" in text


def test_report_adk_splits_what_the_fix_changes_from_what_it_leaves() -> None:
    """The late answer is summarised without its call on the release and never patched; what
    the fix leaves reads the same on both packages (one value a column)."""
    from approval_compaction.adk.report import late_frame

    frame = late_frame()
    late = [c for c in frame.columns if c.startswith("late answer")][0]
    assert (frame[late] != "nothing").any() and (frame["patched"] == "nothing").all()
    for column in frame.columns[2:]:
        assert not frame[column].str.contains("→").any(), column


def test_report_adk_without_data_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(InvestigationError, match="adk-data"):
        build_adk_report(tmp_path)


def test_report_adk_shows_the_long_running_fix_checked_and_each_of_its_mutants_killed() -> None:
    from approval_compaction.adk.mutants import LONG_RUNNING_MUTANTS

    text = build_adk_report()
    section = text[text.index("**Also found: a long-running call") :]
    assert "`drop_orphaned_function_calls` keeps every long-running call" in section
    assert "+++ b/src/google/adk/flows/llm_flows/tools/_rearranger.py" in section
    checked = section[section.index("Checked as the first fix is") :]
    assert checked.count("| clean |") == 4
    killed = section[section.index("Each plausible simplification of it") :]
    for _, mutant in LONG_RUNNING_MUTANTS:
        row = next(line for line in killed.splitlines() if line.startswith(f"| {mutant.change} |"))
        assert mutant.killer.partition("[")[0] in row and "survives" not in row


def test_what_the_patched_search_leaves_is_said_once_an_invariant_with_its_refusal_implied() -> (
    None
):
    from approval_compaction.adk.report import LEFT, _left
    from approval_compaction.lab.findings.searched import SearchedCase, fixes_left

    def left(*cases: tuple[str, ...]) -> str:
        found = [
            SearchedCase("adk", "2.13.0+both.diff", "n", "new", "", "", "", "", False,
                         pairs=tuple((name, "long_running") for name in names))
            for names in cases
        ]  # fmt: skip
        (fix,) = fixes_left(found) or [None]
        return _left(fix.broken if fix else ())

    assert left() == ""
    assert left(("stored_history_paired", "next_turn_accepted")) == LEFT["stored_history_paired"]
    both = left(("stored_history_paired",), ("compaction_input_complete", "stored_history_paired"))
    assert both == f"{LEFT['compaction_input_complete']} and {LEFT['stored_history_paired']}"
    assert left(("compaction_runs",)) == "`compaction_runs`"


def test_report_adk_suite_frame_counts_each_package() -> None:
    record = {
        "runs": [
            {"package": "2.13.0", "tests": 40, "passed": 38, "failed": 2, "differ_from_release": 0},
            {
                "package": "patched",
                "tests": 40,
                "passed": 40,
                "failed": 0,
                "differ_from_release": 2,
            },
        ]
    }
    frame = adk_suite_frame(record)
    assert frame.loc["patched"].to_dict() == {
        "tests": 40,
        "passed": 40,
        "failed": 0,
        "outcomes that differ from the release": 2,
    }
    assert frame.loc["2.13.0", "failed"] == 2
