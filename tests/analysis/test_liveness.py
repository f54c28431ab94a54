"""The liveness invariants, judged on hand-built later turns: holds, violated, not judged.

Each example is a few later turns typed out by hand (a stored history after each), so a
verdict, the turns it names and the item it says pins the history can be traced by eye; the
runs on the SDK are in ``tests/releases/test_liveness.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from approval_compaction.analysis.invariants import Invariant
from approval_compaction.analysis.liveness import (
    LIVENESS,
    LIVENESS_NAMES,
    SESSION_USABLE,
    LivenessRun,
    LiveTurn,
    Pin,
    broken_runs,
    compaction_runs,
    driver_liveness,
    history_bounded,
    judge_liveness,
    live_turn,
    liveness_records,
    liveness_run,
    resume_paired,
    sent_unpaired,
    session_usable,
    situation_rows,
)
from approval_compaction.study.capture import Outcome, Stage

Item = dict[str, Any]
SUMMARY: Item = {"type": "compaction", "id": "compaction-1", "encrypted_content": "s"}
CALL: Item = {"type": "function_call", "call_id": "dead-c1", "name": "t", "arguments": "{}"}
OUTPUT: Item = {"type": "function_call_output", "call_id": "gone-c1", "output": "done"}


def user(n: int) -> Item:
    return {"role": "user", "content": f"question {n}"}


def answer(n: int) -> Item:
    return {"type": "message", "role": "assistant", "content": [{"text": f"answer {n}"}]}


def stage(stored: list[Item], compacted: bool) -> Stage:
    sent = [stored] if compacted else []
    return Stage("next_turn", stored=stored, compaction_inputs=sent)


def turns(stages: list[Stage]) -> tuple[LiveTurn, ...]:
    return tuple(live_turn(s) for s in stages)


# A healthy session: every later turn compacts the history down to one summary.
HEALTHY = [stage([SUMMARY], True) for _ in range(4)]
# Stuck: an open call nobody answers, after which compaction never runs (the workaround's
# deferral that never ended, before this issue): the history grows by a question and answer.
STUCK = [
    stage([user(0), CALL, *[x for k in range(n + 1) for x in (user(k + 1), answer(k + 1))]], False)
    for n in range(4)
]
# Compacting, but never all of it: each turn's compaction leaves one more summary behind the
# pinned call (what openai-agents 0.24.0 does after an abandoned approval).
GROWING = [stage([user(0), CALL, *[SUMMARY] * (n + 1)], True) for n in range(4)]


def test_liveness_invariants_are_invariant_values_with_a_meaning() -> None:
    assert LIVENESS_NAMES == ("compaction_runs", "history_bounded")
    assert all(isinstance(i, Invariant) and i.meaning for i in LIVENESS)


def test_liveness_healthy_session_holds_both() -> None:
    run = LivenessRun("clean", "0.0.0", "input", False, turns(HEALTHY))
    assert [(v.invariant, v.holds, v.detail.text) for v in judge_liveness(run)] == [
        ("compaction_runs", True, ""),
        ("history_bounded", True, ""),
    ]


def test_liveness_stuck_session_breaks_both_and_names_the_pinning_call() -> None:
    later = turns(STUCK)
    runs, bounded = compaction_runs(later), history_bounded(later)
    assert runs.holds is False and runs.detail.broken == (1, 2, 3, 4)
    assert runs.detail.lengths == (4, 6, 8, 10)
    assert runs.detail.pin == Pin(1, "function_call", "dead-c1", "open call")
    assert bounded.holds is False and bounded.detail.broken == (2, 3, 4)
    # the user's own messages are not counted: the call and one answer per turn are
    assert bounded.detail.lengths == (2, 3, 4, 5)
    assert bounded.detail.pin == runs.detail.pin
    assert "pinned by the open call function_call dead-c1 at position 1" in runs.detail.text


def test_liveness_compacting_but_growing_breaks_only_history_bounded() -> None:
    runs, bounded = compaction_runs(turns(GROWING)), history_bounded(turns(GROWING))
    assert runs.holds is True
    assert bounded.holds is False and bounded.detail.broken == (2, 3, 4)
    assert bounded.detail.pin is not None and bounded.detail.pin.key == "dead-c1"


def test_liveness_an_orphan_output_pins_too() -> None:
    poisoned = [
        stage([SUMMARY, OUTPUT, *[answer(k) for k in range(n + 1)]], False) for n in range(3)
    ]
    verdict = compaction_runs(turns(poisoned))
    assert verdict.detail.pin == Pin(1, "function_call_output", "gone-c1", "orphan output")


def test_liveness_an_unpaired_item_that_goes_away_pins_nothing() -> None:
    """The call was answered at turn 2: it does not stay throughout, so it is not the pin."""
    answered = {**OUTPUT, "call_id": "dead-c1"}
    later = turns([stage([user(0), CALL], False), stage([user(0), CALL, answered], False)])
    verdict = compaction_runs(later)
    assert verdict.holds is False and verdict.detail.pin is None


def test_liveness_a_turn_that_waits_for_a_decision_need_not_compact() -> None:
    waiting = LiveTurn(length=2, compacted=False, kept=1, waiting=True)
    assert compaction_runs((waiting, *turns(HEALTHY))).holds is True


def test_liveness_a_failed_run_is_not_judged() -> None:
    run = LivenessRun("lost", "0.0.0", "input", False, (), error="RuntimeError: boom")
    assert [v.holds for v in judge_liveness(run)] == [None, None]
    assert compaction_runs(()).holds is None and history_bounded(()).holds is None


def test_liveness_sent_unpaired_reads_compaction_and_model_inputs() -> None:
    sent = Stage(
        "next_turn",
        stored=[],
        model_inputs=[[OUTPUT, user(1)]],
        compaction_inputs=[[user(0), CALL]],
    )
    assert sent_unpaired(sent) == ("dead-c1", "gone-c1")
    assert live_turn(sent).sent == (
        "orphan output gone-c1 to the model",
        "open call dead-c1 to compaction",
    )


def test_liveness_a_call_sent_to_the_model_without_its_output_is_sent_unpaired() -> None:
    """google-adk 2.5.0-2.9.2 and 1.x: a call whose output never comes (its worker died) is
    sent to the model in every later turn. Stored, a call may wait; sent, the Responses API
    answers the request with HTTP 400 ("No tool output found for function call ..."), however
    the input ends: the turn sent it unpaired, and says which way."""
    ended_on_call = Stage("next_turn", stored=[user(0), CALL], model_inputs=[[user(0), CALL]])
    assert sent_unpaired(ended_on_call) == ("dead-c1",)
    assert live_turn(ended_on_call).sent == ("open call dead-c1 to the model",)
    asked_after = Stage("next_turn", stored=[], model_inputs=[[user(0), CALL, user(1)]])
    assert live_turn(asked_after).sent == ("open call dead-c1 to the model",)


def test_liveness_a_scripted_turn_the_rules_refuse_raises_their_prediction() -> None:
    """On the scripted model nothing goes over HTTP: a later turn whose model request the
    stand-in's rules refuse is recorded as raising what the API answers, worded as a
    prediction, so the session reads as not usable (google-adk's lost call, which the records
    showed as usable); over HTTP the turn's own outcome says it."""
    lost = Stage("next_turn", stored=[user(0), CALL], model_inputs=[[user(0), CALL, user(1)]])
    later = [(lost, "answered")] * 2
    scripted = liveness_run("lost", "2.7.0", "window-0", False, later, model="scripted")
    assert [t.met for t in scripted.turns] == ["raised", "raised"]
    assert scripted.turns[0].raised == (
        "predicted by the stand-in's rules: HTTP 400: No tool output found for function call "
        "dead-c1."
    )
    usable = session_usable(scripted)
    assert (usable.holds, usable.raised) == (False, (1, 2))
    over_http = liveness_run("lost", "2.7.0", "window-0", False, later, model="responses")
    assert session_usable(over_http).holds is True  # the stand-in's answer is the stage's own
    paired = Stage("next_turn", stored=[user(0)], model_inputs=[[user(0), user(1)]])
    clean = liveness_run("clean", "2.7.0", "window-0", False, [(paired, "answered")])
    assert session_usable(clean).holds is True


def test_liveness_records_name_which_way_each_sent_item_is_unpaired_and_where_it_went() -> None:
    own = Stage("pause", stored=[], compaction_inputs=[[user(0), CALL]])
    later = Stage("next_turn", stored=[], model_inputs=[[OUTPUT, user(1)], [user(0), CALL]])
    run = liveness_run("lost", "0.0.0", "input", False, [(later, "answered")], own=[own])
    assert LivenessRun.from_json(run.to_json()) == run
    (first, _) = liveness_records([run])
    assert first.sent_unpaired == "dead-c1 gone-c1"
    assert first.sent_detail == (
        "open call dead-c1 to the model; orphan output gone-c1 to the model"
    )
    assert first.own_sent_detail == "open call dead-c1 to compaction"


def test_liveness_run_round_trips_its_json_and_records_name_the_pin() -> None:
    run = liveness_run("abandoned", "0.0.0", "input", True, [(s, "answered") for s in STUCK])
    assert LivenessRun.from_json(run.to_json()) == run
    records = liveness_records([run])
    assert [r.invariant for r in records] == list(LIVENESS_NAMES)
    assert records[0].pin == "open call function_call dead-c1 at position 1"
    assert records[0].lengths == "4 6 8 10"


def test_liveness_run_without_a_stage_is_an_error() -> None:
    run = liveness_run("lost", "0.0.0", "input", False, [(None, "error: RuntimeError")])
    assert run.error and run.turns == ()


@pytest.mark.parametrize("name", LIVENESS_NAMES)
def test_liveness_each_invariant_has_a_violating_example(name: str) -> None:
    judge = {"compaction_runs": compaction_runs, "history_bounded": history_bounded}[name]
    assert judge(turns(STUCK)).holds is False


def test_broken_runs_names_each_broken_run_with_its_invariants() -> None:
    def run(stages: list[Stage], mode: str, workaround: bool = False) -> LivenessRun:
        pairs = [(s, "answered") for s in stages]
        return liveness_run("abandoned", "0.0.0", mode, workaround, pairs)

    runs = [run(HEALTHY, "input"), run(STUCK, "input", True), run(GROWING, "auto")]
    assert broken_runs(runs) == {
        ("abandoned", "0.0.0", "input", True): ("compaction_runs", "history_bounded"),
        ("abandoned", "0.0.0", "auto", False): ("history_bounded",),
    }
    failed = liveness_run("lost", "0.0.0", "input", False, [(None, "error")])
    assert broken_runs([failed]) == {}  # a run that failed is not judged, so not broken


def test_situation_rows_say_per_release_and_workaround_which_situations_keep_compacting() -> None:
    def run(stages: list[Stage], mode: str, workaround: bool) -> LivenessRun:
        return liveness_run(
            "abandoned", "0.0.0", mode, workaround, [(s, "answered") for s in stages]
        )

    runs = [run(HEALTHY, "input", True), run(HEALTHY, "input", False), run(GROWING, "auto", False)]
    unfixed, fixed = situation_rows(runs, ["abandoned", "lost"])
    assert (unfixed.workaround, unfixed.keeps_compacting) == (False, False)
    assert unfixed.broken == "history_bounded in auto mode"
    assert unfixed.pinned_by == "open call dead-c1"
    assert (fixed.workaround, fixed.keeps_compacting, fixed.broken) == (True, True, "")
    assert fixed.pinned_by == "" and fixed.late_resume == ""


# A late resume: the pause (the call waiting), a question asked while the state was kept, then
# the resume, which stores the call's output.
LATE_CALL: Item = {"type": "function_call", "call_id": "late-c1", "name": "t", "arguments": "{}"}
LATE_OUTPUT: Item = {"type": "function_call_output", "call_id": "late-c1", "output": "done"}


def late_resume(kept_call: bool) -> LivenessRun:
    """A late resume whose resume finds its call stored (``kept_call``) or gone (retired)."""
    before = [user(0), LATE_CALL] if kept_call else [user(0)]
    own = [
        Stage("pause", stored=[user(0), LATE_CALL]),
        Stage("next_turn", stored=[*before, user(1), answer(1)]),
        Stage("resume", stored=[*before, user(1), answer(1), LATE_OUTPUT]),
    ]
    sent = [] if kept_call else [[user(0), user(1), answer(1), LATE_OUTPUT, user(2)]]
    later = Stage("next_turn", stored=[SUMMARY], model_inputs=sent, compaction_inputs=[[SUMMARY]])
    pairs = [(later, "answered")]
    return liveness_run("resumed", "0.0.0", "input", False, pairs, own=own, resumed=True)


def test_resume_paired_holds_when_the_resume_finds_its_call() -> None:
    run = late_resume(kept_call=True)
    assert resume_paired(run).holds is True and resume_paired(run).text == ""
    assert LivenessRun.from_json(run.to_json()) == run


def test_resume_paired_names_the_orphan_stored_and_sent_after_a_retired_call() -> None:
    verdict = resume_paired(late_resume(kept_call=False))
    assert verdict.holds is False
    assert verdict.stored == ("orphan output function_call_output late-c1 at position 3",)
    assert verdict.sent == ("late-c1",)
    record = liveness_records([late_resume(kept_call=False)])[0]
    assert record.resume_paired is False and record.resume_unpaired == verdict.text


def test_resume_paired_is_not_judged_without_a_late_resume() -> None:
    plain = liveness_run("abandoned", "0.0.0", "input", False, [(s, "answered") for s in HEALTHY])
    assert resume_paired(plain).holds is None
    assert liveness_records([plain])[0].resume_paired is None


def test_own_turns_sent_unpaired_are_kept_apart_from_the_later_turns() -> None:
    pause = Stage("pause", stored=[user(0), CALL], compaction_inputs=[[user(0), CALL]])
    pairs = [(s, "answered") for s in HEALTHY]
    run = liveness_run("abandoned", "0.0.0", "input", False, pairs, own=[pause])
    assert run.own_sent == ("dead-c1",) and run.sent == ()
    assert liveness_records([run])[0].own_sent == "dead-c1"
    abandoned, resumed = situation_rows([run, late_resume(False)], ["abandoned", "resumed"])
    assert (abandoned.situation, abandoned.own_turns_unpaired) == ("abandoned", "dead-c1")
    assert abandoned.later_turns_unpaired == "" and abandoned.late_resume == ""
    assert resumed.situation == "resumed" and resumed.late_resume.startswith("input: stored ")


# A poisoned store over the API's rules: each later turn's model request is refused with the
# API's 400 (the stage's outcome says so), nothing compacts, the store gains the question.
REFUSAL = Outcome(
    "openai.BadRequestError",
    400,
    "Error code: 400 - No tool call found for function call output with call_id gone-c1.",
    "/v1/responses",
    "No tool call found for function call output with call_id gone-c1.",
)
REFUSED = [
    Stage("next_turn", stored=[*(user(k) for k in range(n + 1)), OUTPUT], outcome=REFUSAL)
    for n in range(3)
]


def refused_run(mode: str = "input") -> LivenessRun:
    pairs = [(s, "error: BadRequestError") for s in REFUSED]
    return liveness_run("poisoned", "0.0.0", mode, False, pairs, model="responses")


def test_live_turn_says_what_the_user_met_and_the_errors_text() -> None:
    assert live_turn(HEALTHY[0]).met == "answered" and live_turn(HEALTHY[0]).raised == ""
    assert live_turn(HEALTHY[0], waiting=True).met == "paused"
    turn = live_turn(REFUSED[0], outcome="error: BadRequestError")
    assert turn.met == "raised"
    assert turn.raised == (
        "openai.BadRequestError, HTTP 400 at /v1/responses: "
        "No tool call found for function call output with call_id gone-c1."
    )
    plain = live_turn(HEALTHY[0], outcome="error: RuntimeError")  # raised, not over HTTP
    assert (plain.met, plain.raised) == ("raised", "error: RuntimeError")


def test_session_usable_fails_when_a_later_turn_raises_and_names_the_turns() -> None:
    run = refused_run()
    verdict = session_usable(run)
    assert verdict.holds is False and verdict.raised == (1, 2, 3)
    assert verdict.texts == (live_turn(REFUSED[0], outcome="error: x").raised,)
    assert verdict.text == f"turns 1, 2, 3 raised {verdict.texts[0]}"
    assert LivenessRun.from_json(run.to_json()) == run
    # judged as the two liveness invariants judge it: no compaction ran, the kept part is flat
    assert [v.holds for v in judge_liveness(run)] == [False, True]
    assert broken_runs([run]) == {
        ("poisoned", "0.0.0", "input", False): ("compaction_runs", SESSION_USABLE.name)
    }
    assert session_usable(liveness_run("x", "0", "input", False, [])).holds is None


def test_situation_rows_never_say_a_refused_session_keeps_compacting() -> None:
    (row,) = situation_rows([refused_run("input"), refused_run("auto")], ["poisoned"])
    assert (row.session_usable, row.keeps_compacting) == (False, False)
    assert row.raised.startswith("input, auto: openai.BadRequestError, HTTP 400")
    healthy = liveness_run("clean", "0.0.0", "input", False, [(s, "answered") for s in HEALTHY])
    (row,) = situation_rows([healthy], ["clean"])
    assert (row.session_usable, row.keeps_compacting, row.raised) == (True, True, "")


def _plain(turn_count: int, compact_at: set[int], keep_users: bool = True) -> list[Stage]:
    """A plain conversation under a trigger: each turn stores a question and an answer; the
    turns in ``compact_at`` end compacted (the users kept, then one summary)."""
    stored: list[Item] = []
    stages = []
    for n in range(1, turn_count + 1):
        stored = [*stored, user(n), answer(n)]
        if n in compact_at:
            users = [i for i in stored if i.get("role") == "user"] if keep_users else []
            stored = [*users, SUMMARY]
        sent = [stored] if n in compact_at else []
        stages.append(
            Stage("next_turn", stored=stored, model_inputs=[stored], compaction_inputs=sent)
        )
    return stages


def test_a_threshold_trigger_asks_only_once_its_candidates_are_stored() -> None:
    """Under the SDKs' default trigger (10 candidates), a session that compacts at turns 10 and
    20 holds both rules over 25 turns; one that compacts at 10 only breaks both from turn 20,
    when its candidates reach the threshold again: the turns in between are not asked."""
    good = turns(_plain(25, {10, 20}))
    stalled = turns(_plain(25, {10}))
    assert compaction_runs(good, 10).holds is True
    assert history_bounded(good, 10).holds is True
    assert compaction_runs(stalled, 10).detail.broken == (20, 21, 22, 23, 24, 25)
    assert history_bounded(stalled, 10).detail.broken == (20, 21, 22, 23, 24, 25)
    assert [t.candidates for t in stalled][8:12] == [9, 0, 1, 2]  # the summary is not counted
    assert compaction_runs(good).holds is False  # the hook-always-yes reading asks every turn


def test_a_run_carries_its_threshold_to_the_judge() -> None:
    later = [(s, "answered") for s in _plain(12, {10})]
    always = liveness_run("clean", "x", "input", False, later)
    default = liveness_run("clean", "x", "input", False, later, threshold=10)
    assert [v.holds for v in judge_liveness(always)] == [False, False]
    assert [v.holds for v in judge_liveness(default)] == [True, True]
    assert LivenessRun.from_json(default.to_json()) == default


def test_a_turn_counts_the_items_of_its_last_model_request() -> None:
    last = [user(1), answer(1), user(2)]
    turn = live_turn(Stage("next_turn", stored=last, model_inputs=[[user(1)], last]))
    assert (turn.inputs, turn.candidates, turn.kept) == (3, 1, 1)


def test_driver_liveness_reads_a_driver_scripts_situation_and_counts_missing_later_turns() -> None:
    def stage(data: dict[str, Any]) -> Stage:
        return Stage(data["name"], stored=[])

    line = {
        "scenario": "abandoned",
        "sdk_version": "1.0",
        "stages": [{"name": "pause"}],
        "later": [{"stage": {"name": "next_turn"}, "outcome": "answered"}],
        "wanted": 2,
        "resumed": True,
    }
    run = driver_liveness(line, stage, mode="keep-1 chat", model="responses", release="1.0+f")
    assert (run.scenario, run.sdk_version, run.mode, run.model) == (
        "abandoned", "1.0+f", "keep-1 chat", "responses",
    )  # fmt: skip
    assert len(run.own) == 1 and len(run.turns) == 1 and run.resumed and not run.workaround
    assert run.error == "only 1 of 2 later turns ran"
    refused = driver_liveness(
        {**line, "not_applicable": "no such kind"}, stage, mode="m", model="s"
    )
    assert refused.error == "no such kind" and refused.sdk_version == "1.0"
