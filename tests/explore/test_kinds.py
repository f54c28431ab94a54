"""Kinds: a call id names its kind and step."""

from __future__ import annotations

from approval_compaction.lab.explore.kinds import call_id, kind_of
from approval_compaction.study.words import KINDS


def test_a_call_id_names_its_kind() -> None:
    assert all(kind_of(call_id(kind, 3, 1)) == kind for kind in KINDS)
    assert kind_of("pending-c1") == "?"
