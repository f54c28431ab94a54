"""The issue for langchain: its tables from the data, its neighbours named."""

from __future__ import annotations

from pathlib import Path

from approval_compaction.analysis.liveness import LivenessRecord
from approval_compaction.lab.findings.searched import SearchedCase
from approval_compaction.langchain.report import (
    RELATED,
    cell,
    report,
    searched_words,
    situations_frame,
)

RAISED = (
    "turns 1, 2 raised langchain_openai.OpenAIInvalidRequestError, HTTP 400 at "
    "/v1/chat/completions: An assistant message with 'tool_calls' must be followed by ..."
)


def _row(scenario: str, mode: str, usable: bool, raised: str = "") -> LivenessRecord:
    return LivenessRecord(scenario, "1.5.2", mode, False, "compaction_runs", True, "", "3 3",
                          turns=10, session_usable=usable, raised=raised)  # fmt: skip


def test_report_a_cell_counts_the_refused_turns_with_status_and_endpoint() -> None:
    assert cell(_row("abandoned", "trim chat", False, RAISED)) == (
        "2 of 10 later turns refused (400 at /v1/chat/completions)"
    )
    assert cell(_row("abandoned", "keep-1 chat", True)) == "usable"


def test_report_situations_frame_is_setting_by_situation_controls_last() -> None:
    rows = [
        _row("abandoned", "none chat", False, RAISED),
        _row("abandoned", "keep-2 chat", True),
        _row("clean", "keep-2 chat", True),  # the control situation is not the report's
    ]
    frame = situations_frame(rows)
    assert list(frame.index) == ["keep-2 chat", "none chat"]
    assert list(frame.columns) == ["abandoned"]
    with_control = situations_frame(rows, control=True)
    assert list(with_control.columns) == ["clean", "abandoned"]  # the control first
    assert with_control.loc["keep-2 chat", "clean"] == "usable"


def test_report_names_every_neighbouring_issue_and_reads_the_data(tmp_path: Path) -> None:
    text = report(tmp_path)  # no data: the tables are empty, the text still whole
    for related in RELATED:
        assert related.name in text and related.url in text
    assert "### Reproduction Steps / Example Code (Python)" in text
    assert "HumanInTheLoopMiddleware(interrupt_on=" in text  # the reproduction, whole


def _found(label: str, package: str = "1.5.2", mode: str = "keep-1") -> SearchedCase:
    known = "" if label == "new" else "abandoned"
    steps = "ask[approval] → continue 3 turns"
    return SearchedCase(
        "langchain", package, f"f-{label}", label, known, "x", steps, f"mode {mode}", False, mode
    )


def test_report_search_counts_what_no_situation_has_the_shape_of() -> None:
    assert searched_words([]) == []
    known = searched_words([_found("known"), _found("known", "1.5.2+fix.diff")])
    assert "On 1.5.2 and 1.5.2+fix.diff" in known[0]
    assert known[-2].startswith("Each of the 2 findings reduces to a situation above: ")
    assert known[-2].endswith("the search found nothing they miss.")
    mixed = searched_words([_found("known"), _found("new")])
    assert mixed[-2] == (
        "1 of the 2 findings have a shape no situation above has; the other one reduces to "
        "*abandoned*."
    )  # issue 61 (r7): "2 of the 9 findings" left the other 7 unnamed
    assert "| new |" in mixed[2]


def test_report_search_explains_new_findings_only_when_each_is_trim_on_the_patched_package() -> (
    None
):
    patched = "1.5.2+langchain-1.5.2.diff"
    trim = searched_words([_found("new", patched, "trim"), _found("known")])
    assert "the docs' trim step on the patched package" in trim[-2]
    for other in (_found("new", "1.5.2", "trim"), _found("new", patched, "keep-1")):
        assert "trim step" not in searched_words([_found("new", patched, "trim"), other])[-2]
