"""Check: whether and when the bug strikes, from runs on the installed SDK."""

from __future__ import annotations

import needs
import pytest

from approval_compaction.doctor.check import (
    NOT_RUN,
    PAUSED,
    REJECTED,
    CheckError,
    check_answer,
    check_config,
    check_liveness,
    liveness_answer,
    replayed_check,
    run_check,
)
from approval_compaction.js.check import JS


def default_threshold() -> int:
    """The SDK's default trigger threshold, read from the installed SDK."""
    from agents.memory import openai_responses_compaction_session as module

    return int(getattr(module, "DEFAULT_COMPACTION_THRESHOLD", 0))


def test_default_configuration_strikes_when_the_pause_reaches_the_threshold() -> None:
    """With no trigger and the default mode (``auto``, which compacts by the response's
    ``previous_response_id``), the bug strikes exactly at the pause positions where the SDK's own
    hook compacts: the API refuses the compaction of the call waiting for approval, so the
    user's run raises there and no state comes back to approve or reject (openai-agents#2317)."""
    threshold = default_threshold()
    rows = run_check(check_config(), turns=threshold)
    struck = [r for r in rows if r.affected]
    assert struck, "the SDK's defaults are expected to be affected on the pinned release"
    for row in rows:
        assert row.affected == row.compacted_at_pause
        assert (row.at_pause != PAUSED) == row.compacted_at_pause
        assert (row.stored_after_resume == NOT_RUN) == row.compacted_at_pause
        assert row.pending_call_stored  # the call stays stored: the compaction was refused
    assert {r.at_pause for r in struck} == {
        "HTTP 400: No tool output found for function call pending-c1."
    }
    assert all(r.candidates_at_pause >= threshold for r in struck)
    answer = check_answer(check_config(), rows, "x")
    assert "affected at" in answer and "`openai.BadRequestError`" in answer


def test_input_mode_is_struck_at_the_next_turn_instead() -> None:
    """With ``compaction_mode="input"`` the compaction goes through (what the API does with an
    open call there is not public) and the decision's output is sent without its call."""
    rows = run_check(check_config(mode="input", trigger="always"), turns=1)
    assert all(r.at_pause == PAUSED and r.next_turn == REJECTED for r in rows)
    assert all(r.stored_after_resume == "poisoned" for r in rows)


def test_a_trigger_that_never_compacts_is_not_affected() -> None:
    rows = run_check(check_config(trigger="never"), turns=3)
    assert all(r.next_turn != REJECTED for r in rows)
    assert "not affected" in check_answer(check_config(trigger="never"), rows, "x")


@pytest.mark.parametrize(
    ("mode", "trigger", "turns"),
    [("input", "always", 2), ("auto", "3", 4), ("previous_response_id", "2", 3)],
)
def test_forked_positions_give_the_rows_replayed_from_the_start(
    mode: str, trigger: str, turns: int
) -> None:
    """Each pause position forks the store after its plain turns instead of replaying them:
    the rows are those of every position replayed from the start."""
    cfg = check_config(mode, trigger)
    assert run_check(cfg, turns) == replayed_check(cfg, turns)


def test_liveness_holds_even_where_the_pause_was_refused() -> None:
    """With the SDK's defaults, a pause whose compaction the API refused leaves the call stored
    without its output, and the store stuck; the later turns still compact what follows it
    (their user messages kept, as the API keeps them), so the history stays bounded at every
    position. The rows are the check's own."""
    threshold, cfg = default_threshold(), check_config()
    release, rows, keeps = check_liveness(cfg, threshold, later=3)
    assert rows == run_check(cfg, threshold)
    refused = {r.prior_turns for r in rows if r.at_pause != PAUSED}
    assert refused and keeps.keeps_compacting and not keeps.broken()
    assert {p for p, word in enumerate(keeps.stored) if word == "stuck"} == refused
    answer = liveness_answer(cfg, keeps, release)
    assert f"keep compacting at all {threshold + 1} positions" in answer


@pytest.mark.parametrize("model", ["scripted", "responses"])
def test_a_refused_pause_then_later_turns_leaves_a_stuck_store(model: str) -> None:
    """Issue 21: after the API refused the pause's compaction (no state came back to resume),
    later turns leave the call pinned before their user messages, and the doctor calls the
    store stuck on both wirings: the scripted client used to drop those user messages when it
    compacted, which the stand-in does not, and the store looked pending."""
    from approval_compaction.doctor.check import after_prior
    from approval_compaction.doctor.verdict import STUCK, judge
    from approval_compaction.openai_agents.driver import Continue, Setup, converse
    from approval_compaction.openai_agents.situations import later

    cfg = check_config(trigger="always")
    setup = Setup("auto", "always", go_on=True, model=model)  # type: ignore[arg-type]
    run = converse(setup, [Continue(1), *after_prior(cfg), *later(2)])
    pause = run.stage("pause").outcome
    assert not pause.ok and pause.http_status == 400
    stored = next(t.stage.stored for t in reversed(run.turns) if t.stage)
    report = judge("check", stored)
    assert report.verdict == STUCK and report.open_calls == ("pending-c1",)


def test_a_poisoned_session_is_refused_at_every_later_turn_not_said_to_keep_compacting() -> None:
    """In ``input`` mode with a trigger that always compacts, the pinned release stores the
    decision's output without its call at every position; the check's runs answer as the
    Responses API does, so each later turn raises the API's 400, and the answer says the
    sessions are refused, where a lenient model would have called them compacting."""
    from approval_compaction.analysis.liveness import session_usable

    cfg = check_config(mode="input", trigger="always")
    release, rows, keeps = check_liveness(cfg, 2, later=3)
    poisoned = {r.prior_turns for r in rows if r.next_turn == REJECTED}
    assert poisoned == {0, 1, 2}, f"openai-agents {release}: {rows}"
    usable = [session_usable(run) for run in keeps.runs]
    assert {p for p, u in enumerate(usable) if u.holds is False} == poisoned
    assert all(u.raised == (1, 2, 3) for p, u in enumerate(usable) if p in poisoned)
    assert all("No tool call found for function call output" in u.text for u in usable if u.raised)
    answer = liveness_answer(cfg, keeps, release)
    assert "the API refuses every later turn" in answer and "keep compacting" not in answer
    assert answer.endswith("(`doctor repair STORE --apply` on the application's store).")
    # Issue 57: the JS check's closing advice named `doctor repair`, a command for Python stores
    js = liveness_answer(cfg, keeps, release, JS)
    assert "doctor repair" not in js and "`doctor items FILE --output healed.json`" in js


def test_liveness_with_no_later_turn_is_not_judged() -> None:
    release, _, keeps = check_liveness(check_config(trigger="never"), 1, later=0)
    assert "no later turn was run" in liveness_answer(check_config(), keeps, release)


def test_liveness_with_one_later_turn_is_not_judged() -> None:
    """Issue 57: one later turn cannot show a session that stops compacting (the first later
    turn compacts; a stall shows at the second), so it is not called compacting."""
    cfg = check_config(trigger="never")
    release, _, keeps = check_liveness(cfg, 0, later=1)
    answer = liveness_answer(cfg, keeps, release)
    assert "continued for 1 later turn with" in answer and "keep compacting" not in answer
    assert answer.endswith("(run --later 2 or more; the default is 10).")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mode": "sideways"}, "unknown compaction mode"),
        ({"trigger": "-3"}, "unknown trigger"),
        ({"decision": "maybe"}, "unknown decision"),
    ],
    ids=["mode", "trigger", "decision"],
)
def test_bad_configuration_is_one_line(kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(CheckError, match=message):
        check_config(**kwargs)


def test_check_config_takes_the_pausing_tool_and_an_abandoned_decision() -> None:
    from approval_compaction.doctor.check import CheckError

    assert (
        check_config(tool="mcp", decision="abandon")
        .describe()
        .endswith("abandon, a hosted MCP tool")
    )
    with pytest.raises(CheckError, match="unknown tool 'shell': function or mcp"):
        check_config(tool="shell")
    with pytest.raises(CheckError, match="approve, reject or abandon"):
        check_config(decision="later")


def test_check_with_a_hosted_mcp_tool_meets_the_pinned_bug() -> None:
    """The pinned release compacts at an MCP approval pause too: the request is summarised
    away, and the next turn sends the approval's response without it."""
    rows = run_check(check_config(mode="input", trigger="always", tool="mcp"), turns=0)
    assert [(r.compacted_at_pause, r.pending_call_stored, r.next_turn) for r in rows] == [
        (True, False, "rejected")
    ]


@pytest.mark.releases
def test_check_later_counts_an_abandoned_mcp_request_as_stuck_on_the_newest_release() -> None:
    """Will my sessions keep compacting, with a hosted MCP tool whose approvals users leave
    undecided? On 0.24.0 they stop (it waits for a response no run sends), and the doctor
    judges those stores stuck, pinned by the request (before the one rule, pending)."""
    from approval_compaction.doctor.check import check_liveness, liveness_answer
    from approval_compaction.lab.mechanism.catalogue import NEWEST
    from approval_compaction.lab.releases import environments
    from approval_compaction.openai_agents.worker import Worker

    env = needs.release(NEWEST)
    cfg = check_config(mode="input", trigger="always", decision="abandon", tool="mcp")
    with Worker(str(env.python), environments.isolated_environ()) as worker:
        release, rows, keeps = check_liveness(cfg, turns=0, later=2, worker=worker)
    assert release == NEWEST and not keeps.keeps_compacting
    assert keeps.stored == ("stuck",)
    (_, broken), *_ = keeps.broken()
    assert broken.detail.pin is not None and broken.detail.pin.key == "mcpr-1"
    assert liveness_answer(cfg, keeps, release).endswith("`doctor scan` judges those stores stuck.")


def test_check_config_takes_the_store_setting_and_keeps_it_out_of_files_when_unset() -> None:
    from approval_compaction.doctor.check import CheckError, check_json, from_json

    unstored = check_config(store="false")
    assert unstored.response_store is False and unstored.setup().response_store is False
    assert "store=False" in unstored.describe()
    assert "store" not in check_config().describe()
    assert "response_store" not in check_json(check_config(), [], "0.23.1")["config"]
    assert from_json(check_json(unstored, [], "0.23.1"))[1] == unstored
    with pytest.raises(CheckError, match="unknown store setting 'maybe': default, true, false"):
        check_config(store="maybe")
