"""The invariants, judged on small hand-built runs: holds, violated, and not judged.

Each run here is a handful of items typed out by hand, so a verdict can be traced to the one
item that decides it; the end-to-end runs on the pinned SDK are in ``test_matrix.py``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from approval_compaction.analysis.invariants import (
    DEFINITIONS,
    INVARIANTS,
    LIVENESS,
    LIVENESS_NAMES,
    SAFETY,
    JudgedRun,
    Offender,
    UnknownInvariantError,
    Verdict,
    evaluate,
    invariant,
    judge,
    judge_all,
    offenders_detail,
)
from approval_compaction.errors import InvestigationError
from approval_compaction.study.capture import STAGES, CaseRun, Later, Outcome, Stage, StageName
from approval_compaction.study.scenario import Case

Item = dict[str, Any]


def call(call_id: str) -> Item:
    return {"type": "function_call", "call_id": call_id, "name": "tool", "arguments": "{}"}


def output(call_id: str) -> Item:
    return {"type": "function_call_output", "call_id": call_id, "output": "done"}


def user(text: str) -> Item:
    return {"role": "user", "content": text}


def answer(text: str) -> Item:
    return {"type": "message", "role": "assistant", "content": [{"text": text}]}


SUMMARY: Item = {"type": "compaction", "id": "compaction-1", "encrypted_content": "s"}
Q1, Q2 = user("first question"), user("next question")
PAUSED = [Q1, call("c1")]
RESUMED = [*PAUSED, output("c1"), answer("finished")]
NEXT = [*RESUMED, Q2, answer("next answer")]


def clean_stages() -> dict[StageName, Stage]:
    """Every stage of a run that keeps every invariant: each output follows its call."""
    return {
        "pause": Stage("pause", stored=PAUSED, model_inputs=[[Q1]]),
        "round_trip": Stage("round_trip", stored=PAUSED),
        "resume": Stage("resume", stored=RESUMED, model_inputs=[[*PAUSED, output("c1")]]),
        "next_turn": Stage(
            "next_turn", stored=NEXT, model_inputs=[NEXT[:-1]], compaction_inputs=[RESUMED]
        ),
    }


def make_run(
    *,
    reached: tuple[StageName, ...] = STAGES,
    approvals: int = 1,
    dispatches: int = 1,
    error: str | None = None,
    not_applicable: str | None = None,
    model: str = "scripted",
    **changes: dict[str, Any],
) -> CaseRun:
    """A run that reached ``reached``; ``changes`` replaces fields of a stage, by stage name."""
    stages = clean_stages()
    for name, fields in changes.items():
        stages[name] = replace(stages[name], **fields)  # type: ignore[index]
    kept = [stages[name] for name in reached]
    return CaseRun(Case(), "0.0.0", kept, approvals, dispatches, error, not_applicable, model)


def verdict(run: CaseRun, invariant: str) -> Verdict:
    return next(v for v in evaluate(run) if v.invariant == invariant)


# --- holds ---------------------------------------------------------------------------------


def test_invariants_evaluate_gives_one_verdict_per_safety_invariant_in_order() -> None:
    assert [v.invariant for v in evaluate(make_run())] == list(SAFETY)


def later_turn(stored: list[Item], compacted: bool = True) -> Later:
    """A later turn that stored ``stored`` (and compacted what it held, when asked)."""
    return Later(
        Stage("next_turn", stored=stored, compaction_inputs=[stored] if compacted else []),
        "answered",
    )


def continued(*turns: Later, error: str = "") -> CaseRun:
    return replace(make_run(), continued=len(turns), later=list(turns), later_error=error)


def test_invariants_a_continued_case_is_judged_on_every_invariant_in_order() -> None:
    """The matrix's twelve records: the ten safety invariants, then the two liveness ones."""
    run = continued(*[later_turn([user(f"q{n}"), SUMMARY]) for n in range(3)])
    verdicts = evaluate(run)
    assert [v.invariant for v in verdicts] == list(INVARIANTS) == [*SAFETY, *LIVENESS_NAMES]
    assert all(v.holds is True for v in verdicts), verdicts


def test_invariants_a_continued_case_whose_history_grows_breaks_history_bounded() -> None:
    """A call that stays open keeps each summary behind it: the history grows by one a turn, and
    the detail names the lengths and the call that pins it."""
    pinned = [Q1, call("c1")]
    turns = [later_turn([*pinned, *[SUMMARY] * n]) for n in range(1, 4)]
    by_name = {v.invariant: v for v in evaluate(continued(*turns))}
    assert by_name["compaction_runs"].holds is True
    bounded = by_name["history_bounded"]
    assert bounded.holds is False
    assert "turns 2, 3" in bounded.detail and "c1" in bounded.detail, bounded.detail


def test_invariants_a_continued_case_that_never_compacts_breaks_compaction_runs() -> None:
    turns = [later_turn([output("gone"), *[answer("a")] * n], compacted=False) for n in (1, 2)]
    by_name = {v.invariant: v for v in evaluate(continued(*turns))}
    assert by_name["compaction_runs"].holds is False
    assert by_name["history_bounded"].holds is False
    assert judge(continued(*turns)).violations[-1].invariant == "history_bounded"


def test_invariants_later_turns_cut_short_are_not_judged_and_say_why() -> None:
    run = continued(error="RuntimeError: the worker died")
    by_name = {v.invariant: v for v in evaluate(replace(run, continued=10))}
    for name in LIVENESS_NAMES:
        assert by_name[name] == Verdict(name, None, "RuntimeError: the worker died")


@pytest.mark.parametrize("invariant", SAFETY, ids=SAFETY)
def test_invariants_clean_run_holds_with_no_detail(invariant: str) -> None:
    assert verdict(make_run(), invariant) == Verdict(invariant, True, "")


def test_invariants_open_call_stored_at_the_pause_is_not_a_violation() -> None:
    """The pending call has no output yet: stored while it waits for the decision, it breaks
    nothing (``stored_history_paired`` forbids outputs without a call only)."""
    run = make_run(pause={"stored": PAUSED, "compaction_inputs": [], "model_inputs": [[Q1]]})
    assert judge(run).violations == []


def test_invariants_open_call_sent_to_the_model_is_a_violation_named_by_its_direction() -> None:
    """Sent, the same call is a call without its output: the Responses API answers such a
    request with HTTP 400 (``No tool output found for function call c1.``), and the records
    name which way it is unpaired (``model_input_complete``), not only that the pause's request
    was refused."""
    sent = make_run(pause={"stored": PAUSED, "model_inputs": [PAUSED]})
    broken = {v.invariant: v for v in judge(sent).violations}
    assert sorted(broken) == ["model_input_complete", "pause_accepted"]
    assert broken["model_input_complete"].detail == "pause: c1"
    assert "No tool output found for function call c1." in broken["pause_accepted"].detail


@pytest.mark.parametrize("stage", ["pause", "resume", "next_turn"])
def test_invariants_model_input_complete_reads_every_stage_that_sends(stage: StageName) -> None:
    """google-adk 2.5.0-2.9.2 and 1.x send a call whose output never comes in later turns; no
    stage's model request may hold a call without its output, whichever stage sends it."""
    run = make_run(**{stage: {"model_inputs": [[Q1, call("lost"), Q2]]}})
    found = verdict(run, "model_input_complete")
    assert (found.holds, found.detail) == (False, f"{stage}: lost")


# --- violated ------------------------------------------------------------------------------

VIOLATIONS: dict[str, tuple[dict[str, Any], str]] = {
    # The seed bug: the next turn sends the pending call's output without its call.
    "next_turn_input_paired": (
        {"next_turn": {"model_inputs": [[SUMMARY, output("pending-c1"), Q2]]}},
        "next_turn: pending-c1",
    ),
    "resumed_input_paired": (
        {"resume": {"model_inputs": [[SUMMARY, output("c1")]]}},
        "resume: c1",
    ),
    # A store an affected release wrote: the first question is sent after an orphan output.
    "pause_input_paired": (
        {"pause": {"model_inputs": [[SUMMARY, output("old"), Q1]]}},
        "pause: old",
    ),
    # The call is sent without its output (a worker died before its tool ran).
    "model_input_complete": (
        {"resume": {"model_inputs": [[Q1, call("c1"), answer("finished")]]}},
        "resume: c1",
    ),
    # The compaction request carries the pending call without its output.
    "compaction_input_complete": (
        {"pause": {"compaction_inputs": [PAUSED]}},
        "pause: c1",
    ),
    "compaction_input_paired": (
        {"resume": {"compaction_inputs": [[SUMMARY, output("c1")]]}},
        "resume: c1",
    ),
    # Compaction replaced the stored call; the resumed turn stored its output alone.
    "stored_history_paired": (
        {"resume": {"stored": [SUMMARY, output("c1"), answer("finished")]}},
        "resume: c1",
    ),
    "decision_enforced": ({"approvals": 0, "dispatches": 1}, "1 dispatches, 0 approvals"),
    # openai/openai-agents-python#2317: the compaction endpoint refused a previous_response_id
    # whose response holds the pending call without its output, and Runner.run raised at the
    # pause: no state came back, so nothing can be approved or rejected.
    "pause_accepted": (
        {
            "pause": {
                "outcome": Outcome.from_text(
                    "openai.BadRequestError: Error code: 400 - No tool output found",
                    400,
                    "/v1/responses/compact",
                    "No tool output found for function call c1.",
                )
            },
        },
        "HTTP 400 from /v1/responses/compact: openai.BadRequestError: Error code: 400 - "
        "No tool output found",
    ),
    # Over HTTP, the next turn ended with the error the user saw.
    "next_turn_accepted": (
        {
            "model": "responses",
            "next_turn": {"outcome": Outcome.from_text("openai.BadRequestError: 400", 400)},
        },
        "HTTP 400: openai.BadRequestError: 400",
    ),
}


@pytest.mark.parametrize("invariant", SAFETY, ids=SAFETY)
def test_invariants_violation_names_the_stage_and_call_id(invariant: str) -> None:
    """Every invariant has a hand-built run that violates it: a new one without fails here."""
    assert invariant in VIOLATIONS, (
        f"no hand-built violation for {invariant}: add one to VIOLATIONS"
    )
    changes, detail = VIOLATIONS[invariant]
    found = verdict(make_run(**changes), invariant)
    assert (found.invariant, found.holds, found.detail) == (invariant, False, detail)
    if found.offenders:  # a pairing invariant: its detail is its offenders in words
        assert offenders_detail(found.offenders) == detail


def test_invariants_hand_built_violations_are_exactly_the_invariants() -> None:
    assert sorted(VIOLATIONS) == sorted(SAFETY)


# On the scripted model, next_turn_accepted is predicted from the same next-turn input.
COUPLED: dict[str, set[str]] = {
    "next_turn_input_paired": {"next_turn_accepted"},
    "pause_input_paired": {"pause_accepted"},
}


@pytest.mark.parametrize(("invariant", "damage"), VIOLATIONS.items(), ids=list(VIOLATIONS))
def test_invariants_violation_of_one_leaves_the_others_holding(
    invariant: str, damage: tuple[dict[str, Any], str]
) -> None:
    judged = judge(make_run(**damage[0]))
    assert invariant in [v.invariant for v in judged.violations]
    coupled = COUPLED.get(invariant, set())
    others = [v for v in judged.verdicts if v.invariant != invariant and v.invariant not in coupled]
    assert all(v.holds is True for v in others), others


def test_invariants_detail_lists_each_stage_in_order_with_ids_sorted_once() -> None:
    run = make_run(
        pause={"compaction_inputs": [[call("c9"), call("c2")], [call("c2")]]},
        resume={"compaction_inputs": [[Q1, call("c1")]]},
    )
    assert verdict(run, "compaction_input_complete").detail == ("pause: c2; pause: c9; resume: c1")


def test_invariants_each_rule_reads_only_its_own_stages() -> None:
    """An orphan in the stored history after the next turn is not the resume's stored history,
    and an orphan in the resume's model input is not the next turn's."""
    run = make_run(
        resume={"model_inputs": [[output("r1")]]},
        next_turn={"stored": [SUMMARY, output("n1")]},
    )
    assert verdict(run, "stored_history_paired").holds is True
    assert verdict(run, "next_turn_input_paired").holds is True
    assert verdict(run, "resumed_input_paired") == Verdict(
        "resumed_input_paired", False, "resume: r1", (Offender("resume", "r1"),)
    )


@pytest.mark.parametrize(
    ("approvals", "dispatches", "holds", "detail"),
    [
        (1, 1, True, ""),
        (0, 0, True, ""),
        (0, 1, False, "1 dispatches, 0 approvals"),
        (1, 0, False, "0 dispatches, 1 approvals"),
        (1, 2, False, "2 dispatches, 1 approvals"),
    ],
    ids=["approved-ran", "rejected-did-not-run", "rejected-ran", "approved-not-run", "ran-twice"],
)
def test_invariants_decision_enforced_compares_dispatches_with_approvals(
    approvals: int, dispatches: int, holds: bool, detail: str
) -> None:
    run = make_run(approvals=approvals, dispatches=dispatches)
    assert verdict(run, "decision_enforced") == Verdict("decision_enforced", holds, detail)


def test_invariants_decision_enforced_reads_the_run_not_the_stage_counts() -> None:
    run = make_run(approvals=0, dispatches=0, resume={"dispatches": 3})
    assert verdict(run, "decision_enforced").holds is True


# --- not judged ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reached", "unjudged"),
    [
        (
            ("pause", "round_trip", "resume"),
            {
                "next_turn_input_paired": "next_turn",
                "model_input_complete": "next_turn",
                "compaction_input_complete": "next_turn",
                "compaction_input_paired": "next_turn",
                "next_turn_accepted": "next_turn",
            },
        ),
        (
            ("pause", "round_trip"),
            {
                "next_turn_input_paired": "next_turn",
                "resumed_input_paired": "resume",
                "model_input_complete": "resume",
                "compaction_input_complete": "resume",
                "compaction_input_paired": "resume",
                "stored_history_paired": "resume",
                "next_turn_accepted": "next_turn",
            },
        ),
    ],
    ids=["stopped-before-next-turn", "stopped-before-resume"],
)
def test_invariants_stage_not_reached_is_not_judged(
    reached: tuple[StageName, ...], unjudged: dict[str, str]
) -> None:
    """Without an error, the detail names the first stage the rule needed and did not get."""
    by_name = {v.invariant: v for v in evaluate(make_run(reached=reached))}
    for name, missing in unjudged.items():
        assert by_name[name] == Verdict(name, None, f"stage {missing} was not reached")
    judged = {n for n in VIOLATIONS if n not in unjudged}
    assert all(by_name[n].holds is True for n in judged), by_name
    assert "decision_enforced" in judged  # no error: the counts are judged


def test_invariants_errored_run_detail_is_the_error() -> None:
    """A pairing rule that reads only the stages that were reached judges what they sent (the
    pause's model request); every other verdict is not judged and its detail is the error."""
    run = make_run(reached=("pause",), error="RuntimeError: boom", dispatches=0)
    verdicts = evaluate(run)
    reached = {"pause_input_paired"}
    assert [v.holds for v in verdicts if v.invariant not in reached] == [None] * (len(SAFETY) - 1)
    assert {v.detail for v in verdicts if v.invariant not in reached} == {"RuntimeError: boom"}
    assert verdict(run, "pause_input_paired") == Verdict("pause_input_paired", True, "")
    liveness = evaluate(replace(run, continued=10))[len(SAFETY) :]
    assert [(v.invariant, v.holds, v.detail) for v in liveness] == [
        (name, None, "RuntimeError: boom") for name in LIVENESS_NAMES
    ]
    assert judge(run).violations == []


def test_invariants_a_refused_pause_leaves_the_resume_unjudged_and_the_rest_judged() -> None:
    """After the pause raised there is no state to resume: the resume's invariants are not
    judged, and say why; every other stage that ran still is."""
    refused = VIOLATIONS["pause_accepted"][0]
    run = make_run(reached=("pause", "next_turn"), approvals=0, dispatches=0, **refused)
    by_name = {v.invariant: v for v in evaluate(run)}
    why = "stage resume never ran: the pause raised openai.BadRequestError"
    assert by_name["resumed_input_paired"] == Verdict("resumed_input_paired", None, why)
    assert by_name["stored_history_paired"] == Verdict("stored_history_paired", None, why)
    assert by_name["pause_accepted"].holds is False
    judged = (
        "compaction_input_complete",
        "model_input_complete",
        "next_turn_input_paired",
        "next_turn_accepted",
    )
    assert all(by_name[name].holds is True for name in judged)


def test_invariants_error_after_the_resume_still_judges_what_was_reached() -> None:
    run = make_run(
        reached=("pause", "round_trip", "resume"),
        error="OSError: disk full",
        approvals=0,
        dispatches=1,
        resume={"stored": [SUMMARY, output("c1")]},
    )
    by_name = {v.invariant: v for v in evaluate(run)}
    assert by_name["next_turn_input_paired"] == Verdict(
        "next_turn_input_paired", None, "OSError: disk full"
    )
    assert by_name["stored_history_paired"].holds is False
    assert by_name["decision_enforced"] == Verdict(
        "decision_enforced", False, "1 dispatches, 0 approvals"
    )


def test_invariants_not_applicable_run_is_not_judged_even_when_it_looks_violated() -> None:
    reason = "release lacks OpenAIResponsesCompactionSession"
    changes, _ = VIOLATIONS["stored_history_paired"]
    run = make_run(not_applicable=reason, approvals=0, dispatches=1, **changes)
    assert evaluate(run) == [Verdict(name, None, reason) for name in SAFETY]
    assert judge(run).violations == []
    continued_run = replace(run, continued=10)
    assert evaluate(continued_run) == [Verdict(name, None, reason) for name in INVARIANTS]


# --- judging once --------------------------------------------------------------------------


def test_invariants_judge_keeps_the_run_and_its_verdicts() -> None:
    run = make_run(**VIOLATIONS["next_turn_input_paired"][0])
    judged = judge(run)
    assert judged == JudgedRun(run, tuple(evaluate(run)))
    assert judge(judged) is judged


def test_invariants_violations_are_only_false_verdicts_in_invariants_order() -> None:
    changes = {**VIOLATIONS["stored_history_paired"][0], **VIOLATIONS["next_turn_input_paired"][0]}
    run = make_run(reached=STAGES, approvals=0, dispatches=1, **changes)
    names = [v.invariant for v in judge(run).violations]
    assert names == [i for i in INVARIANTS if i in names]
    assert {"next_turn_input_paired", "stored_history_paired", "decision_enforced"} <= set(names)
    assert "resumed_input_paired" not in names
    partial = make_run(reached=("pause", "round_trip", "resume"), **changes)
    assert "next_turn_input_paired" not in [v.invariant for v in judge(partial).violations]


def test_invariants_judge_all_judges_each_run_once_in_order() -> None:
    first, second = make_run(), make_run(approvals=0)
    already = judge(second)
    judged = judge_all([first, already])
    assert [j.run for j in judged] == [first, second]
    assert judged[1] is already
    assert judged[0].verdicts == tuple(evaluate(first))


# --- next_turn_accepted over HTTP ------------------------------------------------------------

SEEN = "openai.BadRequestError: Error code: 400 - No tool call found for function call output"


def test_invariants_accepted_over_http_is_observed_not_predicted() -> None:
    """Over HTTP the stage's outcome decides, even where the rules would predict otherwise."""
    damage = VIOLATIONS["next_turn_input_paired"][0]
    answered = replace(make_run(**damage), model="responses")
    assert verdict(answered, "next_turn_accepted") == Verdict("next_turn_accepted", True, "")
    refused = replace(
        make_run(next_turn={"outcome": Outcome.from_text(SEEN, 400)}), model="responses"
    )
    assert verdict(refused, "next_turn_accepted") == Verdict(
        "next_turn_accepted", False, f"HTTP 400: {SEEN}"
    )


def test_invariants_accepted_not_judged_when_its_stage_never_ran_after_a_refusal() -> None:
    refused = {"outcome": Outcome.from_text(SEEN, 400)}
    stopped = make_run(reached=("pause", "round_trip", "resume"), resume=refused)
    run = replace(stopped, model="responses")
    assert verdict(run, "next_turn_accepted") == Verdict(
        "next_turn_accepted",
        None,
        "stage next_turn never ran: the resume raised openai.BadRequestError",
    )


# --- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", INVARIANTS, ids=INVARIANTS)
def test_invariants_by_name_is_its_one_definition(name: str) -> None:
    found = invariant(name)
    assert found.name == name and found in (*DEFINITIONS, *LIVENESS)
    assert found.meaning and found.stages and found.field


def test_invariants_are_defined_once_in_order_with_their_rules() -> None:
    """One definition per name, in the verdicts' order; a rule with a check reads item lists."""
    assert [i.name for i in (*DEFINITIONS, *LIVENESS)] == list(INVARIANTS)
    assert len(set(INVARIANTS)) == len(INVARIANTS)
    lists = {"stored", "model_inputs", "compaction_inputs"}
    assert all((i.check is not None) == (i.field in lists) for i in DEFINITIONS)
    assert {i.name for i in DEFINITIONS if i.check is None} == {
        "decision_enforced",
        "pause_accepted",
        "next_turn_accepted",
    }


@pytest.mark.parametrize("name", ["next_turn", "", "Decision_Enforced"], ids=repr)
def test_invariants_unknown_name_is_a_one_line_error_listing_the_names(name: str) -> None:
    with pytest.raises(UnknownInvariantError) as info:
        invariant(name)
    message = str(info.value)
    assert message.startswith(f"unknown invariant {name!r}: expected one of ")
    assert all(i in message for i in INVARIANTS) and "\n" not in message
    assert isinstance(info.value, InvestigationError) and isinstance(info.value, ValueError)


# --- next_turn_accepted: observed over HTTP, predicted by the stand-in's rules --------------


def test_invariants_next_turn_accepted_is_predicted_on_the_scripted_model() -> None:
    """An orphan output in the next turn's input is what the real API answers with a 400."""
    run = make_run(next_turn={"model_inputs": [[SUMMARY, output("pending-c1"), Q2]]})
    assert verdict(run, "next_turn_accepted") == Verdict(
        "next_turn_accepted",
        False,
        "predicted by the stand-in's rules: HTTP 400: "
        "No tool call found for function call output with call_id pending-c1.",
    )


def test_invariants_next_turn_accepted_over_http_reads_what_the_user_saw() -> None:
    seen = "openai.BadRequestError: Error code: 400 - No tool call found ..."
    failed = make_run(next_turn={"outcome": Outcome.from_text(seen, 400)})
    assert verdict(replace(failed, model="responses"), "next_turn_accepted") == Verdict(
        "next_turn_accepted", False, f"HTTP 400: {seen}"
    )
    assert verdict(replace(make_run(), model="responses"), "next_turn_accepted").holds is True


def test_invariants_next_turn_accepted_over_http_ignores_the_rules() -> None:
    """Over HTTP the verdict is what happened, not what the rules predict from the input."""
    run = make_run(next_turn={"model_inputs": [[output("x")]]})
    assert verdict(replace(run, model="responses"), "next_turn_accepted").holds is True


def test_invariants_next_turn_judged_when_it_ran_after_an_earlier_refusal() -> None:
    """A user goes on after a refused request: the next turn that ran is judged as it went."""
    run = make_run(resume={"outcome": Outcome.from_text("openai.BadRequestError: boom", 400)})
    assert verdict(replace(run, model="responses"), "next_turn_accepted").holds is True
