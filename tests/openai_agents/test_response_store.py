"""``ModelSettings(store=...)``: the agent's setting through the harness, and the API's rule.

With the store unset, ``auto`` names the paused response by ``previous_response_id`` and the
pause is refused (openai/openai-agents-python#2317). With ``store=False`` the runner tells the
session the response was not stored, ``auto`` sends the history as ``input`` (the SDK's
``_resolve_compaction_mode``), the pause is answered, and the user meets ``input``'s outcome at
the next question. A response created with ``store: false`` is kept by neither the stand-in nor
the scripted model, so naming it later is ``previous_response_not_found``
(openai/openai-agents-python#2333).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from approval_compaction.lab.releases.meeting import ANSWERED, PAUSED, RAISED, meetings
from approval_compaction.openai_agents.driver import Ask, Driver, Setup, converse
from approval_compaction.openai_agents.harness import PENDING_CALL, QUESTIONS, run_case, run_matrix
from approval_compaction.openai_agents.wiring import responses_backend, scripted_backend
from approval_compaction.study.capture import CaseRun, runs_json
from approval_compaction.study.scenario import Case, select_cases
from approval_compaction.study.words import STORE_SETTINGS, STORE_WORD, STORE_WORDS
from approval_compaction.wire.standin import StandIn

ON = Case(compaction="on")


def _met(run: CaseRun) -> dict[str, tuple[str, str]]:
    return {m.stage: (m.outcome, m.api_message) for m in meetings(run)}


@pytest.fixture(scope="module")
def unstored() -> CaseRun:
    return run_case(ON, mode="auto", backend=responses_backend, response_store=False)


@pytest.fixture(scope="module")
def unset() -> CaseRun:
    return run_case(ON, mode="auto", backend=responses_backend)


def test_store_false_in_auto_the_pause_is_answered_and_the_next_question_is_refused(
    unstored: CaseRun,
) -> None:
    """On the pinned release, ``auto`` with ``store=False`` does not fail at the pause: the human
    decides, the resume answers, and the next question sends the orphan output (input mode's
    outcome, the API's 400)."""
    met = _met(unstored)
    assert met["pause"][0] == PAUSED and met["resume"][0] == ANSWERED
    assert met["next_turn"] == (
        RAISED,
        "No tool call found for function call output with call_id pending-c1.",
    )


def test_store_false_in_auto_is_what_input_mode_meets(unstored: CaseRun) -> None:
    as_input = run_case(ON, mode="input", backend=responses_backend)
    assert _met(unstored) == _met(as_input)


def test_store_unset_in_auto_the_pause_is_refused(unset: CaseRun) -> None:
    met = _met(unset)
    assert met["pause"] == (RAISED, "No tool output found for function call pending-c1.")
    assert met["next_turn"][0] == ANSWERED


def test_store_false_reaches_the_request_body_and_true_too(unstored: CaseRun) -> None:
    stored = run_case(ON, mode="auto", backend=responses_backend, response_store=True)
    bodies = {
        name: [
            r["body"] for s in run.stages for r in s.http_requests if r["path"] == "/v1/responses"
        ]
        for name, run in (("false", unstored), ("true", stored))
    }
    assert {b.get("store") for b in bodies["false"]} == {False}
    assert {b.get("store") for b in bodies["true"]} == {True}
    assert stored.response_store is True and unstored.response_store is False


def test_store_unset_leaves_the_body_and_the_runs_file_as_before(unset: CaseRun) -> None:
    bodies = [r["body"] for s in unset.stages for r in s.http_requests]
    assert not any("store" in b for b in bodies)
    assert "response_store" not in runs_json([unset])
    assert CaseRun.from_json(unset.to_json()).response_store is None


@pytest.mark.parametrize("backend", [scripted_backend, responses_backend], ids=["scripted", "http"])
def test_store_false_response_cannot_be_named_later(backend: Any) -> None:
    """In ``previous_response_id`` mode a response created with ``store=False`` is not found, on
    the scripted wiring as over HTTP (openai/openai-agents-python#2333)."""
    run = run_case(ON, mode="previous_response_id", backend=backend, response_store=False)
    outcome, message = _met(run)["pause"]
    assert outcome == RAISED
    assert message.startswith("Previous response with id '") and message.endswith("' not found.")


def test_store_standin_keeps_only_the_responses_it_was_allowed_to() -> None:
    standin = StandIn()
    for store in (None, True, False):
        body = {"model": "gpt-4.1", "input": "hi"} | ({} if store is None else {"store": store})
        assert standin.handle("POST", "/v1/responses", json.dumps(body).encode())
    assert list(standin.responses) == ["resp_standin_0001", "resp_standin_0002"]


def test_store_driver_sets_it_on_the_agent_and_crosses_to_a_worker_in_the_setup() -> None:
    setup = Setup(mode="auto", response_store=False)
    assert Setup.from_json(setup.to_json()) == setup
    assert Setup.from_json(Setup().to_json()).response_store is None
    transcript = converse(setup, [Ask(QUESTIONS[0], (PENDING_CALL,), stage="pause")])
    assert transcript.stage("pause").outcome.ok  # auto compacted by input, and was answered


def test_store_driver_agent_model_settings(tmp_path: Any) -> None:
    driver = Driver(Setup(response_store=False), tmp_path / "history.db")
    try:
        assert driver.agent.model_settings.store is False
    finally:
        driver.close()
    driver = Driver(Setup(), tmp_path / "other.db")
    try:
        assert driver.agent.model_settings.store is None
    finally:
        driver.close()


def test_store_run_matrix_threads_it_to_every_case() -> None:
    runs = run_matrix(select_cases("runner=run,state_boundary=json"), response_store=False)
    assert {run.response_store for run in runs} == {False}
    assert {run.response_store for run in run_matrix(select_cases("runner=run"), later=0)} == {None}


def test_store_words_name_each_setting_once() -> None:
    assert [STORE_SETTINGS[w] for w in STORE_WORDS] == [None, True, False]
    assert [STORE_WORD[STORE_SETTINGS[w]] for w in STORE_WORDS] == list(STORE_WORDS)


def test_store_false_reaches_the_liveness_runs() -> None:
    """The liveness runs take the setting too: with ``store=False`` in ``previous_response_id``
    mode each later turn's compaction names a response the API never kept (#2333's symptom),
    so the history grows; unset, it stays bounded."""
    from approval_compaction.analysis.liveness import judge_liveness
    from approval_compaction.openai_agents.later_turns import run_liveness

    def bounded(store: bool | None) -> set[bool | None]:
        runs = run_liveness(3, modes=("previous_response_id",), cases=[], response_store=store)
        clean = [run for run in runs if run.scenario == "clean"]
        return {
            v.holds
            for run in clean
            for v in judge_liveness(run)
            if v.invariant == "history_bounded"
        }

    assert bounded(None) == {True}
    assert bounded(False) == {False}


@pytest.mark.releases
@pytest.mark.parametrize("store", [None, False], ids=["unset", "false"])
def test_store_either_way_the_fixing_release_waits_at_the_pause(store: bool | None) -> None:
    """0.24.0 keeps the pending call whichever mode ``auto`` resolves to: the pause compacts
    nothing, the human decides, and the next question is answered."""
    import needs

    from approval_compaction.lab.releases import environments
    from approval_compaction.openai_agents.harness import Script, case_setup, conversation
    from approval_compaction.openai_agents.worker import Worker

    env = needs.release("0.24.0")
    setup = case_setup(ON, Script(mode="auto", response_store=store))
    with Worker(str(env.python), environments.isolated_environ()) as worker:
        transcript = converse(
            replace(setup, model="responses", go_on=True), conversation(ON), worker=worker
        )
    assert transcript.sdk_version == "0.24.0"
    assert [t.outcome for t in transcript.turns] == [
        "paused",
        "crossed",
        "decided",
        "answered",
        "answered",
    ]
    assert not transcript.stage("pause").compaction_inputs
