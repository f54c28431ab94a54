"""Details: a table titled with its scope, and cut to the rows that matter, the full table one
click away.

``titled(frame, title)`` shows a table under a title that says what it holds and under which
scope (the release, the compaction mode, the trigger, the scripted model or over HTTP): in HTML
the title is the table's ``<caption>`` (``render`` writes it as a bold line above the GitHub
table), in markdown a bold line; a named index becomes the first column and pandas' row
numbers are left out, so no column is a counter a reader must skip.

``cut(frame, rows=..., why=...)`` keeps the rows a reader needs (a boolean mask, a count of
leading rows, or a list of index labels) and returns a ``Cut``. In a notebook its HTML shows the
cut rows, then the whole table folded under ``<details><summary>all N rows</summary>``: the
summary says which rows were kept and why. GitHub keeps ``<details>`` and ``<summary>`` (they
are on its sanitizer's allow list), and ``render`` carries the HTML into ``data/rendered/*.md``
as it is, so the full table stays one click away there too. The plain-text and markdown forms
show the cut rows and say how many were left out. A cell is never cut short, whatever pandas'
``display.max_colwidth`` says: the text in a table is often an error message, and its end
matters::

    ac.cut(frame, rows=frame["holds"].eq(False), why="violated records")
    ac.cut(table, rows=5, why="the first five releases")

``cut(..., title=...)`` titles both tables the same way.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ..errors import InvestigationError
from ..formats.markdown import escape, markdown_rows, markdown_table

Rows = pd.Series | Sequence[bool] | Sequence[object] | int


class CutError(InvestigationError, ValueError):
    """Rows to keep that do not fit the table (a wrong-length mask, unknown labels, a bad
    count), or a table given no title."""


def plain(frame: pd.DataFrame | pd.Series) -> pd.DataFrame:
    """The table a reader sees: a series as one column, pandas' row numbers left out (an
    unnamed index of integers: 0, 1, 2, ..., or what a filter kept of them), any other index as
    the first columns (an unnamed level under an empty heading)."""
    table = frame.to_frame() if isinstance(frame, pd.Series) else frame.copy()
    table.columns.names = [None] * table.columns.nlevels  # a heading of its own, not a column
    index = table.index
    if index.nlevels == 1 and index.name is None and pd.api.types.is_integer_dtype(index):
        return table.reset_index(drop=True)
    names = [name if name is not None else "" for name in index.names]
    return table.rename_axis(names).reset_index()


def with_caption(table_html: str, title: str) -> str:
    """The HTML table with ``title`` as its caption (the first element inside ``<table>``)."""
    if not title:
        return table_html
    head, found, rest = table_html.partition(">")
    return f"{head}{found}\n  <caption>{html.escape(title)}</caption>{rest}"


def _html(frame: pd.DataFrame, title: str) -> str:
    with pd.option_context("display.max_colwidth", None):  # a message is never cut
        return with_caption(plain(frame).to_html(index=False), title)


def _markdown(frame: pd.DataFrame, title: str) -> str:
    table = plain(frame)
    header = [str(c) if not isinstance(c, tuple) else " / ".join(map(str, c)) for c in table]
    rows = [(str(row[0]), [str(v) for v in row[1:]]) for row in table.itertuples(index=False)]
    bold = f"**{escape(title)}**\n\n" if title else ""
    return bold + markdown_rows(header, rows)


@dataclass(frozen=True)
class Titled:
    """A table shown under a title naming its scope, without pandas' row numbers."""

    frame: pd.DataFrame
    title: str

    def _repr_html_(self) -> str:
        return _html(self.frame, self.title)

    def _repr_markdown_(self) -> str:
        return _markdown(self.frame, self.title)

    def __repr__(self) -> str:
        with pd.option_context("display.max_colwidth", None):
            return f"{self.title}\n{plain(self.frame).to_string(index=False)}"


def titled(frame: pd.DataFrame | pd.Series, title: str) -> Titled:
    """The table under ``title``, which says what it holds and its scope."""
    if not title.strip():
        raise CutError("a table needs a title: say what it holds and under which scope")
    return Titled(frame if isinstance(frame, pd.DataFrame) else frame.to_frame(), title)


@dataclass(frozen=True)
class Cut:
    """A table, and the rows of it to show first; the rest stay under a details element."""

    frame: pd.DataFrame
    kept: tuple[int, ...]  # positions of the rows kept, in the table's order
    why: str
    title: str = ""

    @property
    def shown(self) -> pd.DataFrame:
        """The rows kept, in the table's order."""
        return self.frame.iloc[list(self.kept)]

    @property
    def summary(self) -> str:
        """What the details element says: ``all 16 rows (above: 8, violating cases)``."""
        return f"all {len(self.frame)} rows (above: {len(self.kept)}, {self.why})"

    def _repr_html_(self) -> str:
        if self.title:
            shown, full = _html(self.shown, self.title), _html(self.frame, "")
        else:
            with pd.option_context("display.max_colwidth", None):  # a message is never cut
                shown, full = self.shown.to_html(), self.frame.to_html()
        summary = html.escape(self.summary)
        return f"{shown}\n<details><summary>{summary}</summary>\n{full}\n</details>\n"

    def _repr_markdown_(self) -> str:
        table = _markdown(self.shown, self.title) if self.title else markdown_table(self.shown)
        return f"{table}\n\n{self.count}."

    def __repr__(self) -> str:
        with pd.option_context("display.max_colwidth", None):
            if self.title:
                return f"{self.title}\n{plain(self.shown).to_string(index=False)}\n[{self.count}]"
            return f"{self.shown.to_string()}\n[{self.count}]"

    @property
    def count(self) -> str:
        """How many rows are shown, of how many, and why: ``8 of 16 rows: violating cases``."""
        return f"{len(self.kept)} of {len(self.frame)} rows: {self.why}"


def cut(frame: pd.DataFrame, rows: Rows, why: str, title: str = "") -> Cut:
    """The frame cut to ``rows`` (a boolean mask, a number of leading rows, or index labels),
    under ``title`` when given (as ``titled``)."""
    if not why.strip():
        raise CutError("cut needs a reason: say which rows are kept, e.g. why='violated cases'")
    return Cut(frame, _kept(frame, rows), why, title)


def _kept(frame: pd.DataFrame, rows: Rows) -> tuple[int, ...]:
    if isinstance(rows, bool):
        raise CutError("rows must be a mask, a count or labels, not a single bool")
    if isinstance(rows, int):
        if rows < 0:
            raise CutError(f"rows must be a count of at least 0, not {rows}")
        return tuple(range(min(rows, len(frame))))
    if isinstance(rows, pd.Series) and rows.dtype == bool:
        if not rows.index.equals(frame.index):
            raise CutError("the mask's index is not the table's index")
        return _positions(rows.tolist())
    values = list(rows)
    if values and all(isinstance(v, bool) for v in values):
        if len(values) != len(frame):
            raise CutError(f"a mask of {len(values)} values for a table of {len(frame)} rows")
        return _positions(values)
    missing = [v for v in values if v not in frame.index]
    if missing:
        raise CutError(f"no row labelled {missing[0]!r} in the table")
    return _positions(frame.index.isin(values).tolist())


def _positions(mask: list[bool]) -> tuple[int, ...]:
    return tuple(i for i, keep in enumerate(mask) if keep)
