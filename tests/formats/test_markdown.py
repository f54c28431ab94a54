"""GitHub markdown pieces: escaped cells, tables from frames, code spans, fences, and length."""

from __future__ import annotations

import pandas as pd
import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from approval_compaction.errors import InvestigationError
from approval_compaction.formats.markdown import (
    GITHUB_LIMIT,
    code,
    escape,
    fence,
    github_length,
    markdown_table,
    one_comment,
    section,
)


def gfm() -> MarkdownIt:
    """CommonMark plus GitHub's tables and strikethrough (linkify needs an extra package)."""
    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


def table_rows(text: str) -> list[list[str]]:
    """Each table row as the plain text GitHub shows in its cells (header row first)."""
    rows: list[list[str]] = []
    for token in gfm().parse(text):
        if token.type == "tr_open":
            rows.append([])
        if token.type == "inline" and rows:
            rows[-1].append(shown(token))
    return rows


def shown(token: Token) -> str:
    return "".join(c.content for c in token.children or [])


@pytest.mark.parametrize(
    "text",
    [
        "a | b",
        "<details>",
        "back\\slash",
        "*not emphasis*",
        "_edge_ and call_id",
        "[x](y)",
        "a&amp;b",
    ],
    ids=["pipe", "html", "backslash", "emphasis", "underscores", "link", "entity"],
)
def test_escape_shows_cell_text_as_written(text: str) -> None:
    tokens = gfm().parse(f"| h |\n|---|\n| {escape(text)} |\n")
    cell = next(t for t in tokens if t.type == "inline" and t.content != "h")
    assert [c.type for c in cell.children or []] == ["text"]
    assert "".join(c.content for c in cell.children or []) == text


@pytest.mark.parametrize(
    "text", ["`code`", "~~struck~~", "pending-c1", "✗ ünïcode"], ids=["tick", "tilde", "id", "uni"]
)
def test_escape_shows_more_text_as_written(text: str) -> None:
    assert table_rows(f"| h |\n|---|\n| {escape(text)} |\n")[1] == [text]


def test_escape_keeps_intraword_underscores_readable() -> None:
    assert escape("next_turn_input_paired") == "next_turn_input_paired"


def test_escape_folds_whitespace_so_a_cell_stays_on_one_line() -> None:
    assert escape("  a\nb\t c  ") == "a b c"


FRAME = pd.DataFrame(
    {"holds": [True, None], "detail": ["next_turn: c1 | c2", "OSError: *disk* full"]},
    index=pd.Index(["run/approve/on/json", "run_streamed/reject/off/memory"], name="case"),
)


def test_markdown_table_has_header_separator_and_a_row_per_index_label() -> None:
    lines = markdown_table(FRAME).splitlines()
    assert lines[0] == "| case | holds | detail |"
    assert lines[1] == "|---|---|---|"
    assert len(lines) == 2 + len(FRAME)


def test_markdown_table_parses_to_the_frame_cells_as_written() -> None:
    rows = table_rows(markdown_table(FRAME))
    assert rows[0] == ["case", "holds", "detail"]
    assert rows[1:] == [[str(label), *map(str, row)] for label, row in FRAME.iterrows()]


def test_markdown_table_without_an_index_name_has_an_empty_corner() -> None:
    table = FRAME.rename_axis(index=None)
    assert markdown_table(table).splitlines()[0] == "|  | holds | detail |"
    assert table_rows(markdown_table(table))[0] == ["", "holds", "detail"]


def test_markdown_table_formats_values_with_cell_but_not_labels_or_header() -> None:
    calls: list[object] = []

    def cell(value: object) -> str:
        calls.append(value)
        return f"<{value}>"

    rows = table_rows(markdown_table(FRAME, cell=cell))
    assert calls == [v for _, row in FRAME.iterrows() for v in row.tolist()]
    assert rows[0] == ["case", "holds", "detail"]
    assert [row[0] for row in rows[1:]] == FRAME.index.tolist()
    assert rows[1][1:] == ["<True>", "<next_turn: c1 | c2>"]  # the formatted text is escaped too


def test_markdown_table_of_an_empty_frame_is_the_header() -> None:
    assert markdown_table(FRAME.iloc[:0]).splitlines() == [
        "| case | holds | detail |",
        "|---|---|---|",
    ]


@pytest.mark.parametrize(
    "text",
    ["plain", "a`b", "``x``", "`", "call_id | x"],
    ids=["plain", "one", "run", "only", "pipe"],
)
def test_code_span_shows_its_text(text: str) -> None:
    tokens = gfm().parse(code(text))
    spans = [c for c in tokens[1].children or [] if c.type == "code_inline"]
    assert len(spans) == 1
    # CommonMark strips one space each side when both are present and the text is not all spaces.
    assert spans[0].content == text


def test_code_span_without_backticks_is_one_tick_each_side() -> None:
    assert code("pending-c1") == "`pending-c1`"


def test_fence_outlasts_backticks_in_its_body() -> None:
    body = "```\nnot the end\n````"
    tokens = gfm().parse(fence(body, "diff") + "\nafter\n")
    fences = [t for t in tokens if t.type == "fence"]
    assert [(t.info, t.content) for t in fences] == [("diff", body + "\n")]


def test_fence_is_three_ticks_for_a_plain_body() -> None:
    assert fence("- a\n+ b", "diff") == "```diff\n- a\n+ b\n```"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0),
        ("abc", 3),
        ("a\nb", 4),  # the newline is sent as CRLF
        ("ü", 1),  # one UTF-16 unit
        ("✅", 1),  # in the Basic Multilingual Plane
        ("😀", 2),  # a surrogate pair
    ],
    ids=["empty", "ascii", "newline", "latin", "bmp-emoji", "astral"],
)
def test_github_length_counts_utf16_units_and_crlf(text: str, expected: int) -> None:
    assert github_length(text) == expected


def test_markdown_paragraphs_split_prose_and_leave_code_tables_and_headings_out() -> None:
    from approval_compaction.formats.markdown import paragraphs

    text = "# Title\n\nOne line\nand its second.\n\n- a bullet\n- another\n\n"
    text += "| a |\n|---|\n```\ncode\n```\n"
    assert paragraphs(text) == ["One line and its second.", "- a bullet", "- another"]


def test_one_comment_joins_parts_and_names_what_is_too_long() -> None:
    assert one_comment(["# Title", "body"], "the report") == "# Title\n\nbody\n"
    # a newline counts twice (sent as CRLF): one line under the limit, then over it
    fits = "x" * (GITHUB_LIMIT - 2)
    assert github_length(one_comment([fits], "the report")) == GITHUB_LIMIT
    with pytest.raises(InvestigationError, match="^the report is 65537 characters: over one"):
        one_comment([fits + "y"], "the report")


def test_markdown_table_gives_each_index_level_a_column() -> None:
    table = pd.DataFrame(
        {"release": ["1.0", "1.0"], "kind": ["a", "b"], "found": ["x", "y"]}
    ).set_index(["release", "kind"])
    assert markdown_table(table).splitlines() == [
        "| release | kind | found |",
        "|---|---|---|",
        "| 1.0 | a | x |",
        "| 1.0 | b | y |",
    ]


def test_section_runs_to_the_next_heading_of_its_level_and_skips_code_fences() -> None:
    """A shell comment in a fenced block (``# first discard ...``) is not a heading: the
    README's first section once ended there, before the JavaScript lines."""
    text = "# T\n\n## A\n\n```sh\n# a comment\nrun\n```\n\n### a\n\nmore\n\n## B\n\nb\n"
    assert section(text, "## A") == "\n```sh\n# a comment\nrun\n```\n\n### a\n\nmore\n\n"
    assert section(text, "### a") == "\nmore\n\n"
    assert section(text, "## B") == "\nb\n"
    with pytest.raises(InvestigationError, match="no '## C' heading"):
        section(text, "## C")
