"""The ADK finding: its tables are the JS study's with ADK's words as data."""

from __future__ import annotations

from approval_compaction.analysis.liveness import LivenessRecord
from approval_compaction.lab.findings.adk import (
    MEETS,
    MISSING,
    adk_liveness_frame,
    adk_ranges_frame,
    load_adk,
)
from approval_compaction.lab.findings.liveness import GROWS_CELL
from approval_compaction.lab.findings.releases import RESUME_FAILS
from approval_compaction.lab.js.sweep import JsRecord


def _row(version: str, plan: str, violating: int = 0, raised: str = "", na: str = "") -> JsRecord:
    return JsRecord(version, plan, plan, None, "case", "memory and database", 16, violating,
                    "", raised, "", "", na)  # fmt: skip


def test_adk_ranges_frame_reads_adks_words_and_joins_equal_releases() -> None:
    rows = [
        _row(v, k, 8 if k.startswith("window") else 0, "resume" if k.startswith("w") else "",
             "" if k.startswith("window") else "no trigger")
        for v in ("1.16.0", "1.17.0") for k in ("window-0", "window-1", "tokens-0", "tokens-2")
    ]  # fmt: skip
    frame = adk_ranges_frame(rows)
    assert list(frame.index) == ["1.16.0..1.17.0"]
    assert frame.iloc[0]["window, overlap 0"] == f"{MEETS[RESUME_FAILS]} (8 of 16 cases)"
    assert frame.iloc[0]["tokens, retention 2"] == MISSING


def test_adk_liveness_frame_says_the_history_grows_when_compaction_still_runs() -> None:
    def rec(invariant: str, holds: bool) -> LivenessRecord:
        return LivenessRecord("clean", "2.13.0", "window-0", False, invariant, holds, "", "")

    frame = adk_liveness_frame([rec("compaction_runs", True), rec("history_bounded", False)])
    assert frame.loc["clean", "2.13.0"].startswith(GROWS_CELL)


def test_adk_finding_loads_the_committed_files() -> None:
    found = load_adk()
    assert found is not None and found.version and len(found.pinned) == 4
