"""The paste-ready report: GitHub markdown that parses, folds evidence, and fits a comment."""

from __future__ import annotations

import importlib.metadata
import re
import shlex
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from approval_compaction import cli
from approval_compaction.analysis.invariants import INVARIANTS, judge
from approval_compaction.formats.markdown import github_length
from approval_compaction.share.report import (
    GITHUB_LIMIT,
    MEANINGS,
    ReportTooLongError,
    build_report,
    environment,
    write_report,
)
from approval_compaction.study.capture import CaseRun
from approval_compaction.study.harness import run_matrix
from approval_compaction.study.scenario import select_cases


def gfm() -> MarkdownIt:
    """CommonMark plus GitHub's tables and strikethrough (linkify needs an extra package)."""
    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


@pytest.fixture(scope="module")
def runs() -> list[CaseRun]:
    """All sixteen cases, run once for the module."""
    return run_matrix()


@pytest.fixture(scope="module")
def bad_labels(runs: list[CaseRun]) -> list[str]:
    return [run.case.label for run in runs if judge(run).violations]


@pytest.fixture(scope="module")
def full_path(runs: list[CaseRun], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The full-matrix report, written with its heatmap to a temporary folder, with the
    user's view as the ``report`` command adds it (the cases over HTTP, the sweep's severities)."""
    from approval_compaction import paths
    from approval_compaction.releases.severity import severity_answer
    from approval_compaction.releases.tables import sweep_frame
    from approval_compaction.wire.backend import responses_backend

    output = tmp_path_factory.mktemp("full") / "report.md"
    wire = run_matrix(backend=responses_backend)
    releases = severity_answer(sweep_frame(paths.SWEEP))
    write_report(build_report(runs, output=output, wire_runs=wire, releases=releases), output)
    return output


@pytest.fixture(scope="module")
def full(full_path: Path) -> str:
    return full_path.read_text()


def details_blocks(text: str) -> dict[str, list[Token]]:
    """The tokens inside each ``<details>`` block, keyed by the case label in its summary."""
    blocks: dict[str, list[Token]] = {}
    current: list[Token] | None = None
    for token in gfm().parse(text):
        if token.type == "html_block" and token.content.startswith("<details>"):
            label = re.search(r"<summary><code>([^<]+)</code>", token.content)
            assert label is not None, token.content
            current = blocks.setdefault(label.group(1), [])
        elif token.type == "html_block" and token.content.startswith("</details>"):
            current = None
        elif current is not None:
            current.append(token)
    return blocks


def first_table(tokens: list[Token]) -> list[list[str]]:
    """The first table's rows as lists of cell texts (header row first)."""
    start = next(i for i, t in enumerate(tokens) if t.type == "table_open")
    rows: list[list[str]] = []
    for token in tokens[start:]:
        if token.type == "table_close":
            return rows
        if token.type == "tr_open":
            rows.append([])
        if token.type == "inline" and rows:
            rows[-1].append(token.content)
    raise AssertionError("unclosed table")


def test_report_matrix_parses_as_table_with_a_word_in_every_cell(full: str) -> None:
    rows = first_table(gfm().parse(full))
    assert rows[0] == ["case", *INVARIANTS]
    assert len(rows) == 1 + 16
    for row in rows[1:]:
        assert len(row) == 1 + len(INVARIANTS)
        assert all(re.search(r"\b(holds|VIOLATED|n/a)\b", cell) for cell in row[1:]), row


def test_report_folds_evidence_for_exactly_the_violating_cases(
    full: str, bad_labels: list[str]
) -> None:
    """Only the compaction=on cases violate on 0.23.1; each gets one folded block."""
    blocks = details_blocks(full)
    assert bad_labels, "the pinned release should violate in some case"
    assert list(blocks) == bad_labels
    for label, tokens in blocks.items():
        kinds = [t.type for t in tokens]
        assert kinds.count("table_open") >= 5, label  # the per-stage table and four stage tables
        assert any(t.type == "fence" and t.info == "diff" for t in tokens), label


def test_report_diff_shows_the_orphan_output_sent_with_the_next_turn(full: str) -> None:
    """Regression (openai-agents #5340): the next turn sends pending-c1's output without its call.

    The evidence must show it in the ``diff`` fence a maintainer unfolds.
    """
    for label, tokens in details_blocks(full).items():
        diffs = [t.content for t in tokens if t.type == "fence" and t.info == "diff"]
        assert any(
            re.search(r"^  function_call_output pending-c1: .*\[orphan output\]$", d, re.M)
            for d in diffs
        ), label


def test_report_header_names_the_installed_versions(full: str) -> None:
    for package in ("openai-agents", "openai", "pydantic"):
        assert f"- `{package}`: {importlib.metadata.version(package)}\n" in full
    assert re.search(r"^- Python: 3\.\d+$", full, re.M)
    assert re.search(r"^- OS family: \S+$", full, re.M)


def test_report_is_identical_when_the_platform_differs() -> None:
    """No kernel build, Python patch release or host in the header: machines agree byte for byte."""
    here = environment()
    other = environment(python=lambda: "3.11.99", system=lambda: "Linux")
    assert other == {**here, "Python": "3.11", "OS family": "Linux"}
    assert environment(python=lambda: "3.11.7", system=lambda: "Linux") == other
    assert environment(python=lambda: "3.12.1", system=lambda: "Darwin")["OS family"] == "Darwin"


@pytest.mark.parametrize(
    "spec",
    ["compaction=on,decision=reject", "decision=reject|approve,runner=run_streamed", None],
    ids=["two-fields", "alternatives", "no-filter"],
)
def test_report_command_selects_the_same_cases(spec: str | None, tmp_path: Path) -> None:
    """The command in the report, parsed by the CLI, selects the cases the report ran."""
    cases = select_cases(spec)
    runs = run_matrix(cases[:1])  # one case is enough to write the header
    text = build_report(runs, spec=spec, output=tmp_path / "out.md").text
    fences = [t for t in gfm().parse(text) if t.type == "fence" and t.info == "sh"]
    line = fences[0].content.strip().splitlines()[-1]
    words = shlex.split(line)
    assert words[:3] == [".venv/bin/python", "-m", "approval_compaction"]
    args = cli.parser().parse_args(words[3:])
    assert args.handler is cli._report
    assert select_cases(args.case) == cases
    assert args.output == "out.md"


def test_report_full_matrix_fits_a_github_comment_whole(full: str, bad_labels: list[str]) -> None:
    assert github_length(full) <= GITHUB_LIMIT
    assert "Left out" not in full
    assert len(details_blocks(full)) == len(bad_labels)


def test_report_drops_evidence_last_case_first_and_says_so(
    runs: list[CaseRun], bad_labels: list[str]
) -> None:
    """Across limits from tight to loose: within the limit, a suffix dropped, and named."""
    whole = github_length(build_report(runs).text)
    dropped_counts = []
    for limit in range(whole - 20 * 1_500, whole + 1, 1_500):
        try:
            report = build_report(runs, limit=limit)
        except ReportTooLongError:
            continue
        left_out = list(report.left_out)
        kept = bad_labels[: len(bad_labels) - len(left_out)]
        assert github_length(report.text) <= limit
        assert left_out == bad_labels[len(kept) :]
        assert list(details_blocks(report.text)) == kept
        note = [line for line in report.text.splitlines() if line.startswith("Left out")]
        if left_out:
            assert "last case first" in note[0]
            assert re.findall(r"`([^`]+)`", note[0]) == left_out
        else:
            assert note == []
        dropped_counts.append(len(left_out))
    assert dropped_counts == sorted(dropped_counts, reverse=True)
    assert dropped_counts[0] == len(bad_labels) and dropped_counts[-1] == 0
    assert any(0 < n < len(bad_labels) for n in dropped_counts)


def test_report_too_long_without_evidence_is_an_error(runs: list[CaseRun]) -> None:
    with pytest.raises(ReportTooLongError, match="over the limit of 1,000"):
        build_report(runs, limit=1_000)


def test_report_is_byte_identical_across_runs(full_path: Path, tmp_path: Path) -> None:
    """A second, separate run of all sixteen cases through the CLI writes the same bytes."""
    output = tmp_path / "report.md"
    assert cli.main(["report", "--output", str(output)]) == 0
    assert output.read_bytes() == full_path.read_bytes()
    heatmap = "report-heatmap.png"
    assert (tmp_path / heatmap).read_bytes() == (full_path.parent / heatmap).read_bytes()


def test_report_links_the_heatmap_written_beside_it(tmp_path: Path) -> None:
    output = tmp_path / "share" / "issue.md"
    written = write_report(
        build_report(run_matrix(select_cases("runner=run")), output=output), output
    )
    assert written == [tmp_path / "share" / "issue-heatmap.png", output]
    images = [
        child.attrGet("src")
        for token in gfm().parse(output.read_text())
        if token.type == "inline"
        for child in token.children or []
        if child.type == "image"
    ]
    assert images == ["issue-heatmap.png"]
    assert written[0].read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_report_to_stdout_links_no_image(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["report", "--case", "runner=run,decision=approve,compaction=on"]) == 0
    text = capsys.readouterr().out
    assert "![" not in text and ".png" not in text
    assert list(details_blocks(text)) == ["run/approve/on/json", "run/approve/on/memory"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["report", "--case", "decision=maybe"], "error: unknown decision 'maybe'"),
        (["report", "--output", "."], "error: --output . is a folder, not a file"),
    ],
    ids=["bad-filter", "output-is-folder"],
)
def test_report_cli_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


def test_report_explains_every_invariant() -> None:
    assert set(MEANINGS) == set(INVARIANTS)


def test_report_shows_what_the_user_sees_over_the_wire() -> None:
    from approval_compaction.wire.backend import responses_backend

    spec = "runner=run,decision=approve,state_boundary=json"
    cases = select_cases(spec)
    wire = run_matrix(cases, backend=responses_backend)
    releases = "the next turn fails with HTTP 400 on 0.22.1..0.23.1 (3 releases)."
    text = build_report(run_matrix(cases), spec=spec, wire_runs=wire, releases=releases).text
    section = text.split("### What the user sees", 1)[1].split("Invariants:", 1)[0]
    assert "1 of 2 cases end with openai.BadRequestError (HTTP 400)" in section
    assert "No tool call found for function call output with call_id pending-c1." in section
    assert "prediction agrees in 2 of 2 cases" in section
    assert releases in section
    assert "`next_turn_accepted`" in text.split("Invariants:", 1)[1]


def test_report_without_wire_runs_has_no_user_section(runs: list[CaseRun]) -> None:
    assert "### What the user sees" not in build_report(runs[:2]).text
