"""Captured runs: plain records that survive JSON, and the questions asked of them."""

from __future__ import annotations

import importlib.metadata
import json
from dataclasses import asdict, replace

import pytest

from approval_compaction.openai_agents.harness import run_case
from approval_compaction.study.capture import (
    STAGES,
    CaseRun,
    Outcome,
    Stage,
    pending_ids,
    runs_json,
    sdk_version,
)
from approval_compaction.study.scenario import Case

USER = {"role": "user", "content": "q"}
CALL = {"type": "function_call", "call_id": "c1", "name": "t", "arguments": "{}"}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "x"}
SUMMARY = {"type": "compaction", "id": "compaction-1", "encrypted_content": "s"}


def full_run() -> CaseRun:
    """A hand-built run with every stage field set to something."""
    return CaseRun(
        case=Case(runner="run_streamed", decision="reject", state_boundary="memory"),
        sdk_version="0.0.0",
        stages=[
            Stage(
                "pause",
                stored=[USER, CALL],
                model_inputs=[[USER]],
                compaction_inputs=[[USER, CALL]],
                interruptions=[CALL],
                warnings=["openai.agents: careful"],
            ),
            Stage("round_trip", stored=[SUMMARY], state_items={"generated_items": [CALL]}),
            Stage("resume", stored=[SUMMARY, OUTPUT], model_inputs=[[USER, CALL, OUTPUT]]),
            Stage("next_turn", stored=[SUMMARY], dispatches=0, compaction_inputs=[[OUTPUT], []]),
        ],
        approvals=0,
        dispatches=0,
    )


def test_capture_stages_are_in_the_order_a_case_runs() -> None:
    assert STAGES == ("pause", "round_trip", "resume", "next_turn")


def test_capture_run_round_trips_through_json_text() -> None:
    run = full_run()
    text = json.dumps(run.to_json())
    assert CaseRun.from_json(json.loads(text)) == run


@pytest.mark.parametrize(
    "run",
    [
        CaseRun(Case(), "0.0.0", [], 1, 0, error="RuntimeError: boom"),
        CaseRun(Case(), "0.0.0", [], 1, 0, not_applicable="release lacks SQLiteSession"),
    ],
    ids=["errored", "not-applicable"],
)
def test_capture_run_without_stages_round_trips(run: CaseRun) -> None:
    assert CaseRun.from_json(json.loads(json.dumps(run.to_json()))) == run


def test_capture_a_js_run_names_its_sdk_and_round_trips() -> None:
    """A run of the JS harness says so in its file, and reads back as it was written."""
    run = replace(full_run(), sdk="js")
    data = json.loads(json.dumps(run.to_json()))
    assert data["sdk"] == "js"
    assert CaseRun.from_json(data) == run


def test_capture_to_json_keeps_the_outcome_as_its_text_and_status() -> None:
    """The runs files keep what the user saw as two fields: the text and the HTTP status."""
    run = full_run()
    plain = asdict(run)
    assert plain.pop("response_store") is None  # not set: left out, so the files read as before
    assert plain.pop("sdk") == "python"  # the Python study's: left out too
    assert plain.pop("configured") == ""  # taken as planned, nothing added: left out too
    for stage in plain["stages"]:
        seen = stage.pop("outcome")
        stage.update(outcome=Outcome(**seen).text, http_status=seen["http_status"])
    assert run.to_json() == plain
    assert run.to_json()["case"] == run.case.as_dict()


def test_capture_outcome_text_round_trips() -> None:
    refused = Outcome("openai.BadRequestError", 400, "Error code: 400 - No tool call: found")
    assert refused.text == "openai.BadRequestError: Error code: 400 - No tool call: found"
    assert Outcome.from_text(refused.text, 400) == refused
    assert Outcome.from_text("ok", None) == Outcome() and Outcome().ok


def test_case_run_json_round_trips_a_captured_run() -> None:
    """What the probe writes rebuilds the same run."""
    run = run_case(Case(decision="reject"))
    written = json.dumps(run.to_json())
    assert CaseRun.from_json(json.loads(written)) == run


def test_capture_stage_by_name_or_none_when_not_reached() -> None:
    run = full_run()
    assert [run.stage(name) for name in STAGES] == run.stages
    stopped = CaseRun(Case(), "0.0.0", run.stages[:2], 1, 0, error="x")
    assert stopped.stage("resume") is None and stopped.stage("pause") is run.stages[0]


def test_capture_compaction_requests_counts_every_stage() -> None:
    assert full_run().compaction_requests == 3
    assert CaseRun(Case(), "0.0.0", [], 1, 0).compaction_requests == 0


def test_capture_pending_ids_are_the_paused_call_ids() -> None:
    other = {"type": "function_call", "call_id": "c2", "name": "t", "arguments": "{}"}
    request = {"type": "mcp_approval_request", "id": "r1"}  # no call_id: not a pending call id
    run = CaseRun(Case(), "0.0.0", [Stage("pause", [], interruptions=[CALL, request, other])], 1, 1)
    assert pending_ids(run) == {"c1", "c2"}


def test_capture_pending_ids_are_empty_without_a_pause() -> None:
    assert pending_ids(CaseRun(Case(), "0.0.0", [], 1, 0, error="x")) == set()
    assert pending_ids(CaseRun(Case(), "0.0.0", [Stage("pause", [USER])], 1, 0)) == set()


def test_capture_runs_json_is_a_list_of_runs_ending_in_newline() -> None:
    runs = [full_run(), CaseRun(Case(), "0.0.0", [], 1, 0, error="boom")]
    text = runs_json(runs)
    assert text.endswith("]\n") and text.startswith("[\n {\n")
    assert [CaseRun.from_json(data) for data in json.loads(text)] == runs
    assert runs_json([]) == "[]\n"


def test_capture_sdk_version_is_the_installed_release() -> None:
    assert sdk_version() == importlib.metadata.version("openai-agents")


def test_capture_a_continued_run_round_trips_its_later_turns() -> None:
    """The later turns after the next one (a stage each, or None, and the outcome) survive the
    runs file; a file written before them reads back as a run not continued."""
    from dataclasses import replace

    from approval_compaction.study.capture import Later

    stage = Stage("next_turn", stored=[{"role": "user", "content": "q"}], compaction_inputs=[[]])
    later = [Later(stage, "answered"), Later(None, "error: RuntimeError")]
    run = replace(full_run(), continued=3, later=later, later_error="RuntimeError: boom")
    assert CaseRun.from_json(json.loads(json.dumps(run.to_json()))) == run
    old = {k: v for k, v in full_run().to_json().items() if k not in ("continued", "later")}
    assert CaseRun.from_json(old) == full_run()


@pytest.mark.parametrize("sdk", ["python", "js", "adk", "langchain"])
def test_capture_a_run_names_python_or_an_sdk_folder(sdk: str) -> None:
    assert CaseRun(Case(), "1.0.0", [], 0, 0, sdk=sdk).sdk == sdk


def test_capture_a_run_of_an_sdk_no_folder_holds_is_refused() -> None:
    """``sdk`` is a folder's name (``sdks.FOLDERS``) or ``python``, checked, not a free text."""
    with pytest.raises(ValueError, match="no SDK 'go': expected one of python, js, adk"):
        CaseRun(Case(), "1.0.0", [], 0, 0, sdk="go")
