"""Prose tables: a frame whose cells are short markdown, shown with its code as code.

A DataFrame's HTML prints each cell as text, so a cell written in markdown shows its backticks
inside the table: in JupyterLab, in the HTML render and in the markdown render too, whose tables
are HTML that GitHub does not read as markdown. ``prose(frame)`` shows the same frame with each
cell's code spans as ``<code>`` elements, the rest escaped, and nothing cut::

    prose(pd.DataFrame(RULES).set_index("name"), title="The rules the stand-in enforces")

With a title, the table is shown as ``display.titled`` shows one: the title as its caption, the
index as its first column, no row numbers.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from ...display.details import plain as shown_table
from ...display.details import with_caption

CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)


def inline_html(text: str) -> str:
    """Markdown text as HTML: each code span a ``<code>`` element, everything else escaped."""
    parts, last = [], 0
    for match in CODE_SPAN.finditer(text):
        parts.append(html.escape(text[last : match.start()]))
        parts.append(f"<code>{html.escape(match.group(2).strip())}</code>")
        last = match.end()
    return "".join([*parts, html.escape(text[last:])])


def plain(text: str) -> str:
    """Markdown text without its code-span backticks."""
    return CODE_SPAN.sub(lambda match: match.group(2).strip(), text)


@dataclass(frozen=True)
class Prose:
    """A table whose cells (and labels) are markdown: HTML with code, plain text without ticks."""

    frame: pd.DataFrame
    title: str = ""

    def _cells(self, convert: Callable[[str], str]) -> pd.DataFrame:
        def each(value: object) -> str:
            return convert(str(value))

        frame = self.frame.map(each).rename(index=each, columns=each)
        name = self.frame.index.name
        return frame.rename_axis(each(name) if name is not None else None)

    def _repr_html_(self) -> str:
        with pd.option_context("display.max_colwidth", None):
            cells = self._cells(inline_html)
            if not self.title:
                return str(cells.to_html(escape=False))
            table = shown_table(cells).to_html(escape=False, index=False)
            return with_caption(table, self.title)

    def __repr__(self) -> str:
        with pd.option_context("display.max_colwidth", None):
            return str(self._cells(plain).to_string())


def prose(frame: pd.DataFrame, title: str = "") -> Prose:
    """The frame shown with its cells' markdown code as code (``Prose``), under ``title``."""
    return Prose(frame, title)
