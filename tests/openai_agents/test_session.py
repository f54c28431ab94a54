"""A team's own session, stepped through (notebook 15): read from a store by its id or from an
export of either SDK, its next question on a copy against the stand-in, and the doctor's heal."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from approval_compaction import paths
from approval_compaction.errors import InvestigationError
from approval_compaction.lab.findings.headlines import stop_new_sessions
from approval_compaction.lab.findings.load import Findings
from approval_compaction.lab.plugins import plugin
from approval_compaction.openai_agents.session import (
    SessionError,
    compaction_frame,
    compaction_of,
    diagnosis_frame,
    healed_frame,
    healed_items,
    healed_sent_frame,
    load_session,
    next_turn,
    sent_items,
    session_answer,
    session_verdict,
    stop_words,
    turn_answers,
    write_example,
)

EXAMPLE = paths.ROOT / "notebooks" / "examples" / "poisoned.db"
USER = {"role": "user", "content": "q"}
CALL = {"type": "function_call", "call_id": "c1", "name": "t", "arguments": "{}"}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "x"}


def rows(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute(
            "SELECT s.session_id, s.created_at, s.updated_at, m.id, m.created_at, m.message_data "
            "FROM agent_sessions s JOIN agent_messages m USING (session_id) ORDER BY m.id"
        ).fetchall()


def test_the_committed_example_is_what_the_installed_release_writes(tmp_path: Path) -> None:
    """The example store is the pinned release's own: written again, every row the same (its
    times one fixed instant)."""
    write_example(tmp_path / "again.db")
    assert rows(tmp_path / "again.db") == rows(EXAMPLE)
    assert {row[1] for row in rows(EXAMPLE)} == {"2026-01-01 00:00:00"}


def test_a_poisoned_store_is_refused_and_its_healed_list_is_answered(
    tmp_path: Path, committed: Findings
) -> None:
    store = tmp_path / "store.db"
    shutil.copyfile(EXAMPLE, store)
    before = store.read_bytes()
    session = load_session(store, "case-session")
    report = session_verdict(session)
    assert (report.verdict, report.orphan_outputs) == ("poisoned", ("pending-c1",))
    turn = next_turn(session.items)
    assert [i.get("call_id") for i in sent_items(turn) if i.get("type")].count("pending-c1") == 1
    ((path, status, error),) = turn_answers(turn)
    assert (path, status) == ("/v1/responses", 400) and "pending-c1" in error
    cured = healed_items(session)
    after = next_turn(cured)
    assert [status for _, status, _ in turn_answers(after)] == [200, 200]
    compacted, stored = compaction_of(after)
    assert compacted and stored[0]["type"] != "function_call_output"
    said = session_answer(session, report, turn, after, stop_new_sessions(committed))
    assert said.startswith("**Answer.** `case-session` (store.db) is **poisoned**")
    assert "HTTP 400" in said and "is answered and compaction runs" in said
    assert said.index("notebook 06: upgrade") < said.index("`doctor repair STORE --all --apply`")
    # r9: "upgrading alone makes such a store usable" was unsupported: the store keeps the output
    assert "upgrading alone" not in said and "the store keeps the orphan output" in said
    assert store.read_bytes() == before  # the team's store is only read
    counts = compaction_frame({"as stored": turn, "healed": after})
    assert counts.loc["as stored"].tolist() == [
        "HTTP 400",
        0,
        0,
        len(turn.stage("next_turn").stored),
    ]
    assert counts.loc["healed", "next question"] == "HTTP 200"
    assert counts.loc["healed", "items sent to compaction"] == len(compacted) > 0
    changed = healed_frame(session).query("side != 'both'")
    assert list(changed["side"]) == ["only stored", "only healed"]
    assert list(changed["type"]) == ["function_call_output", "message"]
    assert list(changed["stored_at"]) == ["2", ""] and list(changed["healed_at"]) == ["", "2"]
    written = changed["preview"].iloc[-1]  # the rewrite a team reads before applying it: whole
    assert written.startswith("[doctor] The tool call") and not written.endswith("…")
    assert written.endswith(session.items[2]["output"])
    # r9 (15): the healed list was predicted, never shown; as the SDK sends it, the rewrite whole
    sent = healed_sent_frame(session, after)
    assert list(sent["side"]) == ["both"] * len(cured) + ["only sent"]
    rewrite = sent[sent["status"] == "the doctor's rewrite"]
    assert list(rewrite["healed_at"]) == ["2"] and rewrite["preview"].iloc[0] == written


def test_a_healthy_export_of_either_sdk_is_answered_with_nothing_to_heal(tmp_path: Path) -> None:
    js = [{"type": "message", "role": "user", "content": "q"},
          {"type": "function_call", "callId": "c1", "name": "t", "arguments": "{}"},
          {"type": "function_call_result", "callId": "c1", "name": "t", "status": "completed",
           "output": {"type": "text", "text": "x"}}]  # fmt: skip
    for name, items, sdk in (("py.json", [USER, CALL, OUTPUT], "python"), ("js.json", js, "js")):
        (tmp_path / name).write_text(json.dumps(items))
        session = load_session(tmp_path / name)
        assert (session.sdk, session.session_id) == (sdk, name.removesuffix(".json"))
        assert [i.get("call_id") for i in session.items] == [None, "c1", "c1"]
        report = session_verdict(session)
        turn = next_turn(session.items)
        said = session_answer(session, report, turn, turn)
        assert report.verdict == "healthy" and said.endswith("Nothing to heal.")


@pytest.mark.parametrize(
    ("name", "session_id", "error"),
    [
        ("missing.db", "s", "no file at missing.db"),
        ("store.db", None, "store.db is a store: name the session to read (session_id)"),
        ("store.db", "nobody", "store.db holds no session 'nobody'"),
    ],
    ids=["no-file", "no-session-id", "no-such-session"],
)
def test_a_session_that_cannot_be_read_is_one_line_naming_why(
    tmp_path: Path, name: str, session_id: str | None, error: str
) -> None:
    shutil.copyfile(EXAMPLE, tmp_path / "store.db")
    with pytest.raises(SessionError) as raised:
        load_session(tmp_path / name, session_id)
    assert str(raised.value) == error


def test_session_stop_is_the_plugins_for_another_sdk_and_never_typed_for_python() -> None:
    """How a team stops new sessions breaking comes from the SDK's plugin (``SdkPlugin.stop``);
    openai-agents' is computed from the findings (``stop_new_sessions``), never typed here."""
    with pytest.raises(InvestigationError, match="^openai-agents' stop is computed from the"):
        stop_words("python")
    assert stop_words("js") == plugin("js").stop and "js/workaround.mjs" in stop_words("js")
    with pytest.raises(InvestigationError, match="the adk plugin says nothing"):
        stop_words("adk")


def test_the_diagnosis_frame_names_the_doctors_diagnosis_and_its_ids(tmp_path: Path) -> None:
    """Issue 61 (r11): 15 asked for the diagnosis and printed none; its one row is the doctor's
    report on the session: the diagnosis and the ids of what it found."""
    store = tmp_path / "store.db"
    shutil.copyfile(EXAMPLE, store)
    (row,) = diagnosis_frame(load_session(store, "case-session")).to_dict("records")
    assert (row["diagnosis"], row["orphan outputs"], row["open calls"]) == (
        "poisoned",
        "pending-c1",
        "none",
    )
    assert row["session"] == "case-session" and row["compactions"] == 1
