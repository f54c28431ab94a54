"""The changes that moved the LangChain sweep's boundaries: each boundary the committed sweep
shows is named by a change here, and each change here is a boundary."""

from __future__ import annotations

from approval_compaction.langchain.changes import CHANGES
from approval_compaction.langchain.finding import boundaries, load


def test_changes_every_boundary_has_its_change_and_every_change_a_boundary() -> None:
    found = load()
    assert found is not None and found.sweep
    moved = {b.release for b in boundaries(found.sweep, found.sweep_liveness)}
    assert moved == {c.release for c in CHANGES}


def test_changes_each_names_its_public_record() -> None:
    assert all(c.what and c.source for c in CHANGES)
