"""LangChain's findings: the shared verdicts with its words, and the boundaries between
releases."""

from __future__ import annotations

from approval_compaction.lab.findings.releases import NEXT_TURN_FAILS
from approval_compaction.lab.findings.verdict import ModeCases
from approval_compaction.lab.releases.driven import SweepRecord
from approval_compaction.langchain.changes import Change
from approval_compaction.langchain.finding import boundaries, result, setting_word


def _row(version: str, plan: str, violating: int = 0, raised: str = "") -> SweepRecord:
    broken = "next_turn_accepted" if violating else ""
    return SweepRecord(version, plan, plan, None, "every model call", "memory and SQLite", 16,
                    violating, broken, raised, "", "", "")  # fmt: skip


def test_finding_a_setting_reads_in_langchains_words() -> None:
    said = setting_word(ModeCases("keep-2 chat", NEXT_TURN_FAILS, 8, 16))
    assert said == "agent.invoke raises on the next question (8 of 16 cases)"
    assert result(_row("1.0.0", "keep-1 chat", 8, "next_turn")) == (
        "8 of 16 break next_turn_accepted, raised at next_turn"
    )


def test_finding_boundaries_are_consecutive_releases_that_read_differently() -> None:
    rows = [
        _row("1.0.0", "keep-1 chat", 8, "next_turn"),
        _row("1.0.1", "keep-1 chat", 8, "next_turn"),
        _row("1.0.2", "keep-1 chat"),
    ]
    changes = (Change("1.0.2", "the cut moved", "somewhere"),)
    (found,) = boundaries(rows, changes=changes)
    assert (found.release, found.previous, found.setting) == ("1.0.2", "1.0.1", "keep-1 chat")
    assert (found.after, found.what) == ("no case breaks an invariant", "the cut moved")


def test_finding_control_bugs_names_what_no_step_leaves_on_the_pinned_release() -> None:
    """Issue 61 (r4): 14's verdict row listed refusals under keep-2 and trim but none under the
    ``none`` control, whose later questions the API refuses in every situation."""
    from approval_compaction.langchain.finding import control_bugs, load

    found = load()
    assert found is not None
    said = control_bugs(found)
    refused = {r.scenario for r in found.liveness if r.mode.startswith("none") and r.raised}
    assert refused and all(situation in said for situation in refused)
    assert "refused (none chat, none responses)" in said
    assert "stops compacting" not in said  # with no step nothing compacts, the control too


def test_finding_with_control_puts_the_control_beside_the_steps_on_the_pinned_run() -> None:
    """The verdict row of notebook 14 and the README: the steps' column and the control's."""
    from approval_compaction.langchain.finding import (
        control_bugs,
        load,
        verdict_frame,
        with_control,
    )

    found = load()
    assert found is not None
    frame = with_control(verdict_frame(found.verdicts, contract=False), found)
    control = f"liveness bugs, no step (none, run on {found.version} only)"
    assert "liveness bugs" not in frame.columns
    last = frame.index[-1]
    assert last.rpartition("..")[2] == found.version
    assert frame.loc[last, control] == f"on {found.version}: {control_bugs(found)}"
    steps = frame.loc[last, "liveness bugs, with a compaction step"]
    assert "all modes" not in steps and "(every setting)" not in steps  # r18: `none` not in it


def test_finding_late_call_frame_splits_the_wait_from_the_later_questions() -> None:
    """Issue 61 (r11): 14 read *resumed* `usable` beside "sent to the model" without saying the
    call was sent while the decision waited, before the ten later questions `usable` counts."""
    from approval_compaction.langchain.finding import _went, late_call_frame, load

    assert _went("") == "nowhere"
    assert _went("open call c to the model; open call c to compaction", True) == (
        "stored open, sent to the model, sent to the summariser"
    )
    # r17: the trim step calls no summariser; what it is given is what it cuts
    assert _went("open call c to compaction", setting="trim chat") == "cut by the trim step"
    found = load()
    assert found is not None
    frame = late_call_frame(found)
    before, after, patched = frame.columns
    usable = {r.mode: r.session_usable for r in found.liveness if r.scenario == "resumed"}
    for setting, row in frame.iterrows():
        # a later question refused is one the call went to the model in, and none else
        assert ("to the model" in row[after]) == (usable[setting] is False)
        assert row[patched] == "nowhere"
    assert frame[before].str.contains("sent to the model").any()
