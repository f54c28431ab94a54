"""Formats: matrix records rendered as a table, JSON, CSV or GitHub markdown."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict

import pandas as pd

from .matrix import MatrixRecord, pivot, to_frame

FORMATS = ("table", "json", "csv", "markdown")


def render(rows: Sequence[MatrixRecord], fmt: str) -> str:
    """The records in one of FORMATS, ending with a newline."""
    if fmt == "json":
        return json.dumps([asdict(r) for r in rows], indent=2) + "\n"
    frame = to_frame(rows)
    if fmt == "csv":
        return str(frame.to_csv(index=False, lineterminator="\n"))
    if fmt == "markdown":
        return markdown_table(pivot(frame)) + "\n"
    if fmt == "table":
        return pivot(frame).to_string() + "\n"
    raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")


# Characters markdown could read as syntax; an underscore only at a word's edge (GFM ignores
# intraword underscores, so ``call_id`` stays readable in the raw text).
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*\[\]<>|~&]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z]))")
MARKERS = {"holds": "✅ holds", "VIOLATED": "❌ VIOLATED", "n/a": "➖ n/a"}


def escape(text: str) -> str:
    """Text that markdown shows as written, even inside a table cell."""
    return _MARKDOWN_PUNCTUATION.sub(r"\\\g<0>", " ".join(text.split()))


def marked(value: object) -> str:
    """A matrix cell with its marker: ``✅ holds``, ``❌ VIOLATED``, ``➖ n/a``."""
    text = str(value)
    return MARKERS.get(text, text)


def markdown_table(table: pd.DataFrame, cell: Callable[[object], str] = marked) -> str:
    """Any frame (index included) as a GitHub table, every cell escaped; matrix words marked."""
    header = [escape(str(table.index.name or ""))] + [escape(str(c)) for c in table.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for label, row in table.iterrows():
        cells = [escape(str(label))] + [escape(cell(v)) for v in row.tolist()]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
