"""Keeping: the situations where the workaround changes the fixing release's later turns."""

from __future__ import annotations

from approval_compaction.analysis.liveness import LivenessRun, LiveTurn, Pin
from approval_compaction.lab.findings.keeping import (
    AS_RELEASED,
    WRAPPED,
    keeping_frame,
    keeping_turns,
)
from approval_compaction.lab.findings.liveness import SITUATION_WORDS


def _run(scenario: str, workaround: bool, compacted: bool, open_call: bool) -> LivenessRun:
    pins = (Pin(1, "function_call", "c1", "open call"),) if open_call else ()
    turns = tuple(LiveTurn(length=3, compacted=compacted, unpaired=pins) for _ in range(2))
    return LivenessRun(scenario, "9.9.9", "input", workaround, turns)


def test_keeping_frame_keeps_only_what_the_workaround_changes() -> None:
    runs = [
        _run("abandoned", False, compacted=False, open_call=True),
        _run("abandoned", True, compacted=True, open_call=False),
        _run("clean", False, compacted=True, open_call=False),
        _run("clean", True, compacted=True, open_call=False),
    ]
    frame = keeping_frame(runs, "9.9.9")
    assert len(frame) == 1 and frame.index[0][1] == "input"
    row = frame.iloc[0]
    assert row[f"compacted, {AS_RELEASED}"] == "0 of 2 turns"
    assert row[f"compacted, {WRAPPED}"] == "2 of 2 turns"
    assert row[f"left unpaired, {AS_RELEASED}"] == "open call c1"
    assert row[f"left unpaired, {WRAPPED}"] == "nothing"


def test_keeping_frame_ignores_other_releases() -> None:
    runs = [_run("abandoned", False, False, True), _run("abandoned", True, True, False)]
    assert keeping_frame(runs, "1.0.0").empty


def test_keeping_turns_shows_the_compacted_turns_both_ways_in_plain_words() -> None:
    """r24: the README's name in brackets brought 06 a term whose other names it never uses."""
    runs = [_run("abandoned", False, False, True), _run("abandoned", True, True, False)]
    table = keeping_turns(runs, "9.9.9")
    assert table.columns.tolist() == ["input"]
    (label,) = table.index
    assert label == SITUATION_WORDS["abandoned"] and "(" not in label
    assert table.loc[label, "input"] == "0 of 2 → 2 of 2"


def test_keeping_turns_orders_the_situations_as_the_readme_does() -> None:
    """r22: the rows came in unstack's alphabetical order (lost, mcp_abandoned, abandoned)."""
    runs = [
        _run(name, wrapped, compacted=wrapped, open_call=not wrapped)
        for name in ("mcp_abandoned", "lost", "abandoned")
        for wrapped in (False, True)
    ]
    table = keeping_turns(runs, "9.9.9")
    names = [{w: n for n, w in SITUATION_WORDS.items()}[label] for label in table.index]
    assert names == ["abandoned", "lost", "mcp_abandoned"]
