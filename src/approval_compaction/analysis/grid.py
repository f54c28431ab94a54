"""Grid: the cases-by-invariants pivot of verdict words, built from the records alone.

``matrix`` prints this pivot as a table or as markdown, and a list of rows is all it needs, so the
command line builds it here without pandas. It is the pivot that ``analysis.table.pivot`` makes
as a DataFrame: one row per case in the records' order, one column per invariant in
``INVARIANTS`` order, each cell a verdict word (``None`` where a case has no record for that
invariant). ``grid_text`` lays it out as ``DataFrame.to_string`` does, character for character,
and ``grid_markdown`` as ``formats.markdown.markdown_table`` does, so either path prints the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from ..formats.markdown import markdown_rows
from ..study.scenario import FIELD_NAMES
from . import vocabulary
from .invariants import INVARIANTS

MISSING_TEXT = "NaN"  # how DataFrame.to_string shows a cell the pivot has no record for
MISSING_MARKDOWN = "nan"  # and how markdown_table shows it (str of a float NaN)


class Verdict(Protocol):
    """What the grid reads from a record: its case (``FIELD_NAMES``), invariant and verdict."""

    @property
    def invariant(self) -> str: ...

    @property
    def holds(self) -> bool | None: ...


@dataclass(frozen=True)
class Grid:
    """Cases by invariants: ``rows`` pairs each case label with one word (or None) a column."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str | None, ...]], ...]
    index_name: str = "case"
    columns_name: str = "invariant"


def case_label(record: Verdict) -> str:
    """A record's case as ``runner/decision/compaction/state_boundary``."""
    return "/".join(str(getattr(record, name)) for name in FIELD_NAMES)


def grid(records: Iterable[Verdict]) -> Grid:
    """The pivot of ``records``: each case's word for each invariant it was judged on."""
    cells: dict[str, dict[str, str]] = {}
    for record in records:
        row = cells.setdefault(case_label(record), {})
        if record.invariant in row:
            raise ValueError(f"two records for {case_label(record)} on {record.invariant}")
        row[record.invariant] = vocabulary.word(record.holds)
    present = {invariant for row in cells.values() for invariant in row}
    columns = tuple(i for i in INVARIANTS if i in present)
    return Grid(
        columns, tuple((case, tuple(row.get(c) for c in columns)) for case, row in cells.items())
    )


def grid_text(table: Grid) -> str:
    """The grid as ``DataFrame.to_string`` prints the pivot (no trailing newline)."""
    labels = [label for label, _ in table.rows]
    values = [[" " + (MISSING_TEXT if c is None else c) for c in row] for _, row in table.rows]
    index_width = max([len(table.index_name), len(table.columns_name), *map(len, labels)])
    widths = [
        max([len(name), *(len(row[j]) for row in values)]) for j, name in enumerate(table.columns)
    ]
    header = table.columns_name.ljust(index_width) + _joined(table.columns, widths)
    width = index_width + sum(w + 1 for w in widths)
    lines = [header, table.index_name.ljust(width)]
    lines += [
        label.ljust(index_width) + _joined(row, widths)
        for label, row in zip(labels, values, strict=True)
    ]
    return "\n".join(lines)


def _joined(cells: Iterable[str], widths: list[int]) -> str:
    return "".join(" " + cell.rjust(width) for cell, width in zip(cells, widths, strict=True))


def grid_markdown(table: Grid) -> str:
    """The grid as a GitHub table, each verdict with its marker (no trailing newline)."""
    header = [table.index_name, *table.columns]
    rows = [
        (label, [vocabulary.marked(MISSING_MARKDOWN if c is None else c) for c in row])
        for label, row in table.rows
    ]
    return markdown_rows(header, rows)
