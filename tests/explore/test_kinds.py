"""Kinds: every approval-capable kind the pinned release has, found by feature."""

from __future__ import annotations

from approval_compaction.lab.explore.kinds import KINDS, available, call_id, kind_of


def test_the_pinned_release_supports_every_kind() -> None:
    kinds, skipped = available()
    assert kinds == KINDS and skipped == {}


def test_a_call_id_names_its_kind() -> None:
    assert all(kind_of(call_id(kind, 3, 1)) == kind for kind in KINDS)
    assert kind_of("pending-c1") == "?"
