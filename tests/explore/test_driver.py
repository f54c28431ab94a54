"""Driver: a real conversation through the SDK, judged step by step by the invariants' rules."""

from __future__ import annotations

from approval_compaction.lab.explore.conversation import Conversation, Step, Trace, late_resumes
from approval_compaction.lab.explore.driver import judge_step
from approval_compaction.lab.explore.search import rerun
from approval_compaction.study.capture import Stage

CALL = {"type": "function_call", "call_id": "function_approval-0-0", "name": "t", "arguments": ""}
OUTPUT = {"type": "function_call_output", "call_id": "function_approval-0-0", "output": "x"}


def test_judge_step_names_an_orphan_output_in_the_stored_history() -> None:
    stage = Stage(name="resume", stored=[OUTPUT], model_inputs=[[CALL, OUTPUT]])
    verdicts = {j.invariant: j for j in judge_step(stage, "decide", approvals=0)}
    assert verdicts["stored_history_paired"].holds is False
    assert verdicts["stored_history_paired"].offenders == ("function_approval-0-0",)
    assert verdicts["resumed_input_paired"].holds is True
    assert "next_turn_input_paired" not in verdicts  # a decide plays the resume


def test_judge_step_counts_dispatches_against_approvals() -> None:
    stage = Stage(name="resume", stored=[], dispatches=1)
    verdicts = {j.invariant: j for j in judge_step(stage, "ask", approvals=0)}
    assert verdicts["decision_enforced"].holds is False
    assert "resumed_input_paired" not in verdicts  # an ask plays the next turn


def test_rejected_custom_tool_never_runs_and_its_output_is_orphaned_by_compaction() -> None:
    """A custom tool paused for approval is compacted away like a function tool on 0.23.1."""
    steps = (
        Step("ask", compact=True, calls=("custom_approval",)),
        Step("decide", decision="reject", boundary="json"),
        Step("ask"),
    )
    trace = rerun(Conversation("input", False, steps))
    assert [r.outcome for r in trace.records] == ["paused", "answered", "answered"]
    assert sum(r.stage.dispatches for r in trace.records) == 0
    broken = {(i, j.invariant) for i, j in trace.violations}
    assert (0, "compaction_input_complete") in broken
    assert (2, "next_turn_input_paired") in broken


def test_an_abandoned_or_lost_approval_stays_pinned_unless_the_workaround_retires_it() -> None:
    """An approval nobody decides (the user asks on) or whose state is lost: the later turns of
    a ``continue`` compact what follows the dead call (their user messages kept, as the API
    keeps them), so the history stays bounded while the call stays stored, and the doctor calls
    the store stuck; with the workaround the dead call is retired. Nothing breaks either way."""
    from approval_compaction.doctor.verdict import STUCK, judge

    pause = Step("ask", calls=("function_approval",))
    for steps in ((pause, Step("continue")), (pause, Step("lose"), Step("continue"))):
        last = len(steps) - 1
        for fix in (False, True):
            trace = rerun(Conversation("input", fix, steps))
            assert [r.outcome for r in trace.records][0] == "paused"
            assert trace.violations == []
            judged = {j.invariant for j in trace.records[last].judgements}
            assert {"compaction_runs", "history_bounded", "compaction_input_complete"} <= judged
            stage = trace.records[last].stage
            assert stage.compaction_inputs  # it compacted, every turn judged
            calls = [i for i in stage.stored if i.get("type") == "function_call"]
            assert (calls == []) is fix
            assert (judge("s", stage.stored).verdict == STUCK) is not fix


def test_study_steps_of_a_keep_and_of_a_decide_of_the_kept_state() -> None:
    """A keep saves the state's JSON and lets the run go; a decide of the kept state restores
    it before it crosses its boundary."""
    from approval_compaction.lab.explore.driver import study_steps
    from approval_compaction.openai_agents.driver import (
        Cross,
        Decide,
        Keep,
        LoseOutput,
        Recall,
        Resume,
    )

    keep = study_steps(1, Step("keep"))
    assert [type(s) for s in keep[:2]] == [Keep, LoseOutput] and keep[-1].stage is not None
    late = study_steps(3, Step("decide", decision="mixed", boundary="json", kept=True))
    assert [type(s) for s in late] == [Recall, Cross, Decide, Resume]
    assert [type(s) for s in study_steps(3, Step("decide"))] == [Cross, Decide, Resume]


LATE_RESUME = (
    Step("ask", compact=True, calls=("function_approval",)),
    Step("keep"),
    Step("continue"),
    Step("decide", kept=True),
    Step("ask"),
)
ORPHAN_INVARIANTS = {"stored_history_paired", "next_turn_input_paired"}


def broken_at(trace: Trace, index: int) -> set[str]:
    return {j.invariant for i, j in trace.violations if i == index}


def test_a_late_resume_on_the_pinned_release_stores_what_the_original_bug_stores() -> None:
    """A state kept while paused (the hook said compact at the pause), later turns, then the kept
    state decided and resumed: the late resume stores an orphan output exactly when resuming at
    once does (the original report's case, decided right after its pause), and every invariant
    is judged on every step, the liveness ones on the later turns."""
    pause, *_, ask = LATE_RESUME
    trace = rerun(Conversation("input", False, LATE_RESUME))
    assert [r.outcome for r in trace.records] == ["paused", "kept", *["answered"] * 3]
    assert trace.records[1].pending == () and trace.records[3].approvals == 1
    assert late_resumes(trace.records) == [3]
    at_once = rerun(Conversation("input", False, (pause, Step("decide"), ask)))
    assert ORPHAN_INVARIANTS & broken_at(trace, 3) == ORPHAN_INVARIANTS & broken_at(at_once, 1)
    assert broken_at(trace, 4) & ORPHAN_INVARIANTS == broken_at(at_once, 2) & ORPHAN_INVARIANTS
    assert broken_at(at_once, 1)  # the original bug is there to compare with
    judged = [{j.invariant for j in r.judgements} for r in trace.records]
    assert all("stored_history_paired" in names for names in judged)
    assert {"compaction_runs", "history_bounded"} <= judged[2]


def test_a_kept_hosted_mcp_request_is_recalled_and_answered() -> None:
    """A hosted MCP approval request kept aside, later turns, then approved late: the resume
    stores the response (the request stays pending until then)."""
    steps = (
        Step("ask", calls=("mcp_approval",)),
        Step("keep"),
        Step("ask"),
        Step("decide", kept=True),
    )
    trace = rerun(Conversation("input", False, steps))
    assert trace.records[0].pending == ("mcp_approval-0-0",)
    assert late_resumes(trace.records) == [3] and trace.records[3].pending == ()
    stored = trace.records[3].stage.stored
    responses = [i for i in stored if i.get("type") == "mcp_approval_response"]
    assert [r.get("approval_request_id") for r in responses] == ["mcp_approval-0-0"]
