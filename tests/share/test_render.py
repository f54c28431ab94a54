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

from approval_compaction import cli, paths
from approval_compaction.display.heatmap import png_bytes
from approval_compaction.share.notebooks import notebook_paths
from approval_compaction.share.render import render_notebook


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
    assert "![png](07-example_files/07-example_2_0.png)" in markdown
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
def test_render_project_notebook_links_only_images_it_wrote(path: Path, tmp_path: Path) -> None:
    rendered = render_notebook(path, tmp_path)
    markdown = rendered.markdown.read_text()
    linked = re.findall(rf"\]\(({re.escape(path.stem)}_files/[^)]+)\)", markdown)
    assert sorted(linked) == [image.relative_to(tmp_path).as_posix() for image in rendered.images]


def test_render_html_embeds_images_linked_from_markdown_cells(tmp_path: Path, png: bytes) -> None:
    folder = tmp_path / "notebooks"
    folder.mkdir()
    (folder / "chart.png").write_bytes(png)
    nb = new_notebook(cells=[new_markdown_cell("![chart](chart.png)")])
    nbformat.write(nb, folder / "08-linked.ipynb")
    html = render_notebook(folder / "08-linked.ipynb", tmp_path / "out").html.read_text()
    assert f"data:image/png;base64,{base64.b64encode(png).decode()}" in html


def test_render_markdown_keeps_dataframe_tables_without_their_css(tmp_path: Path) -> None:
    """GitHub prints a <style> block's CSS as text, so the markdown must not carry it."""
    table = pd.DataFrame({"status": ["orphan output"]})._repr_html_()
    assert table is not None and "<style scoped>" in table
    data = {"text/html": table, "text/plain": "x"}
    output = new_output("execute_result", data, execution_count=1)
    nb = new_notebook(cells=[new_code_cell("frame", execution_count=1, outputs=[output])])
    nbformat.write(nb, tmp_path / "09-table.ipynb")
    markdown = render_notebook(tmp_path / "09-table.ipynb", tmp_path / "out").markdown.read_text()
    assert "<td>orphan output</td>" in markdown
    assert "<style" not in markdown and "vertical-align" not in markdown
