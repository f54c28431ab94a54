"""Item lists as frames with statuses in words, and stored-against-sent diffs."""

from __future__ import annotations

from approval_compaction.display.frames import (
    diff_frame,
    diff_text,
    highlight,
    items_frame,
    requests_frame,
)
from approval_compaction.wire.standin import Exchange

CALL = {"type": "function_call", "call_id": "c1", "name": "tool", "arguments": "{}"}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "done"}
USER = {"role": "user", "content": "question"}
SUMMARY = {"type": "compaction", "id": "x", "encrypted_content": "summary"}


def test_frames_status_names_each_pairing_fault() -> None:
    frame = items_frame([SUMMARY, OUTPUT, USER])
    assert frame["status"].tolist() == ["compaction summary", "orphan output", ""]


def test_frames_open_call_awaiting_approval_reads_pending() -> None:
    assert items_frame([USER, CALL], pending={"c1"})["status"].tolist() == ["", "pending approval"]
    assert items_frame([USER, CALL])["status"].tolist() == ["", "open call"]


def test_frames_columns_carry_type_call_id_and_tool() -> None:
    row = items_frame([CALL, OUTPUT]).iloc[0]
    assert (row["type"], row["call_id"], row["tool"], row["status"]) == (
        "function_call",
        "c1",
        "tool",
        "paired call",
    )


def test_frames_diff_aligns_by_item_identity() -> None:
    diff = diff_frame([USER, CALL, OUTPUT], [SUMMARY, OUTPUT])
    assert list(zip(diff["side"], diff["type"], strict=True)) == [
        ("only stored", "message"),
        ("only stored", "function_call"),
        ("only sent", "compaction"),
        ("both", "function_call_output"),
    ]


def test_frames_diff_judges_sent_items_within_the_sent_list() -> None:
    diff = diff_frame([CALL, OUTPUT], [OUTPUT])
    sent = diff[diff["sent_at"] != ""]
    assert sent["status"].tolist() == ["orphan output"]


def test_frames_diff_text_marks_sides() -> None:
    text = diff_text(diff_frame([CALL], [OUTPUT]))
    assert text.splitlines() == [
        "- function_call c1: {}  [open call]",
        "+ function_call_output c1: done  [orphan output]",
    ]


def test_frames_highlight_colours_faults_and_prints_reproducibly() -> None:
    shown = highlight(items_frame([OUTPUT, USER]))
    html = shown._repr_html_()
    assert "#f5b7b1" in html and "T_items" in html
    assert " at 0x" not in repr(shown) and "orphan output" in repr(shown)


def test_preview_shows_a_summary_items_text() -> None:
    """A compaction item that carries its summary as text (LangChain's and ADK's, mapped by
    their drivers) previews that text, not ``null``."""
    from approval_compaction.display.frames import preview

    assert preview({"type": "compaction", "summary": "the user asked for a record"}) == (
        "the user asked for a record"
    )


def test_frames_requests_name_the_endpoint_as_the_client_requested_it() -> None:
    """Issue 61 (r7): 01's request table wrote `/responses` where 09 and the README write
    `/v1/responses` for the same endpoint; it now shows the path the SDK's client requested."""
    body = {"input": [USER, OUTPUT]}
    sent = [Exchange("POST", "/v1/responses", body, 400, "No tool call found")]
    row = requests_frame(sent).iloc[0]
    assert row["endpoint"] == "/v1/responses"
    assert row["unpaired in it"] == "orphan output c1"
    assert row["answer"] == "400 No tool call found"
