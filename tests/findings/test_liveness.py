"""The eras of liveness: which releases keep a session compacting, per situation and mode."""

from __future__ import annotations

from approval_compaction.analysis.liveness import (
    LIVENESS_NAMES,
    LivenessRecord,
    LivenessRun,
    LiveTurn,
    Pin,
    liveness_records,
)
from approval_compaction.lab.findings.liveness import (
    KEEPS,
    NOT_JUDGED,
    REFUSED,
    STUCK,
    folded_grid,
    liveness_eras,
    liveness_grid,
    release_state,
)

PIN = Pin(1, "function_call", "pending-c1", "open call")


def healthy(version: str, situation: str, mode: str = "input") -> LivenessRun:
    turns = tuple(LiveTurn(length=n + 2, compacted=True, kept=1) for n in range(4))
    return LivenessRun(situation, version, mode, False, turns)


def growing(version: str, situation: str, mode: str = "input") -> LivenessRun:
    """Compaction runs, yet a call nobody answers keeps each summary behind it."""
    turns = tuple(
        LiveTurn(length=n + 3, compacted=True, kept=n + 2, unpaired=(PIN,)) for n in range(4)
    )
    return LivenessRun(situation, version, mode, False, turns)


def records(*runs: LivenessRun) -> list[LivenessRecord]:
    return liveness_records(runs)


def test_liveness_eras_report_a_release_whose_situation_is_stuck_as_stuck() -> None:
    """The stuck release is found from the judged turns: its history grows, pinned by the call."""
    rows = records(
        healthy("0.9.0", "abandoned"),
        healthy("0.10.0", "abandoned"),
        growing("0.11.0", "abandoned"),
        healthy("0.9.0", "clean"),
        healthy("0.10.0", "clean"),
        healthy("0.11.0", "clean"),
    )
    found = liveness_eras(rows)
    assert found.releases == ("0.9.0", "0.10.0", "0.11.0")  # release order, not text order
    assert found.stuck("abandoned", "input") == ("0.11.0",)
    assert found.keeps("abandoned", "input") == ("0.9.0", "0.10.0")
    assert found.keeps("clean", "input") == found.releases
    first, last = found.of("abandoned", "input")
    assert (first.state.verdict, first.first, first.last) == (KEEPS, "0.9.0", "0.10.0")
    assert last.state.verdict == STUCK and last.state.broken == ("history_bounded",)
    assert "pending-c1" in last.state.pin
    assert found.turns == 4


def test_liveness_eras_split_where_the_state_changes_and_join_where_it_returns() -> None:
    versions = ("0.8.0", "0.9.0", "0.10.0", "0.11.0")
    runs = [
        healthy(v, "lost") if v in ("0.8.0", "0.11.0") else growing(v, "lost") for v in versions
    ]
    eras = liveness_eras(records(*runs)).of("lost", "input")
    assert [(e.state.verdict, e.releases) for e in eras] == [
        (KEEPS, ("0.8.0",)),
        (STUCK, ("0.9.0", "0.10.0")),
        (KEEPS, ("0.11.0",)),
    ]


def test_liveness_release_state_of_a_failed_run_is_not_judged_with_the_reason() -> None:
    failed = LivenessRun("lost", "0.9.0", "auto", False, (), error="release lacks SQLiteSession")
    state = release_state(records(failed))
    assert (state.verdict, state.why) == (NOT_JUDGED, "release lacks SQLiteSession")
    assert release_state([]).verdict == NOT_JUDGED


def test_liveness_grid_has_a_word_per_release_situation_and_mode() -> None:
    rows = records(
        healthy("0.9.0", "lost"), growing("0.10.0", "lost"), growing("0.10.0", "lost", "auto")
    )
    grid = liveness_grid(liveness_eras(rows))
    assert list(grid.index) == ["0.9.0", "0.10.0"]
    assert grid.loc["0.10.0", ("lost", "input")] == "STUCK (history_bounded)"
    assert grid.loc["0.9.0", ("lost", "input")] == "keeps"
    assert grid.loc["0.9.0", ("lost", "auto")] == "n/a"  # no record: not judged
    assert len(LIVENESS_NAMES) == 2


def test_liveness_state_says_what_the_later_turns_sent_unpaired() -> None:
    """A poisoned store that keeps compacting still sends its orphan output: the state says so."""
    turns = tuple(LiveTurn(2, True, 1, sent_unpaired=("pending-c1",)) for _ in range(3))
    state = release_state(records(LivenessRun("poisoned", "0.9.0", "input", False, turns)))
    assert (state.verdict, state.sent) == (KEEPS, ("pending-c1",))


def late_resume(version: str, stored: tuple[Pin, ...]) -> LivenessRun:
    """A late resume whose resume stored ``stored`` unpaired (nothing: it found its call)."""
    resume = LiveTurn(6, False, 3, unpaired=stored)
    turns = tuple(LiveTurn(n + 3, True, 1, unpaired=stored) for n in range(3))
    return LivenessRun("resumed", version, "input", False, turns, own=(resume,), resumed=True)


def test_liveness_state_of_a_late_resume_says_whether_it_stayed_paired() -> None:
    orphan = Pin(5, "function_call_output", "pending-c1", "orphan output")
    rows = records(late_resume("0.9.0", ()), late_resume("0.10.0", (orphan,)))
    first, last = liveness_eras(rows).of("resumed", "input")
    assert first.state.resume_paired is True and first.state.resume_unpaired == ""
    assert last.state.resume_paired is False and orphan.text in last.state.resume_unpaired
    grid = liveness_grid(liveness_eras(rows))
    assert grid.loc["0.10.0", ("resumed", "input")] == "keeps, UNPAIRED"
    assert grid.loc["0.9.0", ("resumed", "input")] == "keeps"


def test_liveness_state_says_what_the_own_turns_sent_unpaired() -> None:
    pause = LiveTurn(2, True, 1, sent_unpaired=("pending-mcpr1",))
    turns = tuple(LiveTurn(2, True, 1) for _ in range(3))
    run = LivenessRun("mcp_abandoned", "0.9.0", "input", False, turns, own=(pause,))
    state = release_state(records(run))
    assert (state.verdict, state.sent, state.own_sent) == (KEEPS, (), ("pending-mcpr1",))
    assert state.resume_paired is None  # no late resume


def test_folded_grid_makes_one_row_of_consecutive_releases_that_read_the_same() -> None:
    versions = ("0.8.0", "0.9.0", "0.10.0", "0.11.0")
    runs = [healthy(v, "lost") if v != "0.10.0" else growing(v, "lost") for v in versions]
    runs += [healthy(v, "clean") for v in versions]
    grid = liveness_grid(liveness_eras(records(*runs)))
    folded = folded_grid(liveness_eras(records(*runs)))
    assert list(folded.index) == ["0.8.0..0.9.0", "0.10.0", "0.11.0"]
    assert folded.loc["0.10.0", ("lost", "input")] == grid.loc["0.10.0", ("lost", "input")]
    assert list(folded.columns) == list(grid.columns)


RAISED = "openai.BadRequestError, HTTP 400 at /v1/responses: No tool call found for ..."


def refused(version: str, situation: str, mode: str = "input") -> LivenessRun:
    """Every later turn raised: nothing compacts, the store grows by the user's question."""
    turns = tuple(
        LiveTurn(length=n + 5, compacted=False, kept=4, met="raised", raised=RAISED)
        for n in range(4)
    )
    return LivenessRun(situation, version, mode, False, turns, model="responses")


def test_liveness_state_of_a_session_whose_later_turns_raise_is_refused_with_the_text() -> None:
    """A refused session is not called stuck, nor said to keep compacting: the error the user
    met is its state, whatever the compaction verdicts say."""
    rows = records(healthy("0.9.0", "poisoned"), refused("0.10.0", "poisoned"))
    found = liveness_eras(rows)
    assert found.refused("poisoned", "input") == ("0.10.0",)
    assert found.keeps("poisoned", "input") == ("0.9.0",)
    assert found.stuck("poisoned", "input") == ()
    (_, last) = found.of("poisoned", "input")
    assert last.state.verdict == REFUSED and RAISED in last.state.raised
    assert last.state.broken == ("compaction_runs",)  # judged all the same, as before
    grid = liveness_grid(found)
    assert grid.loc["0.10.0", ("poisoned", "input")] == "REFUSED"
    assert grid.loc["0.9.0", ("poisoned", "input")] == "keeps"


def test_liveness_records_carry_whether_the_session_is_usable_and_the_model() -> None:
    (first, second) = records(refused("0.10.0", "poisoned"))
    assert first.session_usable is second.session_usable is False
    assert first.raised == f"turns 1, 2, 3, 4 raised {RAISED}" and first.model == "responses"
    (kept, _) = records(healthy("0.9.0", "clean"))
    assert (kept.session_usable, kept.raised, kept.model) == (True, "", "scripted")
