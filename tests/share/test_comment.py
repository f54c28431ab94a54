"""share: one notebook or one case as a paste-ready comment, and the files to attach (issue 23)."""

from __future__ import annotations

import base64
from pathlib import Path

import nbformat
import pytest
from matplotlib.figure import Figure
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from approval_compaction import cli, paths
from approval_compaction.formats.markdown import GITHUB_LIMIT, github_length
from approval_compaction.lab.releases.heatmap import png_bytes
from approval_compaction.lab.share.comment import ShareError, case_filter, one_case
from approval_compaction.lab.share.render import attach_note


@pytest.fixture
def notebook(tmp_path: Path) -> Path:
    fig = Figure(figsize=(1, 1), dpi=20)
    fig.add_subplot().plot([0, 1], [1, 0])
    png = {"image/png": base64.b64encode(png_bytes(fig)).decode(), "text/plain": "<Figure>"}
    nb = new_notebook(
        cells=[
            new_markdown_cell("# 04 · A figure"),
            new_code_cell("fig", execution_count=1, outputs=[new_output("display_data", png)]),
        ],
        metadata={"language_info": {"name": "python"}},
    )
    path = tmp_path / "notebooks" / "04-figure.ipynb"
    path.parent.mkdir()
    nbformat.write(nb, path)
    return path


def test_comment_case_label_is_the_filter_for_that_case() -> None:
    spec = case_filter("run_streamed/reject/on/memory")
    assert spec == "runner=run_streamed,decision=reject,compaction=on,state_boundary=memory"
    assert one_case("run_streamed/reject/on/memory")[1].label == "run_streamed/reject/on/memory"
    assert case_filter("decision=reject") == "decision=reject"


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("decision=reject", "selects 8"),
        ("run/reject/on", "is not a label"),
        ("run/maybe/on/json", "unknown decision 'maybe'"),
    ],
    ids=["several", "short-label", "bad-value"],
)
def test_comment_case_that_is_not_one_case_is_refused(case: str, message: str) -> None:
    with pytest.raises((ShareError, ValueError), match=message):
        one_case(case)


def test_comment_notebook_writes_the_comment_and_lists_the_files_to_attach(
    notebook: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output, folder = tmp_path / "comment.md", tmp_path / "rendered"
    args = ["share", str(notebook), "--output", str(output), "--folder", str(folder)]
    assert cli.main(args) == 0
    text = output.read_text()
    image = "04-figure_files/04-figure_1_0.png"
    page = (folder / "04-figure.md").read_text()  # the page shows the figure beside it
    assert f"![figure]({image})" in page
    assert text == page.replace(f"![figure]({image})", attach_note(image))  # the comment names it
    assert (folder / image).is_file()
    printed = capsys.readouterr().out
    assert f"{github_length(text):,} of {GITHUB_LIMIT:,} characters" in printed
    assert f"  {image}" in printed.splitlines()


def test_comment_notebook_to_stdout_keeps_the_attach_list_out_of_the_paste(
    notebook: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["share", str(notebook), "--folder", str(tmp_path / "out")]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("# 04 · A figure") and "attach (" not in out
    assert "attach (" in err


@pytest.mark.parametrize(
    "argv",
    [["share"], ["share", "notebooks/01-walkthrough.ipynb", "--case", "run/approve/on/json"]],
    ids=["neither", "both"],
)
def test_comment_needs_a_notebook_or_a_case(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_comment_case_is_its_report_within_the_limit_with_the_heatmap_to_attach(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "case.md"
    assert cli.main(["share", "--case", "run/reject/on/json", "--output", str(output)]) == 0
    text = output.read_text()
    assert github_length(text) <= GITHUB_LIMIT
    assert "### Describe the bug" in text and "### Expected behavior" in text
    assert "<code>run/reject/on/json</code>" in text  # its evidence
    assert "run/approve/" not in text  # no other case
    heatmap = tmp_path / "case-heatmap.png"
    assert heatmap.read_bytes().startswith(b"\x89PNG")
    assert f"  {heatmap.name}" in capsys.readouterr().out.splitlines()


def test_comment_js_is_the_committed_js_report_within_one_comment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``share --js`` gives the report for openai-agents-js as ``report-js`` wrote it to data/,
    within one comment, with nothing to attach."""
    output = tmp_path / "report-js.md"
    assert cli.main(["share", "--js", "--output", str(output)]) == 0
    text = output.read_text()
    assert text == (paths.DATA / "report-js.md").read_text()
    assert github_length(text) <= GITHUB_LIMIT
    assert "### Describe the bug" in text
    out = capsys.readouterr().out
    assert f"{github_length(text):,} of {GITHUB_LIMIT:,} characters" in out
    assert "attach: nothing" in out


def test_comment_js_stall_is_the_committed_stall_report_with_its_figure_to_attach(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "report-js-stall.md"
    assert cli.main(["share", "--js", "stall", "--output", str(output)]) == 0
    assert output.read_text() == (paths.DATA / "report-js-stall.md").read_text()
    assert "  data/report-js-stall.png" in capsys.readouterr().out.splitlines()


def test_comment_js_with_a_case_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["share", "--js", "--case", "run/approve/on/json"]) == 2
    assert "one of the three" in capsys.readouterr().err
