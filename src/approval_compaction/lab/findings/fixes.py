"""Fixes: how each upstream fix was checked, as the tables its report renders.

Three kinds of evidence, each read from ``data/``: the repository's own tools on the fix and its
regression tests (``CheckRecord``: a folder's ``*-typecheck.json`` or ``*-lint.json``), the
repository's own suite before and after (``*-upstream.json``, recorded by hand from a
snapshot), and the mutants (``MutantRecord``: ``*-mutants.json``, rendered by
``lab.mutation.mutants_frame``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ...formats.records import read_json, read_records
from ..mutation import MutantRecord
from ..releases.driven import CheckRecord


def checks(path: Path) -> list[CheckRecord]:
    return read_records(path, CheckRecord) if path.is_file() else []


def mutants(path: Path, fix: str | None = None) -> list[MutantRecord]:
    rows = read_records(path, MutantRecord) if path.is_file() else []
    return [r for r in rows if fix is None or r.fix == fix]


def upstream(path: Path) -> dict[str, Any] | None:
    """A recorded upstream run (``*-upstream.json``), or None when none was recorded."""
    return read_json(path, dict) if path.is_file() else None


def _said(row: CheckRecord) -> str:
    if not row.problems:
        return "clean"
    first = row.said.splitlines()[0] if row.said else ""
    return f"{row.problems} problems: {first}" if first else f"{row.problems} problems"


def checks_frame(rows: Sequence[CheckRecord], subjects: Sequence[str]) -> pd.DataFrame:
    """One row a tool (as a maintainer runs it), one column a subject: clean, or what it said."""
    table: dict[str, dict[str, str]] = {}
    for row in rows:
        if row.subject in subjects:
            table.setdefault(row.command, {})[row.subject] = _said(row)
    frame = pd.DataFrame.from_dict(table, orient="index")[list(subjects)]
    return frame.rename_axis("tool")
