"""Sanitize: a notebook's raw HTML reaches the rendered files only as GitHub keeps it."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from approval_compaction.lab.share.render import render_notebook
from approval_compaction.lab.share.sanitize import clean_html, clean_markdown, safe_url

HOSTILE_MARKDOWN = """\
# Hostile

<script>alert("pwned-script")</script>
<iframe src="https://evil.example/frame"></iframe>
[click](javascript:alert('pwned-link'))
[ref]: javascript:alert('pwned-ref')
<a href="JaVaScRiPt&#58;alert('pwned-href')" title="kept">a link</a>
<img src="https://example.com/x.png" onerror="alert('pwned-onerror')" alt="kept">
<!-- a comment --!> <img src=https://example.com/y.png onerror=alert('pwned-comment')> -->
<x title="<img src=https://example.com/z.png onerror=alert('pwned-quoted')>">y</x>
<details open><summary>kept summary</summary>

Kept text with `<script>` in code, and <https://github.com> as an autolink.

</details>

```html
<script>fenced code is shown as text</script>
```
"""
HOSTILE_HTML = (
    '<div><script>alert("pwned-output")</script><iframe src="https://evil.example/out">'
    '</iframe><a href="javascript:alert(1)" style="color:red" class="x">out link</a>'
    "<table><tr><td onclick=\"alert('pwned-cell')\">cell</td></tr></table></div>"
)


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    output = new_output(
        "display_data",
        data={
            "text/html": HOSTILE_HTML,
            "text/plain": "frame",
            "application/javascript": "alert('pwned-js-output')",
            "text/markdown": "<script>alert('pwned-md-output')</script>markdown output",
        },
    )
    cell = new_code_cell("display(frame)", outputs=[output], execution_count=1)
    path = tmp_path / "hostile.ipynb"
    nbformat.write(new_notebook(cells=[new_markdown_cell(HOSTILE_MARKDOWN), cell]), path)
    return path


def test_sanitize_hostile_cells_reach_neither_file(hostile: Path, tmp_path: Path) -> None:
    """Regression: ``render`` copied raw HTML from markdown cells and text/html outputs
    (scripts, frames, javascript: links) into the markdown and the HTML it writes."""
    rendered = render_notebook(hostile, tmp_path / "out")
    for path in (rendered.markdown, rendered.html):
        text = path.read_text()
        live = re.sub(r"&lt;.*?&gt;", "", text)  # what is escaped reads as text
        assert "pwned" not in live, path.name
        assert re.search(r"<iframe|javascript:|\bon(error|click)=", live, re.I) is None, path.name
        assert "<details open" in text and "kept summary" in text
        assert "https://github.com" in text and 'title="kept"' in text
    markdown = rendered.markdown.read_text()
    assert "&lt;iframe" in markdown  # escaped: it reads as text
    assert "`<script>`" in markdown and "<script>fenced code is shown as text</script>" in markdown
    assert "click" in markdown and "out link" in markdown


@pytest.mark.parametrize(
    ("url", "safe"),
    [
        ("https://github.com/x", True),
        ("#anchor", True),
        ("data/report.md", True),
        ("mailto:a@b.c", True),
        ("javascript:alert(1)", False),
        (" java\tscript:alert(1)", False),
        ("JAVASCRIPT&#58;alert(1)", False),
        ("data:text/html;base64,xx", False),
        ("vbscript:x", False),
    ],
)
def test_sanitize_safe_url_keeps_what_github_links(url: str, safe: bool) -> None:
    assert safe_url(url) is safe


def test_sanitize_html_keeps_github_tables_and_drops_styles() -> None:
    table = '<style scoped>.x{}</style><table border="1" class="dataframe"><tr style="a">'
    assert clean_html(table + '<th rowspan="2" halign="left">h</th></tr></table>') == (
        '<table border="1"><tr><th rowspan="2">h</th></tr></table>'
    )


@pytest.mark.parametrize(
    "hostile",
    [
        "`x\n\n<img src=https://e.example/a.png onerror=alert(1)>\n\n`",
        "<div>`<img src=https://e.example/a.png onerror=alert(1)>`</div>\n",
    ],
    ids=["backticks-across-paragraphs", "code-span-in-an-html-block"],
)
def test_sanitize_backticks_do_not_shelter_html_a_renderer_runs(hostile: str) -> None:
    """A code span never crosses a blank line, and an HTML block has none: the tag is live
    there, so it is cleaned."""
    assert "onerror" not in clean_markdown(hostile)


def test_sanitize_markdown_leaves_prose_without_html_as_it_is() -> None:
    prose = "**Answer.** a > b, `x < y`, [the wire](https://github.com/a/b) and <!-- marker -->\n"
    assert clean_markdown(prose) == prose
