"""Markdown: GitHub-flavoured markdown pieces that show text exactly as written.

Cells, code spans and fences are escaped so that call ids, backticks and pipes survive; a table
is built from any frame, its index included, or from plain rows (``markdown_rows``, no pandas).
``github_length`` counts a text as a GitHub comment does, for its limit of ``GITHUB_LIMIT``
characters.

The limit is GitHub's own answer to a longer body: "Body is too long (maximum is 65536
characters)" (the REST API's 422, quoted in danger/danger#424 and google/go-github#440). A
comment typed or pasted in the browser is sent as a form, and HTML's form submission sends each
newline of a textarea as CRLF, two characters (whatwg/html#1467, as remark42#3 and
jquery-validation#1264 found), so ``github_length`` counts a newline twice.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from ..errors import InvestigationError

if TYPE_CHECKING:
    import pandas as pd

# Characters markdown could read as syntax; an underscore only at a word's edge (GFM ignores
# intraword underscores, so ``call_id`` stays readable in the raw text).
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*\[\]<>|~&]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z]))")


def escape(text: str) -> str:
    """Text that markdown shows as written, even inside a table cell."""
    return _MARKDOWN_PUNCTUATION.sub(r"\\\g<0>", " ".join(text.split()))


def markdown_table(table: pd.DataFrame, cell: Callable[[object], str] = str) -> str:
    """Any frame (index included, a column per level) as a GitHub table; each cell formatted by
    ``cell``, escaped."""
    header = [*(str(n or "") for n in table.index.names), *(str(c) for c in table.columns)]
    rows = []
    for label, row in table.iterrows():
        labels = [str(part) for part in label] if isinstance(label, tuple) else [str(label)]
        rows.append((labels[0], [*labels[1:], *(cell(v) for v in row.tolist())]))
    return markdown_rows(header, rows)


def markdown_rows(header: Sequence[str], rows: Iterable[tuple[str, Sequence[str]]]) -> str:
    """A header and labelled rows of text as a GitHub table, every cell escaped (no pandas)."""
    lines = ["| " + " | ".join(map(escape, header)) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(escape, [label, *cells])) + " |" for label, cells in rows]
    return "\n".join(lines)


def code(text: str) -> str:
    """An inline code span that survives backticks in the text."""
    ticks = "`" * (max((len(r) for r in re.findall("`+", text)), default=0) + 1)
    return f"{ticks} {text} {ticks}" if "`" in text else f"`{text}`"


def fence(body: str, info: str) -> str:
    """A fenced block longer than any backtick run in its body."""
    ticks = "`" * max(3, max((len(r) for r in re.findall("`+", body)), default=0) + 1)
    return f"{ticks}{info}\n{body}\n{ticks}"


GITHUB_LIMIT = 65_536  # characters in one comment, as github_length counts them


def github_length(text: str) -> int:
    """Characters as a GitHub comment counts them: UTF-16 units, each newline sent as CRLF."""
    return len(text.encode("utf-16-le")) // 2 + text.count("\n")


def one_comment(parts: Sequence[str], what: str) -> str:
    """``parts`` joined into one GitHub comment's markdown, or an error naming ``what`` when it
    is longer than one comment holds (``GITHUB_LIMIT``)."""
    text = "\n\n".join(parts) + "\n"
    if (length := github_length(text)) > GITHUB_LIMIT:
        raise InvestigationError(
            f"{what} is {length} characters: over one comment's {GITHUB_LIMIT}"
        )
    return text


_LIST_ITEM = re.compile(r"([-*]|\d+\.) ")


def paragraphs(text: str) -> list[str]:
    """The prose of a markdown text, one string per paragraph or list item: code fences,
    tables, headings and HTML lines are left out (they are not read as sentences)."""
    blocks: list[list[str]] = [[]]
    fenced = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            blocks.append([])
            continue
        if fenced or not stripped or stripped[0] in "|#<":
            blocks.append([])
            continue
        if _LIST_ITEM.match(stripped):
            blocks.append([])
        blocks[-1].append(stripped)
    return [" ".join(block) for block in blocks if block]


_FENCE = re.compile(r"^```(?P<info>[\w+-]*)\n(?P<body>.*?)^```$", re.M | re.S)


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """Each fenced code block of a markdown text, in order: its info string (``sh``,
    ``python``, ``ts``) and its body, exactly as written."""
    return [(m.group("info"), m.group("body")) for m in _FENCE.finditer(text)]


def section(text: str, heading: str) -> str:
    """The part of a markdown text under ``heading`` (a whole line, such as ``## Answers``), up
    to the next heading of the same or a higher level; a one-line error when there is none. A
    line inside a code fence is never a heading (a shell comment such as ``# first ...``)."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = text.splitlines(keepends=True)
    fenced, inside = [], False
    for line in lines:
        opens = line.lstrip(" ").startswith("```")
        fenced.append(inside or opens)
        inside = inside != opens
    try:
        start = [line.rstrip("\n") for line in lines].index(heading)
    except ValueError:
        raise InvestigationError(f"no {heading!r} heading") from None
    end = next(
        (
            n
            for n in range(start + 1, len(lines))
            if not fenced[n] and (m := re.match(r"(#+) ", lines[n])) and len(m.group(1)) <= level
        ),
        len(lines),
    )
    return "".join(lines[start + 1 : end])
