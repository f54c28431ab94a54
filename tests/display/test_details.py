"""Details: a table cut to the rows that matter shows exactly those rows, and all rows under a
details element that GitHub keeps and ``render`` carries into the markdown."""

from __future__ import annotations

import re
from typing import Any

import nbformat
import pandas as pd
import pytest
from nbformat.v4 import new_output

from approval_compaction.display.details import Cut, CutError, cut, titled
from approval_compaction.errors import InvestigationError
from approval_compaction.lab.share.render import to_markdown

FRAME = pd.DataFrame(
    {"holds": [True, False, True, False], "detail": ["", "pause: c1", "", "resume: c1"]},
    index=["on/json", "on/memory", "off/json", "off/memory"],
)
BROKEN = ["on/memory", "off/memory"]


def body_rows(html: str) -> list[str]:
    """The row labels of each ``<tbody>`` in an HTML text, one list per table."""
    return [
        re.findall(r"<th>([^<]*)</th>", body)
        for body in re.findall(r"<tbody>(.*?)</tbody>", html, re.S)
    ]


@pytest.mark.parametrize(
    "rows",
    [FRAME["holds"].eq(False), [False, True, False, True], BROKEN],
    ids=["series-mask", "list-mask", "labels"],
)
def test_details_cut_shows_exactly_the_kept_rows(rows: Any) -> None:
    shown = cut(FRAME, rows=rows, why="violated").shown
    assert shown.index.tolist() == BROKEN
    assert shown.equals(FRAME.loc[BROKEN])


def test_details_cut_by_count_keeps_the_leading_rows() -> None:
    assert cut(FRAME, rows=2, why="first two").shown.index.tolist() == ["on/json", "on/memory"]
    assert len(cut(FRAME, rows=99, why="all").shown) == len(FRAME)


def test_details_html_is_the_cut_then_all_rows_under_details() -> None:
    page = cut(FRAME, rows=FRAME["holds"].eq(False), why="violated records")._repr_html_()
    assert body_rows(page) == [BROKEN, FRAME.index.tolist()]
    before, sep, after = page.partition("<details>")
    assert sep and "on/json" not in before and after.rstrip().endswith("</details>")
    assert "<summary>all 4 rows (above: 2, violated records)</summary>" in page


def test_details_summary_escapes_html() -> None:
    page = cut(FRAME, rows=1, why="<b>first</b>")._repr_html_()
    assert "&lt;b&gt;first&lt;/b&gt;" in page and "<b>" not in page


def test_details_html_has_no_blank_line_so_markdown_keeps_it_one_block() -> None:
    """A blank line ends a markdown HTML block, and GitHub would show the rest as text."""
    page = cut(FRAME, rows=2, why="first two")._repr_html_()
    assert "\n\n" not in page.strip()


def test_details_text_and_markdown_show_the_cut_and_say_how_many() -> None:
    kept = cut(FRAME, rows=BROKEN, why="violated")
    text, markdown = repr(kept), kept._repr_markdown_()
    assert "off/json" not in text and "on/memory" in text
    assert text.endswith("[2 of 4 rows: violated]")
    assert markdown.splitlines()[0].startswith("|")
    assert "off/json" not in markdown and markdown.endswith("2 of 4 rows: violated.")


def markdown_rows(text: str) -> list[list[str]]:
    """The row labels of each GitHub table in a markdown text, one list per table."""
    tables: list[list[str]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("|---"):
            tables.append([])
            inside = True
        elif inside and line.startswith("| "):
            tables[-1].append(line.split(" | ")[0].removeprefix("| "))
        else:
            inside = False
    return tables


def test_details_render_carries_the_details_into_markdown() -> None:
    """``render`` writes the cut and the full table inside its details element as GitHub
    tables, the details element kept around the second."""
    kept = cut(FRAME, rows=BROKEN, why="violated")
    data = {"text/html": kept._repr_html_(), "text/plain": repr(kept)}
    output = nbformat.v4.new_output("execute_result", data=data, execution_count=1)
    cell = nbformat.v4.new_code_cell("cut", outputs=[output], execution_count=1)
    text, _ = to_markdown(nbformat.v4.new_notebook(cells=[cell]), "nb")
    assert "<details><summary>all 4 rows (above: 2, violated)</summary>" in text
    assert "<table" not in text
    assert markdown_rows(text) == [BROKEN, FRAME.index.tolist()]


@pytest.mark.parametrize(
    ("rows", "why", "message"),
    [
        ([True, False], "x", "a mask of 2 values for a table of 4 rows"),
        (["nowhere"], "x", "no row labelled 'nowhere'"),
        (-1, "x", "at least 0, not -1"),
        (True, "x", "not a single bool"),
        (pd.Series([True] * 4), "x", "the mask's index is not the table's index"),
        (1, " ", "cut needs a reason"),
    ],
    ids=["short-mask", "unknown-label", "negative", "bool", "misaligned", "no-reason"],
)
def test_details_bad_rows_are_a_one_line_error(rows: Any, why: str, message: str) -> None:
    with pytest.raises(CutError, match=message) as caught:
        cut(FRAME, rows=rows, why=why)
    assert isinstance(caught.value, InvestigationError) and "\n" not in str(caught.value)


def test_details_cut_is_a_frozen_record() -> None:
    kept = cut(FRAME, rows=1, why="first")
    assert isinstance(kept, Cut) and kept.kept == (0,)
    with pytest.raises(AttributeError):
        kept.why = "other"  # type: ignore[misc]


def test_details_cut_never_cuts_a_message_whatever_pandas_says() -> None:
    """Tables cut the API's 400 message after 50 characters (issue 23)."""
    message = "openai.BadRequestError: Error code: 400 - No tool call found for function call " * 3
    frame = pd.DataFrame({"error": [message, "ok"]})
    with pd.option_context("display.max_colwidth", 50):
        shown = cut(frame, rows=1, why="the refused request")
        html, text = shown._repr_html_(), repr(shown)
    assert html.count(message.strip()) == 2  # the row kept and the full table
    assert message.strip() in text


def test_details_titled_shows_its_title_and_no_row_numbers() -> None:
    """Issue 61: tables followed their code cell with no title naming their scope, and showed
    pandas' row index as a column."""
    numbered = FRAME.reset_index(drop=True)  # pandas' 0, 1, 2, ... as the index
    shown = titled(numbered, "Verdicts on openai-agents 0.23.1, input mode, scripted model")
    page = shown._repr_html_()
    assert "<caption>Verdicts on openai-agents 0.23.1, input mode, scripted model</caption>" in page
    assert "<th></th>" not in page and "<td>0</td>" not in page  # no counter column
    markdown = shown._repr_markdown_()
    assert titled(FRAME, "T")._repr_markdown_().splitlines()[4].startswith("| on/json |")
    assert markdown.startswith("**Verdicts on openai-agents 0.23.1, input mode, scripted model**")
    assert markdown.splitlines()[2] == "| holds | detail |"


def test_details_titled_keeps_a_named_index_as_its_first_column() -> None:
    named = FRAME.rename_axis("case")
    assert titled(named, "T")._repr_markdown_().splitlines()[2] == "| case | holds | detail |"
    series = pd.Series([1, 2], index=pd.Index(["a", "b"], name="mode"), name="cases")
    assert titled(series, "T")._repr_markdown_().splitlines()[2] == "| mode | cases |"


def test_details_titled_and_cut_render_their_title_above_the_github_table() -> None:
    out = new_output(
        "display_data", {"text/html": cut(FRAME, 1, "first", title="Scope")._repr_html_()}
    )
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x", outputs=[out])])
    markdown, _ = to_markdown(nb, "x")
    assert "**Scope**\n\n|  | holds | detail |\n|---|---|---|\n| on/json | True |  |" in markdown


def test_details_titled_needs_a_title() -> None:
    with pytest.raises(CutError, match="needs a title"):
        titled(FRAME, " ")
