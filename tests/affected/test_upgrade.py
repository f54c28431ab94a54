"""Upgrade's record: data/doctor-upgrade.json read back, one next turn per release and store."""

from __future__ import annotations

from approval_compaction.lab import paths
from approval_compaction.lab.affected.upgrade import PAUSE_FAILED, STORES, load_upgrade


def test_the_committed_upgrade_holds_each_store_on_the_pinned_and_the_newest_release() -> None:
    records = load_upgrade(paths.DATA_FILES.doctor_upgrade)
    by_store = {store: [r for r in records if r.store == store] for store in STORES}
    assert all(len({r.release for r in rows}) == 2 for rows in by_store.values())
    assert {r.next_turn for r in by_store["poisoned"]} == {"rejected"}  # upgrading heals nothing
    assert {r.next_turn for r in by_store["repaired"]} == {"accepted"}
    assert STORES[PAUSE_FAILED] == "auto"  # the SDK's default mode left that store
