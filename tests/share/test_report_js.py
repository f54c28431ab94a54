"""The report for openai-agents-js, built from data/ (no run)."""

from __future__ import annotations

from approval_compaction.formats.markdown import GITHUB_LIMIT, github_length
from approval_compaction.lab.share.report_js import build_js_report, js_fix_frame
from approval_compaction.paths import DATA


def test_report_js_opens_with_the_bug_and_the_error_text_and_fits_one_comment() -> None:
    text = build_js_report()
    assert text.startswith("### Describe the bug")
    first_table = text.index("| error text |")
    assert first_table < text.index("### Debug information") < text.index("### Repro steps")
    assert text.index("### Repro steps") < text.index("### Expected behavior")
    assert "No tool call found for function call output" in text[: first_table + 400]
    assert github_length(text) <= GITHUB_LIMIT


def test_report_js_matrix_reads_bare_workaround_and_patched_from_data() -> None:
    frame = js_fix_frame(DATA)
    assert list(frame.index) == [
        "input", "auto (default)", "auto, store=False", "previous_response_id"
    ]  # fmt: skip
    fixed = "no error in these cases"
    assert (frame.iloc[:, 1] == fixed).all() and (frame.iloc[:, 2] == fixed).all()
    assert frame.iloc[:, 0].str.contains("8 of 16 cases").all()


def test_report_js_carries_its_workaround_after_the_table_that_proves_it() -> None:
    """The table of the workaround's sweep is followed by the two lines a user pastes (as the
    module's header shows them) and the module itself, verbatim."""
    from approval_compaction.lab import paths
    from approval_compaction.lab.share.readme import js_usage

    text = build_js_report()
    use, wrap = js_usage()
    table = text.index("A workaround users can apply today")
    lines = text.index(f"```js\n{use}\n{wrap}\n```")
    module = text.index(f"```js\n{paths.JS_WORKAROUND.read_text()}")
    assert table < lines < module < text.index("### Debug information")
    assert paths.DATA_FILES.js_report.read_text() == text  # the committed report is this one
