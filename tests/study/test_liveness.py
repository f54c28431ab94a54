"""The liveness situations are steps of the one driver, and the later turns each a stage."""

from __future__ import annotations

from approval_compaction.study.driver import Ask, Continue, LoseOutput
from approval_compaction.study.liveness import (
    SITUATIONS,
    case_continued,
    later,
    run_steps,
    situation_setup,
    situation_steps,
)
from approval_compaction.study.scenario import Case


def test_situations_are_steps_and_later_turns_always_compact() -> None:
    assert [type(s) for s in situation_steps("lost")] == [Ask, LoseOutput]
    assert situation_steps("poisoned") == [] and situation_steps("clean") == []
    assert later(2) == [Continue(1, compact=True), Continue(1, compact=True)]
    assert situation_setup("poisoned", "input", [{"role": "user", "content": "x"}]).history
    assert situation_setup("abandoned", "input", [{"role": "user", "content": "x"}]).history == ()
    assert set(SITUATIONS) == {"poisoned", "abandoned", "lost", "clean"}


def test_run_steps_returns_each_later_turn_with_its_stage() -> None:
    setup, steps = case_continued(Case(), "input", 2)
    transcript, continued, error = run_steps(setup, steps, 2)
    assert error == "" and len(continued) == 2
    assert all(t.stage is not None and t.stage.compaction_inputs for t in continued)
    assert transcript.turns[-2:] == continued
