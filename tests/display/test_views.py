"""Views of one case stage by stage, on a hand-built run shaped like the bug, and end to end."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

from approval_compaction.display.frames import DIFF_COLUMNS, ITEM_COLUMNS
from approval_compaction.display.views import (
    compaction_table,
    diff_summary,
    scope,
    sent_table,
    side_by_side,
    stage_diff,
    stage_summary,
    stage_table,
    state_items_table,
    stored_before,
)
from approval_compaction.openai_agents.harness import run_case
from approval_compaction.study.capture import STAGES, CaseRun, Stage
from approval_compaction.study.scenario import Case

Item = dict[str, Any]
Q1: Item = {"role": "user", "content": "first question"}
Q2: Item = {"role": "user", "content": "next question"}
CALL: Item = {
    "type": "function_call",
    "call_id": "pending-c1",
    "name": "protected_lookup",
    "arguments": '{"value": "v"}',
}
OUTPUT: Item = {"type": "function_call_output", "call_id": "pending-c1", "output": "synthetic:v"}
SUMMARY: Item = {"type": "compaction", "id": "compaction-1", "encrypted_content": "summary-1"}
A1: Item = {"type": "message", "role": "assistant", "content": [{"text": "finished"}]}
A2: Item = {"type": "message", "role": "assistant", "content": [{"text": "next answer"}]}
ENTRY: Item = {"type": "tool_approval_item", "raw_item": CALL}


def bug_run() -> CaseRun:
    """The pinned SDK's story, typed out: compaction at the pause drops the pending call."""
    return CaseRun(
        Case(),
        "0.0.0",
        [
            Stage(
                "pause",
                stored=[SUMMARY],
                model_inputs=[[Q1]],
                compaction_inputs=[[Q1, CALL]],
                interruptions=[CALL],
                warnings=["openai.agents: skipped compaction: history: incomplete"],
            ),
            Stage("round_trip", stored=[SUMMARY], state_items={"generated_items": [ENTRY]}),
            Stage(
                "resume",
                stored=[SUMMARY, OUTPUT, A1],
                model_inputs=[[Q1, CALL, OUTPUT]],
                dispatches=1,
            ),
            Stage(
                "next_turn",
                stored=[SUMMARY, OUTPUT, A1, Q2, A2],
                model_inputs=[[Q2], [SUMMARY, OUTPUT, A1, Q2]],
                warnings=["openai-agents: late"],
            ),
        ],
        approvals=1,
        dispatches=1,
    )


STOPPED = CaseRun(Case(), "0.0.0", [Stage("pause", stored=[Q1, CALL], interruptions=[CALL])], 1, 0)


def test_views_stage_table_is_the_stored_history_with_statuses() -> None:
    table = stage_table(bug_run(), "resume")
    assert table["type"].tolist() == ["compaction", "function_call_output", "message"]
    assert table["status"].tolist() == ["compaction summary", "orphan output", ""]
    assert table["call_id"].tolist() == ["", "pending-c1", ""]


def test_views_stage_table_reads_the_paused_call_as_pending() -> None:
    assert stage_table(STOPPED, "pause")["status"].tolist() == ["", "pending approval"]


@pytest.mark.parametrize(
    "view", [stage_table, sent_table, compaction_table], ids=["stored", "sent", "compaction"]
)
def test_views_stage_not_reached_is_an_empty_table(view: Any) -> None:
    table = view(STOPPED, "next_turn")
    assert table.empty and table.columns.tolist() == ITEM_COLUMNS[1:]


def test_views_sent_table_is_the_last_request_unless_asked() -> None:
    run = bug_run()
    assert sent_table(run, "next_turn")["type"].tolist() == [
        "compaction",
        "function_call_output",
        "message",
        "message",
    ]
    assert sent_table(run, "next_turn", request=0)["preview"].tolist() == ["next question"]
    assert sent_table(run, "next_turn")["status"].tolist()[1] == "orphan output"


def test_views_compaction_table_shows_the_pending_call_sent_to_compaction() -> None:
    run = bug_run()
    table = compaction_table(run, "pause")
    assert table["status"].tolist() == ["", "pending approval"]
    assert compaction_table(run, "resume").empty


def test_views_stored_before_is_the_previous_stage_history() -> None:
    run = bug_run()
    assert stored_before(run, "pause") == []
    assert stored_before(run, "resume") == [SUMMARY]
    assert stored_before(run, "next_turn") == [SUMMARY, OUTPUT, A1]
    assert stored_before(STOPPED, "next_turn") == []


def test_views_stored_before_skips_the_stages_a_refused_pause_left_out() -> None:
    """After a refused pause (``auto`` mode) the case goes from the pause to the next turn: that
    turn started from the pause's store, not from an empty one."""
    refused = CaseRun(
        Case(), "0.0.0", [Stage("pause", stored=[Q1, CALL]), Stage("next_turn", [])], 1, 0
    )
    assert stored_before(refused, "next_turn") == [Q1, CALL]


def test_views_stage_diff_sets_stored_against_the_last_request() -> None:
    diff = stage_diff(bug_run(), "next_turn")
    assert diff.columns.tolist() == DIFF_COLUMNS
    assert diff["side"].tolist() == ["both", "both", "both", "only sent"]
    sent = diff.set_index("type").loc["function_call_output"]
    assert (sent["call_id"], sent["status"]) == ("pending-c1", "orphan output")


def test_views_stage_diff_of_the_resume_shows_the_call_only_sent() -> None:
    """The resumed input is rebuilt from the state: the call is sent though no longer stored."""
    diff = stage_diff(bug_run(), "resume")
    only_sent = diff[diff["side"] == "only sent"]
    assert only_sent["type"].tolist() == ["message", "function_call", "function_call_output"]
    assert set(only_sent["status"]) == {"", "paired call", "paired output"}
    assert diff[diff["side"] == "only stored"]["type"].tolist() == ["compaction"]


def test_views_stage_summary_counts_and_names_faults_per_stage() -> None:
    summary = stage_summary(bug_run())
    assert summary.index.tolist() == list(STAGES)
    assert summary["stored_items"].tolist() == [1, 1, 3, 5]
    assert summary["model_requests"].tolist() == [1, 0, 1, 2]
    assert summary["compaction_requests"].tolist() == [1, 0, 0, 0]
    assert summary["tool_dispatches"].tolist() == [0, 0, 1, 0]
    assert summary["stored: orphan outputs"].tolist() == ["", "", "pending-c1", "pending-c1"]
    assert summary["to model: orphan outputs"].tolist() == ["", "", "", "pending-c1"]
    assert set(summary["to model: open calls"]) == {""}
    assert summary["to compaction: open calls"].tolist() == ["pending-c1", "", "", ""]
    assert set(summary["to compaction: orphan outputs"]) == {""}
    assert set(summary["stored: open calls"]) == {""}


def test_views_stage_summary_lists_several_ids_sorted_once() -> None:
    other = {**CALL, "call_id": "a-c0"}
    run = CaseRun(
        Case(), "0.0.0", [Stage("pause", [], compaction_inputs=[[CALL, other], [CALL]])], 1, 0
    )
    assert stage_summary(run).loc["pause", "to compaction: open calls"] == "a-c0, pending-c1"


def test_views_state_items_table_unwraps_run_items() -> None:
    run = bug_run()
    table = state_items_table(run)
    assert table.index.names == ["list", "position"]
    row = table.loc[("generated_items", 0)]
    assert (row["run_item"], row["type"], row["call_id"]) == (
        "tool_approval_item",
        "function_call",
        "pending-c1",
    )
    assert row["status"] == "pending approval"


def test_views_state_items_table_keeps_plain_input_items_and_empty_lists() -> None:
    stage = Stage("round_trip", [], state_items={"original_input": [Q1], "session_items": []})
    table = state_items_table(CaseRun(Case(), "0.0.0", [stage], 1, 0))
    assert table.loc[("original_input", 0), "run_item"] == ""
    assert table.loc[("original_input", 0), "preview"] == "first question"
    assert "session_items" not in table.index.get_level_values("list")


def test_views_state_items_table_without_a_json_boundary_is_empty() -> None:
    table = state_items_table(STOPPED)
    assert table.empty and "run_item" in table.columns


def test_views_side_by_side_pads_the_shorter_frame() -> None:
    left = pd.DataFrame({"type": ["a", "b", "c"]}, index=[5, 6, 7])
    right = pd.DataFrame({"type": ["x"]})
    table = side_by_side({"unfixed": left, "workaround": right})
    assert table.columns.tolist() == [("unfixed", "type"), ("workaround", "type")]
    assert table.index.tolist() == [0, 1, 2]
    assert table[("workaround", "type")].tolist() == ["x", "", ""]


def test_views_diff_summary_covers_stages_that_sent_a_request() -> None:
    summary = diff_summary(bug_run())
    assert summary.index.tolist() == ["pause", "resume", "next_turn"]
    assert summary.loc["next_turn"].to_dict() == {
        "in_both": 3,
        "only_stored": 0,
        "only_sent": 1,
        "orphan_outputs_sent": "pending-c1",
        "open_calls_sent": "",
    }
    assert summary.loc["resume", "orphan_outputs_sent"] == ""


def test_views_a_call_sent_without_its_output_is_named_in_both_summaries() -> None:
    """The other way round: a call the model is sent without its output (google-adk's lost
    call, 2.5.0-2.9.2) is a fault of what was sent, named where an orphan output is."""
    sent = Stage("next_turn", [Q1, CALL], model_inputs=[[Q1, CALL, Q2]])
    run = CaseRun(Case(), "0.0.0", [sent], 1, 0)
    assert stage_summary(run).loc["next_turn", "to model: open calls"] == "pending-c1"
    assert stage_summary(run).loc["next_turn", "stored: open calls"] == "pending-c1"
    assert diff_summary(run).loc["next_turn", "open_calls_sent"] == "pending-c1"


def test_views_next_turn_diff_shows_the_lost_call_on_the_pinned_sdk() -> None:
    diff = stage_diff(run_case(Case()), "next_turn")
    sent = diff[diff["sent_at"] != ""]
    assert "function_call" not in set(sent["type"])
    assert sent[sent["type"] == "function_call_output"]["status"].tolist() == ["orphan output"]


def test_views_scope_names_every_hook_answer_of_a_run_and_its_control() -> None:
    """Issue 61: a table of a run beside its hook-off control was titled with the first run's
    hook only."""
    on, off = CaseRun(Case(), "0.0.0", [], 0, 0), CaseRun(Case(compaction="off"), "0.0.0", [], 0, 0)
    assert scope(on) == "openai-agents 0.0.0, input mode, hook always says yes, scripted model"
    both = scope(on, off)
    assert both.endswith(", hook always says yes and hook never says yes, scripted model")
    assert scope(on, on) == scope(on)


def test_views_scope_of_an_adk_run_names_the_apps_compaction_not_a_hook() -> None:
    """Issue 61: ADK's titles said "hook always says yes"; ADK has no hook, its App compacts;
    r13: a setting is named as notebook 13 names it (not a "kind")."""
    run = CaseRun(Case(), "2.13.0", [], 0, 0, mode="window-0", sdk="adk")
    said = scope(run)
    assert said == (
        "google-adk 2.13.0, setting window-0, the App compacting after every invocation, "
        "scripted model"
    )
    assert "hook" not in said
