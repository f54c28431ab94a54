"""The doctor's answers as records, on hand-built experiment records."""

from __future__ import annotations

from typing import Any

from approval_compaction.doctor.check import CheckRow, Config
from approval_compaction.lab.affected.upgrade import UpgradeRecord
from approval_compaction.lab.affected.worker import WorkerComparison
from approval_compaction.lab.findings.doctor import Worker, check, upgrade


def row(prior: int, next_turn: str, at_pause: str = "paused") -> CheckRow:
    compacted = next_turn == "rejected" or at_pause != "paused"
    return CheckRow(prior, 2 * prior, prior, compacted, True, at_pause, "healthy", next_turn)


def turn(release: str, store: str, next_turn: str) -> UpgradeRecord:
    return UpgradeRecord(release, store, next_turn, "API stand-in", "", "", 0, "", "healthy", [])


def comparison(compaction: str, **same: Any) -> WorkerComparison:
    fields = {"same_stored_after_resume": True, "same_next_turn_input": True, **same}
    return WorkerComparison(
        compaction,
        **fields,
        stored_after_resume="healthy",
        next_turn_orphans_in_process=(),
        next_turn_orphans_worker=(),
    )


def test_check_names_the_pause_positions_the_bug_strikes() -> None:
    found = check(
        ("0.23.1", Config(), [row(0, "accepted"), row(1, "rejected"), row(2, "rejected")])
    )
    assert (found.release, found.affected_at, len(found.rows)) == ("0.23.1", (1, 2), 3)
    assert check(("0.24.0", Config(), [row(0, "accepted")])).affected_at == ()


def test_check_a_pause_the_api_refused_is_affected_though_the_next_turn_is_accepted() -> None:
    """With the SDK's default mode the compaction request is refused at the pause: the user
    meets the 400 there, and the next question goes through."""
    refused = row(9, "accepted", at_pause="HTTP 400: No tool output found for function call c1.")
    found = check(("0.23.1", Config(), [row(8, "accepted"), refused]))
    assert found.affected_at == (9,)


def test_upgrade_reads_the_newest_releases_turns_in_release_order() -> None:
    records = [
        turn("0.10.0", "poisoned", "accepted"),
        turn("0.9.0", "poisoned", "rejected"),
        turn("0.10.0", "repaired", "accepted"),
        turn("0.9.0", "repaired", "accepted"),
    ]
    found = upgrade(records)
    assert (found.pinned, found.newest) == ("0.9.0", "0.10.0")
    assert (found.poisoned, found.repaired, found.pause_failed) == (records[0], records[2], None)
    assert found.heals
    failed = turn("0.10.0", "pause_failed", "accepted")
    assert upgrade([*records, failed]).pause_failed == failed
    assert not upgrade(
        [turn("0.9.0", "poisoned", "rejected"), turn("0.9.0", "repaired", "accepted")]
    ).heals


def test_worker_is_the_same_only_when_every_comparison_is() -> None:
    assert Worker((comparison("on"), comparison("off"))).same
    assert not Worker((comparison("on"), comparison("off", same_next_turn_input=False))).same
