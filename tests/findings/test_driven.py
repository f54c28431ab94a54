"""The findings every driver shares: the liveness table's columns by package, cells by setting."""

from pathlib import Path

from approval_compaction.analysis.liveness import LivenessRecord
from approval_compaction.formats.records import write_records
from approval_compaction.lab.findings.driven import (
    MODE_NAMES,
    RAISED,
    WHERE,
    DriverFinding,
    liveness_frame,
    release_or_patched,
    stored,
)
from approval_compaction.lab.findings.liveness import GROWS_CELL, KEEPS, LIVENESS_CELLS, STUCK
from approval_compaction.lab.releases.driven import SweepRecord


def _row(version: str, mode: str, invariant: str, holds: bool) -> LivenessRecord:
    return LivenessRecord("abandoned", version, mode, False, invariant, holds, "", "")


def test_release_or_patched_names_a_patched_package_patched_and_a_release_by_itself() -> None:
    assert release_or_patched(_row("1.5.2", "keep-1", "compaction_runs", True)) == "1.5.2"
    assert release_or_patched(_row("1.5.2+fix.diff", "keep-1", "compaction_runs", True)) == (
        "patched"
    )


def test_liveness_frame_has_a_column_per_package_and_names_the_settings_that_stop() -> None:
    rows = [
        _row("2.13.0", "window-0", "compaction_runs", False),
        _row("2.13.0", "window-1", "compaction_runs", True),
        _row("2.13.0+fix.diff", "window-0", "compaction_runs", True),
        _row("2.13.0+fix.diff", "window-1", "compaction_runs", True),
    ]
    frame = liveness_frame(rows, ("window-0", "window-1"))
    assert list(frame.columns) == ["what happened", "2.13.0", "patched"]
    assert frame.loc["abandoned", "2.13.0"] == f"{LIVENESS_CELLS[STUCK]} in window-0"
    assert frame.loc["abandoned", "patched"] == LIVENESS_CELLS[KEEPS]


def test_liveness_frame_names_columns_by_the_package_function_it_is_given() -> None:
    rows = [_row("0.20.0+a.diff", "input", "history_bounded", False),
            _row("0.20.0+a.diff", "input", "compaction_runs", True)]  # fmt: skip
    frame = liveness_frame(rows, ("input",), lambda r: "with the pending fix")
    assert frame.loc["abandoned", "with the pending fix"] == f"{GROWS_CELL} in input"


def test_the_stage_words_cover_the_three_stages_a_record_can_raise_at() -> None:
    assert set(RAISED) == set(WHERE) == {"pause", "resume", "next_turn"}
    assert MODE_NAMES["auto-store-false"] == "auto, store=False"


def _swept(version: str, violating: int) -> SweepRecord:
    return SweepRecord(version, "p", "m", None, "t", "memory", 16, violating, "", "", "", "", "")


def test_stored_reads_the_records_or_none_when_the_study_has_not_run(tmp_path: Path) -> None:
    rows = [_row("1.0.0", "keep-1", "compaction_runs", True)]
    write_records(tmp_path / "live.json", rows, LivenessRecord)
    assert stored(tmp_path / "live.json", LivenessRecord) == tuple(rows)
    assert stored(tmp_path / "missing.json", LivenessRecord) == ()


def test_driver_finding_names_the_pinned_release_and_the_affected_ones_in_sweep_order() -> None:
    sweep = (_swept("1.0.0", 0), _swept("1.1.0", 2), _swept("1.1.0", 0), _swept("1.2.0", 1))
    found = DriverFinding(sweep, (_swept("1.2.0", 1),))
    assert found.version == "1.2.0" and found.releases == ["1.0.0", "1.1.0", "1.2.0"]
    assert found.affected() == ["1.1.0", "1.2.0"]
    assert DriverFinding((), ()).version == ""
