"""Formats: matrix records rendered as a table, JSON, CSV or GitHub markdown."""

from __future__ import annotations

import json
from collections.abc import Sequence
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


def markdown_table(table: pd.DataFrame) -> str:
    """A pivot (index plus columns) as a GitHub-flavoured markdown table, cells in words."""
    header = [str(table.index.name or "")] + [str(c) for c in table.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for label, row in table.iterrows():
        cells = [str(label)] + [_cell(v) for v in row.tolist()]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _cell(value: object) -> str:
    text = str(value)
    return {"holds": "✅ holds", "VIOLATED": "❌ VIOLATED", "n/a": "➖ n/a"}.get(text, text)
