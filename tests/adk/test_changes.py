"""The changes that moved the ADK sweep's boundaries: each boundary the committed sweep shows
is named, and each named change sits on one."""

from __future__ import annotations

from approval_compaction.adk.changes import CHANGES, REPO
from approval_compaction.adk.finding import adk_boundaries, load_adk


def test_changes_name_every_boundary_of_the_committed_sweep_and_no_other() -> None:
    found = load_adk()
    assert found is not None and found.sweep
    moved = {b.release for b in adk_boundaries(found.sweep)}
    assert moved == {c.release for c in CHANGES}


def test_changes_each_cite_a_public_record() -> None:
    for change in CHANGES:
        assert change.what and (REPO in change.source or "google-adk " in change.source)
