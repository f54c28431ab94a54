"""Kinds table: one row per approval kind, each cell read from the anatomy's record."""

from __future__ import annotations

from dataclasses import replace

from approval_compaction.lab.mechanism.anatomy import load_anatomy
from approval_compaction.lab.mechanism.kinds_table import kinds_frame
from approval_compaction.lab.mechanism.views import outcome_kind


def test_kinds_table_one_row_per_kind_naming_its_minimal_fix_by_number() -> None:
    found = load_anatomy()
    frame = kinds_frame(found)
    assert list(frame.index) == [kind.label for kind in found.kinds]
    for kind in found.kinds:
        row = frame.loc[kind.label]
        names = [f"{found.numbers[name]} ({name})" for name in kind.minimal_fix]
        assert row["minimal fix"] == (", ".join(names) or "none")
        assert row[f"{found.old} + the function fix alone"] == outcome_kind(kind.with_function_fix)
        assert row["cases"] == len(kind.cases) and row["absent in"] == "—"


def test_kinds_table_a_kind_a_release_cannot_make_says_why() -> None:
    found = load_anatomy()
    gone = replace(found.kinds[-1], absent={found.old: "AttributeError: no HostedMCPTool"})
    frame = kinds_frame(replace(found, kinds=(gone,)))
    assert frame.loc[gone.label, "absent in"] == f"{found.old}: AttributeError: no HostedMCPTool"
