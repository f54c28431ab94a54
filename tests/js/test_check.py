"""JS check: whether and when the bug strikes a team's own @openai/agents, through the JS driver."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from approval_compaction.cli import main
from approval_compaction.doctor.check import ACCEPTED, PAUSED, REJECTED, CheckError, check_config
from approval_compaction.doctor.status import AFFECTED, HEALTHY
from approval_compaction.formats.records import read_records
from approval_compaction.js.check import check_js, js_plan, js_row
from approval_compaction.js.files import data_file
from approval_compaction.js.harness import missing
from approval_compaction.js.sweep import JsExposure
from approval_compaction.lab import paths

CALL = {"type": "function_call", "callId": "call_1", "name": "lookup", "arguments": "{}"}
USER = {"role": "user", "content": "q"}


def _stage(name: str, stored: list[dict[str, object]], **extra: object) -> dict[str, object]:
    return {"name": name, "stored": stored, "outcome": "ok", "http_status": None, **extra}


def _line(stages: list[dict[str, object]], **extra: object) -> dict[str, object]:
    case = {"runner": "run", "decision": "approve", "compaction": "on", "state_boundary": "json"}
    return {"case": case, "sdk_version": "0.20.0", "stages": stages, "mode": "auto", **extra}


@pytest.mark.parametrize(
    ("trigger", "expected", "compaction"),
    [("default", "default", "on"), ("always", "case", "on"), ("never", "case", "off"),
     ("7", 7, "on")],
    ids=["default", "always", "never", "threshold"],
)  # fmt: skip
def test_js_plan_runs_the_teams_trigger_at_every_position(
    trigger: str, expected: object, compaction: str
) -> None:
    plan = js_plan(check_config("input", trigger, "reject", store="false"), turns=3, later=2)
    assert (plan.mode, plan.response_store, plan.trigger) == ("input", False, expected)
    assert plan.positions == (0, 1, 2, 3) and plan.later == 2
    (case,) = plan.cases
    assert (case.runner, case.decision, case.compaction, case.state_boundary) == (
        "run", "reject", compaction, "json")  # fmt: skip


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"tool": "mcp"}, "--tool mcp is checked on the Python SDK only"),
     ({"decision": "abandon"}, "--decision abandon is checked on the Python SDK only")],
    ids=["mcp", "abandon"],
)  # fmt: skip
def test_js_plan_refuses_what_the_driver_cannot_run_in_one_line(
    kwargs: dict[str, str], message: str
) -> None:
    with pytest.raises(CheckError, match=message):
        js_plan(check_config(**kwargs))


def test_js_row_reads_the_refused_pause_and_the_call_it_left_open() -> None:
    """A pause the compaction endpoint refused: no interruption, the call stored open, the
    decision's candidate count from the stage's hook, nothing resumed."""
    refused = _stage(
        "pause",
        [USER, CALL],
        compaction_inputs=[[USER]],
        hook=[9, 10],
        outcome="openai.BadRequestError: 400 No tool output found",
        http_status=400,
        endpoint="/v1/responses/compact",
        api_message="No tool output found for function call call_1.",
    )
    line = _line([refused, _stage("next_turn", [USER, CALL, USER], model_inputs=[[USER]])])
    row, run = js_row(4, line)
    assert run.sdk == "js"
    assert (row.prior_turns, row.items_at_pause, row.candidates_at_pause) == (4, 2, 10)
    assert row.compacted_at_pause and row.pending_call_stored
    assert row.at_pause == "HTTP 400: No tool output found for function call call_1."
    assert (row.stored_after_resume, row.affected) == ("not run", True)


def test_js_row_of_a_release_without_the_mode_is_its_one_line() -> None:
    line = _line([], not_applicable="@openai/agents 0.3.6 has no compactionMode option")
    with pytest.raises(CheckError, match="^@openai/agents 0.3.6 has no compactionMode option$"):
        js_row(0, line)


def test_doctor_check_js_without_the_sdk_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert missing(tmp_path) == ["@openai/agents", "openai", "zod"]
    assert main(["doctor", "check", "--js", str(tmp_path), "--turns", "1"]) == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert said == [
        f"error: {tmp_path} has no node_modules/@openai/agents: pass the folder that holds your "
        "node_modules, or install the packages there (npm ci)"
    ]


@pytest.mark.subprocess
@pytest.mark.enable_socket
@pytest.mark.usefixtures("node_harness")
def test_check_js_on_the_pinned_release_strikes_where_the_sweep_says() -> None:
    """The SDK's default trigger in ``auto``: the pause is refused at the positions the JS study
    found (``data/js-exposure.json``), and nowhere else; each position's later turns ran."""
    turns = 12
    release, rows, keeps = check_js(check_config("auto"), paths.ROOT, turns, later=2)
    exposure = read_records(data_file("exposure"), JsExposure)
    found = [e.position for e in exposure if e.plan == "auto-default-trigger" and e.violating]
    assert release == exposure[0].sdk_version
    assert [r.prior_turns for r in rows if r.affected] == [p for p in found if p <= turns]
    assert all(r.at_pause == PAUSED for r in rows if not r.affected)
    assert all(r.at_pause.startswith("HTTP 400: No tool output found") for r in rows if r.affected)
    assert len(keeps.runs) == turns + 1 and all(not run.error for run in keeps.runs)


@pytest.mark.subprocess
@pytest.mark.enable_socket
@pytest.mark.usefixtures("node_harness")
def test_doctor_check_js_json_in_input_mode_names_the_next_turn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``input`` with a trigger that always compacts: the pause with no turn before it is
    compacted and its next turn sends the decision's output without its call. After a plain turn
    the pause is not compacted: the session compacted at that turn and, on this release, never
    compacts automatically again (the JS SDK's own stall). The answer names the JS package."""
    argv = ["doctor", "check", "--js", str(paths.ROOT), "--mode", "input", "--trigger", "always"]
    assert main([*argv, "--turns", "2", "--later", "0", "--format", "json"]) == AFFECTED
    found = json.loads(capsys.readouterr().out)
    rows = [(r["compacted_at_pause"], r["next_turn"]) for r in found["rows"]]
    assert rows == [(True, REJECTED), (False, ACCEPTED), (False, ACCEPTED)]
    assert found["answers"][0].startswith(f"@openai/agents {found['release']}, ")
    assert "affected at 1 of 3 pause positions" in found["answers"][0]


@pytest.mark.subprocess
@pytest.mark.enable_socket
@pytest.mark.usefixtures("node_harness")
def test_check_js_reads_its_records_whatever_the_teams_code_prints_on_stdout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 57: any line on Node's stdout (a package's notice, an APM agent preloaded through
    ``NODE_OPTIONS``) ended ``doctor check --js`` in a JSONDecodeError traceback; a line that
    is JSON would have been read as a record. The records come over a file only the driver
    writes."""
    agent = tmp_path / "agent.cjs"
    agent.write_text(
        "console.log('apm agent 1.0 started');\n"
        'console.log(JSON.stringify({case: {}, stages: [], sdk_version: "forged"}));\n'
        "process.on('exit', () => console.log('apm agent flushed'));\n"
    )
    monkeypatch.setenv("NODE_OPTIONS", f"--require {agent}")
    release, rows, keeps = check_js(check_config("auto"), paths.ROOT, turns=1, later=0)
    assert (
        release
        == json.loads((paths.ROOT / "package.json").read_text())["dependencies"]["@openai/agents"]
    )
    assert [r.prior_turns for r in rows] == [0, 1] and len(keeps.runs) == 2


def _team_folder(folder: Path, version: str) -> Path:
    """A team's folder whose @openai/agents says ``version`` while the packages it pins (the
    pinned release's, linked) say theirs, as npm leaves them when it resolves a sibling
    elsewhere."""
    modules = folder / "node_modules"
    (modules / "@openai").mkdir(parents=True)
    for entry in (paths.ROOT / "node_modules").iterdir():
        if entry.name != "@openai":
            (modules / entry.name).symlink_to(entry.resolve())
    for entry in (paths.ROOT / "node_modules" / "@openai").iterdir():
        if entry.name != "agents":
            (modules / "@openai" / entry.name).symlink_to(entry.resolve())
    agents = modules / "@openai" / "agents"
    shutil.copytree(paths.ROOT / "node_modules" / "@openai" / "agents", agents)
    meta = json.loads((agents / "package.json").read_text())
    (agents / "package.json").write_text(json.dumps(meta | {"version": version}))
    return folder


@pytest.mark.subprocess
@pytest.mark.enable_socket
@pytest.mark.usefixtures("node_harness")
def test_check_js_names_the_version_of_openai_agents_not_of_a_package_it_pins(
    tmp_path: Path,
) -> None:
    """Issue 57: the release named was ``@openai/agents-openai``'s version."""
    folder = _team_folder(tmp_path / "team", "0.20.0-team")
    release, _, _ = check_js(check_config("auto"), folder, turns=0, later=0)
    assert release == "0.20.0-team"


@pytest.mark.subprocess
@pytest.mark.enable_socket
@pytest.mark.usefixtures("node_harness")
def test_check_js_with_one_later_turn_does_not_say_the_sessions_keep_compacting(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 57: ``--later 1`` on 0.20.0 answered "your sessions keep compacting": its stall
    shows at the second later turn. One later turn is not judged; two show the stall (and the
    check is affected)."""
    argv = ["doctor", "check", "--js", str(paths.ROOT), "--turns", "0", "--format", "json"]
    assert main([*argv, "--later", "1"]) == HEALTHY
    answer = json.loads(capsys.readouterr().out)["answers"][1]
    assert "keep compacting" not in answer
    assert "not judged: a session that stops compacting shows it at its second" in answer
    assert main([*argv, "--later", "2"]) == AFFECTED
    answer = json.loads(capsys.readouterr().out)["answers"][1]
    assert "your sessions stop compacting at 1 of 1 positions" in answer
