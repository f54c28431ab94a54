"""Rendered notebooks: HTML and markdown a reporter can link, identical on every render.

Sockets are blocked for the whole suite, so every render here also shows that rendering
fetches nothing over the network.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from matplotlib.figure import Figure
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from approval_compaction import cli
from approval_compaction.formats.markdown import GITHUB_LIMIT, github_length
from approval_compaction.lab import paths
from approval_compaction.lab.releases.heatmap import png_bytes
from approval_compaction.lab.share.notebooks import notebook_paths
from approval_compaction.lab.share.render import (
    CODE_FONT,
    RenderError,
    as_comment,
    attach_note,
    details_counts,
    own_figures,
    relative_links,
    render_all,
    render_notebook,
)


@pytest.fixture(scope="module")
def png() -> bytes:
    fig = Figure(figsize=(1, 1), dpi=20)
    fig.add_subplot().plot([0, 1], [1, 0])
    return png_bytes(fig)


@pytest.fixture
def notebook(tmp_path: Path, png: bytes) -> Path:
    """An executed notebook with a heading, a text result and a PNG figure."""
    nb = new_notebook(
        cells=[
            new_markdown_cell("# Orphan outputs\n\nThe answer in one line."),
            new_code_cell(
                "frame",
                execution_count=1,
                outputs=[new_output("execute_result", {"text/plain": "holds"}, execution_count=1)],
            ),
            new_code_cell(
                "figure",
                execution_count=2,
                outputs=[
                    new_output(
                        "display_data",
                        {"image/png": base64.b64encode(png).decode(), "text/plain": "<Figure>"},
                    )
                ],
            ),
        ],
        metadata={"language_info": {"name": "python"}},
    )
    path = tmp_path / "notebooks" / "07-example.ipynb"
    path.parent.mkdir()
    nbformat.write(nb, path)
    return path


def files_under(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def test_render_writes_html_markdown_and_the_images_it_links(
    notebook: Path, png: bytes, tmp_path: Path
) -> None:
    out = tmp_path / "rendered"
    rendered = render_notebook(notebook, out)
    assert rendered.paths == [
        out / "07-example.html",
        out / "07-example.md",
        out / "07-example_files" / "07-example_2_0.png",
    ]
    markdown = rendered.markdown.read_text()
    assert "# Orphan outputs" in markdown and "holds" in markdown
    # the page shows its figure, written beside it; a comment cannot resolve that link, so the
    # comment names the file to attach in its place
    assert "![figure](07-example_files/07-example_2_0.png)" in markdown
    comment = as_comment(markdown, "07-example", out)
    assert "](07-example_files" not in comment
    assert attach_note("07-example_files/07-example_2_0.png") in comment
    assert rendered.attachments == ("07-example_files/07-example_2_0.png",)
    assert rendered.images[0].read_bytes() == png
    html = rendered.html.read_text()
    assert "<title>07-example</title>" in html
    assert f"data:image/png;base64,{base64.b64encode(png).decode()}" in html


def test_render_is_byte_identical_across_runs(notebook: Path, tmp_path: Path) -> None:
    render_notebook(notebook, tmp_path / "first")
    render_notebook(notebook, tmp_path / "second")
    first, second = files_under(tmp_path / "first"), files_under(tmp_path / "second")
    assert len(first) == 3
    assert first == second


def test_render_removes_images_an_earlier_render_left(notebook: Path, tmp_path: Path) -> None:
    out = tmp_path / "rendered"
    stale = out / "07-example_files" / "07-example_5_0.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"old figure")
    rendered = render_notebook(notebook, out)
    assert not stale.exists()
    assert sorted((out / "07-example_files").iterdir()) == list(rendered.images)


def test_render_cli_renders_the_given_notebook(notebook: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert cli.main(["render", str(notebook), "--folder", str(out)]) == 0
    assert sorted(files_under(out)) == [
        "07-example.html",
        "07-example.md",
        "07-example_files/07-example_2_0.png",
    ]


def test_render_cli_missing_notebook_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "99-missing.ipynb"
    assert cli.main(["render", str(missing), "--folder", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"error: no notebook at {missing}\n"


@pytest.mark.parametrize(
    "path", notebook_paths(paths.NOTEBOOKS), ids=lambda p: p.stem if isinstance(p, Path) else p
)
def test_render_project_notebook_names_each_image_it_wrote_to_attach(
    path: Path, tmp_path: Path
) -> None:
    rendered = render_notebook(path, tmp_path)
    markdown = rendered.markdown.read_text()
    wrote = [image.relative_to(tmp_path).as_posix() for image in rendered.images]
    assert list(rendered.attachments) == wrote
    assert own_figures(markdown, path.stem) == wrote  # each figure shown on the page
    comment = as_comment(markdown, path.stem, tmp_path)
    assert all(attach_note(name) in comment for name in wrote)
    assert relative_links(comment) == []


def test_render_html_embeds_images_linked_from_markdown_cells(tmp_path: Path, png: bytes) -> None:
    folder = tmp_path / "notebooks"
    folder.mkdir()
    (folder / "chart.png").write_bytes(png)
    nb = new_notebook(cells=[new_markdown_cell("![chart](chart.png)")])
    nbformat.write(nb, folder / "08-linked.ipynb")
    rendered = render_notebook(folder / "08-linked.ipynb", tmp_path / "out")
    assert f"data:image/png;base64,{base64.b64encode(png).decode()}" in rendered.html.read_text()
    assert rendered.attachments == ("chart.png",)  # beside the notebook, named to attach
    assert attach_note("chart.png") in rendered.markdown.read_text()


def test_render_markdown_writes_dataframes_as_github_tables(tmp_path: Path) -> None:
    """A comment shows a frame as a GitHub table, not pandas' HTML; GitHub prints a <style>
    block's CSS as text, so the markdown must not carry it either."""
    table = pd.DataFrame({"status": ["orphan output"]})._repr_html_()
    assert table is not None and "<style scoped>" in table
    data = {"text/html": table, "text/plain": "x"}
    output = new_output("execute_result", data, execution_count=1)
    nb = new_notebook(cells=[new_code_cell("frame", execution_count=1, outputs=[output])])
    nbformat.write(nb, tmp_path / "09-table.ipynb")
    markdown = render_notebook(tmp_path / "09-table.ipynb", tmp_path / "out").markdown.read_text()
    assert "|  | status |\n|---|---|\n| 0 | orphan output |" in markdown
    assert "<table" not in markdown and "<style" not in markdown
    assert "vertical-align" not in markdown


def test_render_github_table_repeats_spanning_cells_and_joins_header_levels() -> None:
    """A frame with two column levels and a sparse two-level index reads as one grid, the
    index names folded into the header."""
    from approval_compaction.lab.share.render import html_table_markdown

    columns = pd.MultiIndex.from_tuples([("abandoned", "input"), ("abandoned", "auto")])
    index = pd.MultiIndex.from_tuples([("0.23.1", "a"), ("0.23.1", "b")], names=["v", "k"])
    frame = pd.DataFrame([["keeps", "STUCK"], ["keeps", "keeps"]], index=index, columns=columns)
    assert html_table_markdown(frame.to_html()).splitlines() == [
        "| v | k | abandoned / input | abandoned / auto |",
        "|---|---|---|---|",
        "| 0.23.1 | a | keeps | STUCK |",
        "| 0.23.1 | b | keeps | keeps |",
    ]


def _markdown_output(text: str) -> nbformat.NotebookNode:
    data = {"text/markdown": text, "text/plain": "<Markdown>"}
    return new_output("execute_result", data, execution_count=1)


def _notebook(path: Path, *cells: nbformat.NotebookNode) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(
        new_notebook(cells=list(cells), metadata={"language_info": {"name": "python"}}), path
    )
    return path


def test_render_html_keeps_a_details_section_of_a_markdown_output_whole(tmp_path: Path) -> None:
    """nbconvert's embed_images closed <details> early, leaving it empty (nbconvert#2131)."""
    listing = "<details><summary>the listing</summary>\n\n```text\n1 ▶ line one\n```\n\n</details>"
    cell = new_code_cell("Markdown(x)", execution_count=1, outputs=[_markdown_output(listing)])
    rendered = render_notebook(_notebook(tmp_path / "nb" / "10-details.ipynb", cell), tmp_path)
    html = rendered.html.read_text()
    assert details_counts(html) == (1, 0)
    inside = html[html.index("<details>") : html.index("</details>")]
    assert "line one" in inside


@pytest.mark.parametrize(
    ("html", "counts"),
    [
        ("<details><summary>s</summary></details>", (1, 1)),
        ("<details><summary>s</summary>\n \n</details><pre>body</pre>", (1, 1)),
        ("<details><summary>s</summary><table><tr><td>x</td></tr></table></details>", (1, 0)),
        ("<details><summary>s</summary>text</details>", (1, 0)),
        ("<details><summary>s</summary>", (1, 1)),  # never closed: nothing inside either
    ],
    ids=["empty", "spilled-out", "table", "text", "unclosed"],
)
def test_render_details_counts_find_empty_sections(html: str, counts: tuple[int, int]) -> None:
    assert details_counts(html) == counts


def test_render_html_sets_code_in_the_code_font_after_the_templates_css(
    notebook: Path, tmp_path: Path
) -> None:
    """The lab CSS gives a <pre> in an output the prose font (``font-family: inherit``)."""
    html = render_notebook(notebook, tmp_path).html.read_text()
    assert html.count(CODE_FONT) == 1
    assert html.index(CODE_FONT) > html.index(".jp-OutputArea-output pre {")
    assert html.index(CODE_FONT) < html.index("</head>")


def test_render_refuses_a_notebook_over_the_limit_and_keeps_what_was_there(
    notebook: Path, tmp_path: Path
) -> None:
    out = tmp_path / "rendered"
    out.mkdir()
    (out / "07-example.md").write_text("the previous render\n")
    first = _notebook(tmp_path / "nb" / "06-short.ipynb", new_markdown_cell("# Short"))
    with pytest.raises(RenderError, match=r"07-example\.md would be [\d,]+ characters"):
        render_all([first, notebook], out, limit=200)
    assert (out / "07-example.md").read_text() == "the previous render\n"
    assert sorted(p.name for p in out.iterdir()) == ["07-example.md"]  # nothing else written


def test_render_cli_refuses_a_notebook_over_one_comment_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = {"text/plain": "x" * GITHUB_LIMIT}
    cell = new_code_cell("x", execution_count=1, outputs=[new_output("execute_result", text)])
    path = _notebook(tmp_path / "nb" / "11-long.ipynb", cell)
    assert cli.main(["render", str(path), "--folder", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"over one comment's {GITHUB_LIMIT:,}" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "source",
    ["See [notebook 05](05-releases.ipynb).", '<a href="../data/sweep.json">the sweep</a>'],
    ids=["markdown-link", "html-link"],
)
def test_render_refuses_a_relative_link(source: str, tmp_path: Path) -> None:
    path = _notebook(tmp_path / "nb" / "12-link.ipynb", new_markdown_cell(source))
    with pytest.raises(RenderError, match="by a relative path"):
        render_notebook(path, tmp_path / "out")


def test_render_relative_links_ignore_code_and_urls() -> None:
    text = "```python\nx = frames[0](y)\n```\n`a[1](b)` [docs](https://x.org/a) [top](#t)"
    assert relative_links(text) == []
    assert relative_links("[here](notebooks/03.ipynb)") == ["notebooks/03.ipynb"]


def test_render_refuses_an_image_a_markdown_cell_links_that_is_not_there(tmp_path: Path) -> None:
    path = _notebook(tmp_path / "nb" / "13-missing.ipynb", new_markdown_cell("![x](gone.png)"))
    with pytest.raises(RenderError, match="links an image that is not there"):
        render_notebook(path, tmp_path / "out")


RENDERED = sorted(paths.DATA_FILES.rendered.glob("*.md"))
TAG_LINK = re.compile(
    r"https://github\.com/openai/openai-agents-python/blob/([^/]+)/src/agents/\S*?#L(\d+)"
)


def _cells(html: str) -> list[str]:
    """The text of every table cell, as a reader sees it."""
    from html.parser import HTMLParser

    class Cells(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.depth, self.found = 0, []

        def handle_starttag(self, tag: str, attrs: object) -> None:
            if tag in ("td", "th"):
                self.depth += 1
                self.found.append("")

        def handle_endtag(self, tag: str) -> None:
            if tag in ("td", "th") and self.depth:
                self.depth -= 1

        def handle_data(self, data: str) -> None:
            if self.depth:
                self.found[-1] += data

    parser = Cells()
    parser.feed(html)
    return parser.found


@pytest.mark.parametrize("path", RENDERED, ids=lambda p: p.stem)
def test_render_committed_markdown_fits_one_comment_and_links_nothing_relatively(
    path: Path,
) -> None:
    text = path.read_text()
    comment = as_comment(text, path.stem, path.parent)
    assert github_length(comment) <= GITHUB_LIMIT
    assert relative_links(text, own_figures(text, path.stem)) == []
    assert relative_links(comment) == []
    for tag, line in TAG_LINK.findall(text):  # the SDK by permalinks at a release tag
        assert re.fullmatch(r"v\d+\.\d+\.\d+", tag) and int(line) > 0


@pytest.mark.parametrize(
    "path", [p.with_suffix(".html") for p in RENDERED] + RENDERED, ids=lambda p: p.name
)
def test_render_committed_tables_show_messages_whole_and_no_raw_markdown(path: Path) -> None:
    """Tables cut the API's 400 message short, and notebook 09's cells printed backticks."""
    text = path.read_text()
    cells = _cells(text) + [
        re.sub(r"\\(.)", r"\1", cell).strip()
        for line in text.splitlines()
        if line.startswith("| ")
        for cell in re.split(r"(?<!\\)\|", line)[1:-1]
    ]
    assert [c for c in cells if c.endswith("...")] == []  # pandas' display.max_colwidth cut
    assert [c for c in cells if "`" in c] == []


@pytest.mark.parametrize("path", RENDERED, ids=lambda p: p.stem)
def test_render_committed_markdown_has_no_html_tables(path: Path) -> None:
    assert "<table" not in path.read_text()


@pytest.mark.parametrize("path", [p.with_suffix(".html") for p in RENDERED], ids=lambda p: p.name)
def test_render_committed_html_keeps_every_details_section(path: Path) -> None:
    assert details_counts(path.read_text())[1] == 0


def test_render_committed_sdk_listings_are_permalinks_not_whole_functions() -> None:
    text = (paths.DATA_FILES.rendered / "03-inside-the-sdk.md").read_text()
    assert "the whole function (" not in text
    assert len(TAG_LINK.findall(text)) >= 11  # one per catalogued function at least


def test_render_leaves_out_a_cell_tagged_lab_only(tmp_path: Path) -> None:
    """Issue 61: notebook 01's page showed the stepper's stub line, a widget no page can show."""
    widget = new_code_cell("stepper()", metadata={"tags": ["lab-only"]})
    widget.outputs = [new_output("execute_result", {"text/plain": "Stepper: run it in JupyterLab"})]
    nb = new_notebook(cells=[new_markdown_cell("# Title"), widget, new_code_cell("1 + 1")])
    nbformat.write(nb, tmp_path / "09-lab.ipynb")
    markdown = render_notebook(tmp_path / "09-lab.ipynb", tmp_path / "out").markdown.read_text()
    assert "stepper()" not in markdown and "JupyterLab" not in markdown
    assert "1 + 1" in markdown
