"""Kinds: every approval-capable kind the pinned release has, found by feature."""

from __future__ import annotations

from approval_compaction.openai_agents.kinds import available
from approval_compaction.study.words import KINDS


def test_the_pinned_release_supports_every_kind() -> None:
    kinds, skipped = available()
    assert kinds == KINDS and skipped == {}
