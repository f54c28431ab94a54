"""The liveness situations are steps of the one driver, and the later turns each a stage."""

from __future__ import annotations

from approval_compaction.openai_agents.driver import (
    Ask,
    Continue,
    Decide,
    Keep,
    LoseOutput,
    Recall,
    Resume,
)
from approval_compaction.openai_agents.situations import (
    BETWEEN,
    HOSTED_SITUATIONS,
    MCP_REQUEST,
    RESUMED_SITUATIONS,
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


def test_mcp_situations_pause_on_a_hosted_request() -> None:
    for name in HOSTED_SITUATIONS:
        assert situation_steps(name)[0].reply == (MCP_REQUEST,)  # type: ignore[union-attr]
        assert situation_setup(name, "auto").kinds == ("mcp_approval",)
    assert situation_setup("abandoned", "auto").kinds == ("function_approval",)


def test_a_late_resume_keeps_the_state_asks_between_then_approves_it() -> None:
    for name in RESUMED_SITUATIONS:
        kinds = [type(s) for s in situation_steps(name)]
        assert kinds == [Ask, Keep, *[Continue] * BETWEEN, Recall, Decide, Resume]
        between = situation_steps(name)[2 : 2 + BETWEEN]
        assert all(s.compact for s in between)  # type: ignore[union-attr]


def test_run_steps_returns_each_later_turn_with_its_stage() -> None:
    setup, steps = case_continued(Case(), "input", 2)
    transcript, continued, error, own = run_steps(setup, steps, 2)
    assert error == "" and len(continued) == 2
    assert all(t.stage is not None and t.stage.compaction_inputs for t in continued)
    assert transcript.turns[-2:] == continued
    assert own == [t for t in transcript.turns[:-2] if t.stage is not None] and own
