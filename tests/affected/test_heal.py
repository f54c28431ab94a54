"""Heal: a whole scan, repair, compare and restore keeps every item."""

from __future__ import annotations

from approval_compaction.lab.affected.heal import REAL_SESSION, heal_new_sqlite


def test_heal_repairs_every_poisoned_session_and_restore_keeps_every_item() -> None:
    healed = heal_new_sqlite()
    summary = healed.summary()
    assert summary.before["poisoned"] == summary.repaired == 3
    assert summary.after["poisoned"] == 0
    assert summary.items_backed_up_differently == 0
    assert summary.items_restored_same == summary.items_compared
    assert REAL_SESSION in {o.session_id for o in healed.applied.outcomes}
