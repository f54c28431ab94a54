"""The report for openai-agents-js, built from data/ (no run)."""

from __future__ import annotations

from approval_compaction.formats.markdown import GITHUB_LIMIT, github_length
from approval_compaction.js.files import data_file
from approval_compaction.js.report import build_js_report, js_fix_frame, js_suite_frame
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


def test_report_js_links_its_workaround_after_the_table_that_proves_it() -> None:
    """The table of the workaround's sweep is followed by the two lines a user pastes (as the
    module's header shows them) and a link to the module: the module is not pasted."""
    from approval_compaction.js.front import js_usage

    text = build_js_report()
    use, wrap = js_usage()
    table = text.index("A workaround users can apply today")
    link = text.index("[`js/workaround.mjs`](../js/workaround.mjs)")
    lines = text.index(f"```js\n{use}\n{wrap}\n```")
    assert table < link < lines < text.index("### Debug information")
    assert "export function pairingKey" not in text  # the module's body
    assert data_file("report").read_text() == text  # the committed report is this one


def test_report_js_shows_the_fix_in_typescript_checked_and_mutated() -> None:
    """The fix as the repository takes it (TypeScript), the repository's tools on it, each
    mutant with the test that kills it, where the tests ran; the dist diff linked."""
    from approval_compaction.js.report import FIX_TS

    text = build_js_report()
    fix = text.index(FIX_TS.read_text())
    assert text.index("### Expected behavior") < fix
    assert "| tsc --noEmit (its tsconfig.json) | clean | clean |" in text
    assert "| mutant | killed by |" in text and "none: survives" not in text
    assert "only once the 'program' has its answer" in text
    assert "predates #1953" in text and "`dist/` and source maps only" in text
    assert "[`js/fix/agents-openai-0.20.0.diff`](../js/fix/agents-openai-0.20.0.diff)" in text
    assert "```diff" not in text


def test_report_js_stall_leads_with_numbers_then_the_shape_cause_fix_and_test() -> None:
    from approval_compaction.js.report import INTRODUCING_PR, build_js_stall_report
    from approval_compaction.js.stall_finding import load_stall
    from approval_compaction.wire.rules import COMPACTED_OUTPUT_DOC

    text = build_js_stall_report()
    found = load_stall()
    assert found is not None
    assert text.startswith("### Describe the bug")
    order = [
        "| package |",  # the numbers first
        "report-js-stall.png",  # the figure, and its numbers as a table
        "| turn |",
        "#### It depends on what `responses.compact` answers",
        COMPACTED_OUTPUT_DOC,
        "#### Cause",
        INTRODUCING_PR,
        "### Debug information",
        "### Repro steps",
        "<summary>openaiResponsesCompactionSession.stall.test.ts",
        "openaiResponsesCompactionSession.filteredHistory.test.ts: the guard",
        "### Expected behavior",
        "private async coverModelExchange(",
        "What it reads.",
        "| mutant | killed by |",
    ]
    at = [text.index(part) for part in order]
    assert at == sorted(at)
    assert f"`@openai/agents` {found.boundary.first_bad}" in text
    assert "/blob/v0.20.0/packages/agents-core/src/runner/sessionPersistence.ts#L" in text
    assert (
        "/blob/v0.20.0/packages/agents-openai/src/memory/openaiResponsesCompactionSession.ts#L"
        in text
    )
    assert github_length(text) <= GITHUB_LIMIT


def test_report_js_stall_links_the_skip_at_the_line_that_skips() -> None:
    """The cause links the ``if`` that skips (its line computed from the release's source map),
    and the fakes' table says its snapshot predates #1953."""
    from approval_compaction.js.report import build_js_stall_report
    from approval_compaction.js.source import SESSION, permalink

    text = build_js_stall_report()
    skip = permalink(SESSION, "if (!automaticInput || automaticInput.length === 0)")
    assert f"[`runCompaction` skips]({skip})" in text
    assert "which predates #1953, so the tests #1953 added are not among them" in text


def test_report_js_links_the_stall_report_instead_of_describing_it() -> None:
    text = build_js_report()
    assert "[report-js-stall.md](report-js-stall.md)" in text
    assert "stops compacting" not in text and "trimToLatestCompaction" not in text


def test_report_js_stall_figure_is_the_committed_png() -> None:
    """``report-js --stall`` writes the figure beside the report: the same bytes each time."""
    from approval_compaction.js.report import stall_png

    assert stall_png() == (DATA / "report-js-stall.png").read_bytes()


def test_js_suite_frame_shows_the_sessions_own_tests_and_the_rerun_differences() -> None:
    run = {"tests": 729, "passed": 683, "failed": 46, "session_tests": 32, "differ_again": 0}
    record = {
        "runs": [
            {**run, "package": "0.20.0", "session_passed": 32, "differ_from_release": 0},
            {**run, "package": "patched", "session_passed": 31, "differ_from_release": 3},
        ]
    }
    frame = js_suite_frame(record)
    assert list(frame.index) == ["0.20.0", "patched"]
    assert frame.loc["patched", "the session's own tests passed"] == "31 of 32"
    assert frame.loc["patched", "outcomes that differ from the release (rerun)"] == "3 (0 again)"
    assert frame.loc["0.20.0", "failed"] == 46
