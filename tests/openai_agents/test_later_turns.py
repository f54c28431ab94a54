"""Liveness runs on the installed (pinned) release, with and without the workaround, and on the
newest release when its cached environment is there."""

from __future__ import annotations

import io
from pathlib import Path

import needs
import pytest

from approval_compaction.analysis.liveness import (
    PREDICTED,
    UsableVerdict,
    judge_liveness,
    liveness_records,
    resume_paired,
    session_usable,
)
from approval_compaction.analysis.pairing import orphan_outputs
from approval_compaction.cli import main
from approval_compaction.fix.workaround import defer_compaction_while_pending
from approval_compaction.formats.progress import Progress
from approval_compaction.lab import paths
from approval_compaction.lab.releases import environments
from approval_compaction.lab.releases.later_turns import (
    LIVENESS_MODEL,
    LIVENESS_MODES,
    liveness_count,
    load_liveness,
)
from approval_compaction.openai_agents.later_turns import (
    poisoned_history,
    run_case_continued,
    run_liveness,
    run_situation,
    situation_lacks,
)
from approval_compaction.openai_agents.situations import HOSTED_SITUATIONS as HOSTED
from approval_compaction.openai_agents.situations import RESUMED_SITUATIONS as LATE
from approval_compaction.openai_agents.situations import SITUATIONS
from approval_compaction.openai_agents.worker import Worker
from approval_compaction.study.scenario import Case

TURNS = 4
NEWEST = "0.24.0"
PINNED = "0.23.1"


def holds(run: object) -> dict[str, bool | None]:
    return {v.invariant: v.holds for v in judge_liveness(run)}  # type: ignore[arg-type]


def test_liveness_poisoned_history_comes_from_a_pinned_run() -> None:
    history = poisoned_history()
    assert orphan_outputs(history) == ["pending-c1"]


@pytest.mark.parametrize("name", ["abandoned", "lost", "clean"])
def test_liveness_workaround_keeps_compacting_and_sends_nothing_unpaired(name: str) -> None:
    run = run_situation(name, "input", TURNS, wrap=defer_compaction_while_pending)  # type: ignore[arg-type]
    assert run.error == "" and len(run.turns) == TURNS and run.model == LIVENESS_MODEL
    assert holds(run) == {"compaction_runs": True, "history_bounded": True}
    assert session_usable(run).holds is True
    assert run.sent == ()
    assert all(not t.unpaired for t in run.turns)  # the dead call was retired


NO_CALL = "No tool call found for function call output with call_id pending-c1."


def test_liveness_poisoned_store_on_the_pinned_release_refuses_every_later_turn() -> None:
    """A store 0.23.1 poisoned (its output alone, its call compacted away), continued on 0.23.1
    as a user of the Responses API meets it: every later turn raises the API's 400, no
    compaction runs, and the store grows by the user's question each time. The scripted model,
    which accepts the orphan output, kept compacting here: the project's earlier answer."""
    run = run_situation("poisoned", "input", TURNS, poisoned=poisoned_history())
    assert run.sdk_version == PINNED and run.model == "responses" and run.error == ""
    assert [t.met for t in run.turns] == ["raised"] * TURNS
    assert all(t.raised.endswith(f"HTTP 400 at /v1/responses: {NO_CALL}") for t in run.turns)
    assert all(t.raised.startswith("openai.BadRequestError") for t in run.turns)
    usable = session_usable(run)
    assert usable.holds is False and usable.raised == tuple(range(1, TURNS + 1))
    assert holds(run)["compaction_runs"] is False and not any(t.compacted for t in run.turns)
    assert [b - a for a, b in zip(run.lengths, run.lengths[1:], strict=False)] == [1] * (TURNS - 1)
    (record, *_) = liveness_records([run])
    assert record.session_usable is False and NO_CALL in record.raised


def test_liveness_clean_control_is_answered_and_usable_on_the_pinned_release() -> None:
    run = run_situation("clean", "input", TURNS)
    assert run.model == "responses" and [t.met for t in run.turns] == ["answered"] * TURNS
    assert all(t.raised == "" for t in run.turns)
    assert session_usable(run) == UsableVerdict(True)
    assert holds(run) == {"compaction_runs": True, "history_bounded": True}


def test_liveness_scripted_model_is_reachable_by_name_and_predicts_the_refusal() -> None:
    """``model="scripted"``: the scripted model answers what the API refuses, and the turn that
    sent the orphan output raises the stand-in's prediction of the API's 400; the scripted
    answer let that turn compact, so the later ones send nothing unpaired and are answered."""
    run = run_situation("poisoned", "input", TURNS, poisoned=poisoned_history(), model="scripted")
    first, *rest = run.turns
    assert run.model == "scripted" and first.met == "raised"
    assert first.raised.startswith(PREDICTED) and "No tool call found" in first.raised
    assert "orphan output pending-c1 to the model" in first.sent
    assert [t.met for t in rest] == ["answered"] * (TURNS - 1)
    assert all(t.sent == () for t in rest)
    assert session_usable(run).holds is False
    assert run.sent == ("pending-c1",)


def test_liveness_workaround_retires_only_a_call_the_model_no_longer_sees() -> None:
    """The retired call was in no model input after the user moved on (the SDK dropped it)."""
    from approval_compaction.openai_agents.driver import converse
    from approval_compaction.openai_agents.situations import later, situation_setup, situation_steps

    setup = situation_setup("abandoned", "input", wrap=defer_compaction_while_pending)
    transcript = converse(setup, [*situation_steps("abandoned"), *later(2)])
    first_later = transcript.turns[1].stage
    assert first_later is not None
    sent = [i for request in first_later.model_inputs for i in request]
    assert not [i for i in sent if i.get("call_id") == "pending-c1"]


def test_liveness_a_case_continued_on_the_pinned_release_is_refused_after_the_bug() -> None:
    """The study's first case on 0.23.1 (the resume stores the output alone): every later turn
    raises the 400 over the API's rules; on the scripted model it kept compacting."""
    run = run_case_continued(Case(), "input", TURNS)
    assert session_usable(run).holds is False
    assert all(NO_CALL in t.raised for t in run.turns)
    scripted = run_case_continued(Case(), "input", TURNS, model="scripted")
    assert session_usable(scripted).holds is True
    assert holds(scripted) == {"compaction_runs": True, "history_bounded": True}


def test_liveness_failed_turns_are_an_error_not_a_verdict() -> None:
    run = run_situation("clean", "previous_response_id", 0)
    assert run.turns == () and [v.holds for v in judge_liveness(run)] == [None, None]


def test_a_release_without_hosted_mcp_records_why_the_mcp_situations_did_not_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import agents

    monkeypatch.delattr(agents, "HostedMCPTool")
    for name in HOSTED:
        run = run_situation(name, "input", TURNS)
        assert run.error == "release lacks agents.HostedMCPTool" and run.turns == ()
        assert [v.holds for v in judge_liveness(run)] == [None, None]
    assert situation_lacks("abandoned") == ""


def test_a_release_without_state_json_records_why_no_late_resume_ran(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import agents

    monkeypatch.delattr(agents.RunState, "to_json")
    assert situation_lacks("resumed") == "release lacks RunState.to_json/from_json"
    assert situation_lacks("mcp_resumed").endswith("RunState.to_json/from_json")


def test_liveness_pinned_release_compacts_an_abandoned_mcp_request_away() -> None:
    """0.23.1 sends the unanswered request to the compaction endpoint in ``input`` mode (at the
    pause), and keeps compacting after it: the request is gone from the store."""
    for mode in LIVENESS_MODES:
        run = run_situation("mcp_abandoned", mode, TURNS)
        assert holds(run) == {"compaction_runs": True, "history_bounded": True}
        assert not any(t.unpaired for t in run.turns)
        assert run.own_sent == (("pending-mcpr1",) if mode == "input" else ())


def test_liveness_pinned_release_stores_a_late_output_without_its_call() -> None:
    """0.23.1 compacts the abandoned call away while the state is kept, so the late resume
    stores its output alone, and the next turn sends it."""
    run = run_situation("resumed", "input", TURNS)
    verdict = resume_paired(run)
    assert verdict.holds is False and verdict.sent == ("pending-c1",)
    assert verdict.stored and verdict.stored[0].startswith("orphan output function_call_output")


@pytest.mark.parametrize("name", LATE)
def test_late_resume_with_the_workaround_is_what_the_committed_runs_say(name: str) -> None:
    """The workaround's late resume, run again here, judged as ``data/liveness.json`` holds it
    (whatever the workaround does: its outcome is read from the runs, not typed here)."""
    header, runs = load_liveness(paths.DATA_FILES.liveness)
    run = run_situation(name, "input", header["turns"], wrap=defer_compaction_while_pending)
    key = (name, run.sdk_version, "input", True)
    (committed,) = [r for r in runs if (r.scenario, r.sdk_version, r.mode, r.workaround) == key]
    assert resume_paired(run) == resume_paired(committed)
    assert holds(run) == holds(committed)


def _newest() -> environments.Environment:
    return needs.release(NEWEST)


@pytest.mark.releases
def test_liveness_newest_release_keeps_a_pinned_call_and_stays_bounded() -> None:
    """0.24.0 after an abandoned approval: every later turn compacts what follows the pinned
    call (their user messages kept, as the API keeps them), so the history stays bounded while
    the call stays stored; the workaround retires the call."""
    env = _newest()
    with Worker(str(env.python), environments.isolated_environ()) as worker:
        stuck = run_situation("abandoned", "input", TURNS, worker=worker)
        healed = run_situation(
            "abandoned", "input", TURNS, worker=worker, wrap=defer_compaction_while_pending
        )
    assert stuck.sdk_version == NEWEST
    assert holds(stuck) == {"compaction_runs": True, "history_bounded": True}
    assert all([p.key for p in turn.unpaired] == ["pending-c1"] for turn in stuck.turns)
    assert holds(healed) == {"compaction_runs": True, "history_bounded": True}
    assert not any(turn.unpaired for turn in healed.turns)


@pytest.mark.releases
def test_liveness_newest_release_waits_for_an_abandoned_mcp_request_for_good() -> None:
    """0.24.0 never compacts after an unanswered hosted MCP approval request, in any mode, and
    sends the request in every later model input; a late resume that answers it stores nothing
    unpaired, and while it waits its request is sent without its response (judged both ways; no
    public source gives the API's rule for it)."""
    from approval_compaction.openai_agents.driver import converse
    from approval_compaction.openai_agents.situations import (
        MCP_REQUEST_ID,
        later,
        situation_setup,
        situation_steps,
    )

    env = _newest()
    with Worker(str(env.python), environments.isolated_environ()) as worker:
        stuck = [run_situation("mcp_abandoned", m, TURNS, worker=worker) for m in LIVENESS_MODES]
        resumed = run_situation("mcp_resumed", "input", TURNS, worker=worker)
        steps = [*situation_steps("mcp_abandoned"), *later(2)]
        transcript = converse(situation_setup("mcp_abandoned", "input"), steps, worker=worker)
    assert all(holds(r) == {"compaction_runs": False, "history_bounded": False} for r in stuck)
    for turn in transcript.turns[1:]:
        assert turn.stage is not None and turn.stage.model_inputs
        for request in turn.stage.model_inputs:
            assert [i for i in request if i.get("id") == MCP_REQUEST_ID]
    verdict = resume_paired(resumed)
    assert verdict.stored == () and verdict.sent == (MCP_REQUEST_ID,), verdict


@pytest.mark.releases
def test_liveness_newest_release_is_refused_on_a_poisoned_store_and_records_it() -> None:
    """0.24.0 given the store 0.23.1 poisoned: the model raises at every later turn in the
    release's own interpreter, and the run records each refusal instead of ending there."""
    env = _newest()
    with Worker(str(env.python), environments.isolated_environ()) as worker:
        run = run_situation("poisoned", "input", TURNS, poisoned=poisoned_history(), worker=worker)
    assert run.sdk_version == NEWEST and run.error == "" and len(run.turns) == TURNS
    assert all(t.met == "raised" and t.raised.endswith(NO_CALL) for t in run.turns)
    assert session_usable(run).holds is False


def test_run_liveness_tells_the_progress_each_run_as_it_ends() -> None:
    bar = Progress("liveness", stream=io.StringIO())
    runs = run_liveness(1, modes=("input",), cases=[Case()], poisoned=[], progress=bar)
    assert bar.done == len(runs) == liveness_count([Case()], ("input",))
    assert [r.scenario for r in runs] == [*SITUATIONS, Case().label]


def test_liveness_command_without_the_newer_environment_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "liveness.json"
    code = main(["liveness", "--turns", "1", "--envs", str(tmp_path), "--output", str(output)])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no environment for openai-agents ") and err.count("\n") == 1
    assert not output.exists()  # nothing written


def test_liveness_command_model_is_one_of_the_wirings(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["liveness", "--model", "lenient"])
    assert "invalid choice: 'lenient'" in capsys.readouterr().err
