"""Views: the studies' records as the frames notebook 07 shows."""

from __future__ import annotations

from approval_compaction.doctor.check import CheckRow, Config
from approval_compaction.lab.affected.upgrade import UpgradeRecord
from approval_compaction.lab.affected.views import (
    check_compare,
    check_frame,
    upgrade_frame,
    worker_frame,
)
from approval_compaction.lab.affected.worker import WorkerComparison


def row(prior: int, compacted: bool) -> CheckRow:
    verdict = "rejected" if compacted else "accepted"
    return CheckRow(prior, 3 + prior, prior, compacted, not compacted, "paused", "healthy", verdict)


def upgrade(release: str, store: str) -> UpgradeRecord:
    return UpgradeRecord(
        release,
        store,
        "accepted",
        "API stand-in",
        "HTTP 200",
        "",
        0,
        "",
        "healthy",
        [{"role": "user"}],
    )


def test_views_check_frame_is_indexed_by_pause_position() -> None:
    frame = check_frame([row(0, False), row(1, True)])
    assert list(frame.index) == [0, 1] and frame.index.name == "prior_turns"
    assert list(frame["next_turn"]) == ["accepted", "rejected"]


def test_views_check_compare_sets_releases_side_by_side() -> None:
    old = ("0.23.1", Config(), [row(0, True), row(1, False)])
    new = ("0.24.0", Config(), [row(0, False), row(1, False)])
    frame = check_compare(old, new)
    assert list(frame.columns) == [
        ("0.23.1", "compaction asked at pause"),
        ("0.23.1", "at pause"),
        ("0.23.1", "next turn"),
        ("0.24.0", "compaction asked at pause"),
        ("0.24.0", "at pause"),
        ("0.24.0", "next turn"),
    ]
    assert list(frame[("0.23.1", "next turn")]) == ["rejected", "accepted"]


def test_views_upgrade_frame_leaves_out_the_items_sent() -> None:
    frame = upgrade_frame([upgrade("0.23.1", "poisoned"), upgrade("0.24.0", "poisoned")])
    assert "model_input" not in frame.columns
    assert list(frame.index) == [
        ("poisoned", "input mode", "0.23.1"),
        ("poisoned", "input mode", "0.24.0"),
    ]
    assert "judged_by" not in frame.columns  # one judge for every row: the title says it


def test_views_worker_frame_is_indexed_by_compaction() -> None:
    rows = [WorkerComparison("on", True, True, "poisoned", ("c1",), ("c1",))]
    assert list(worker_frame(rows).index) == ["on"]
