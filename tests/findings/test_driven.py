"""The findings every driver shares: the liveness table's columns by package, cells by setting."""

from pathlib import Path

from approval_compaction.analysis.liveness import LivenessRecord
from approval_compaction.formats.records import write_records
from approval_compaction.lab.findings.driven import (
    MODE_NAMES,
    RAISED,
    WHERE,
    Change,
    DriverFinding,
    changes_frame,
    liveness_frame,
    moved,
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


def test_moved_names_each_setting_that_reads_differently_from_the_release_before() -> None:
    results = {
        "1.0": {"a": "fine", "b": "fine"},
        "1.1": {"a": "broken", "b": "fine"},
        "1.2": {"a": "broken", "b": "broken"},
        "1.3": {"b": "fine"},  # ``a`` not run: no boundary
    }
    found = moved(results, ["a", "b"], [Change("1.1", "the cut moved", "https://x/1")])
    assert [(m.release, m.setting, m.before, m.after) for m in found] == [
        ("1.1", "a", "fine", "broken"),
        ("1.2", "b", "fine", "broken"),
        ("1.3", "b", "broken", "fine"),
    ]
    assert found[0].change.said == ("the cut moved", "https://x/1")
    assert found[1].change.said == ("", "")  # no change named for 1.2
    frame = changes_frame(found, "kinds", "sdk")
    assert frame.index.name == "sdk" and list(frame.index) == ["1.1", "1.2", "1.3"]
    assert frame.loc["1.1", "kinds"] == "a" and frame.loc["1.1", "what changed"] == "the cut moved"
