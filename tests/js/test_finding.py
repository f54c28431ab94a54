"""The JS study's tables: releases that read the same share a row, and each error text says
where ``run()`` raises it."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from approval_compaction.js.finding import (
    as_released_modes,
    both_releases,
    cell,
    js_errors_frame,
    js_exposure_frame,
    js_ranges_frame,
    load_js,
)
from approval_compaction.lab.releases.driven import SweepRecord

PAUSE = SweepRecord(
    sdk_version="0.4.0",
    plan="auto",
    mode="auto",
    response_store=None,
    trigger="case",
    session="memory",
    cases=16,
    violating=8,
    invariants="pause_accepted",
    raised_at="pause",
    endpoint="/v1/responses/compact",
    api_message="No tool output found for function call call_standin_1.",
    not_applicable="",
)
NEXT = replace(
    PAUSE,
    plan="input",
    mode="input",
    raised_at="next_turn",
    endpoint="/v1/responses",
    api_message="No tool call found for function call output with call_id call_standin_1.",
)


def test_cell_words_what_the_user_meets_as_the_python_tables_do() -> None:
    assert cell(PAUSE) == "400 at the pause: run() throws, nothing to approve (8 of 16 cases)"
    assert cell(NEXT).startswith("400 on the next question")
    assert cell(replace(NEXT, violating=0, raised_at="")) == "no error in these cases"
    # README r21: a count on a cell with no 400 read as 8 refusals; the Python cells have none
    assert cell(replace(NEXT, raised_at="")).startswith("no error from the stand-in")
    assert "of 16 cases" not in cell(replace(NEXT, raised_at=""))
    assert cell(replace(NEXT, not_applicable="no compactionMode option")) == (
        "not run: no compactionMode option"
    )


def test_cell_says_when_a_plan_ran_with_the_option_the_release_lacks_left_out() -> None:
    """previous_response_id on @openai/agents 0.3.6 to 0.4.0: run without compactionMode, the
    release's only mode; the cell says so rather than reading as the releases with it."""
    left_out = replace(PAUSE, configured="compactionMode left out: no compactionMode option")
    assert cell(left_out) == (
        "400 at the pause: run() throws, nothing to approve (8 of 16 cases), "
        "no compactionMode option: its only mode"
    )


def test_ranges_join_consecutive_releases_that_read_the_same() -> None:
    rows = [
        PAUSE,
        NEXT,
        replace(PAUSE, sdk_version="0.4.1"),
        replace(NEXT, sdk_version="0.4.1"),
        replace(PAUSE, sdk_version="0.10.0"),
        replace(NEXT, sdk_version="0.10.0", violating=0, raised_at=""),
    ]
    frame = js_ranges_frame(rows)
    assert list(frame.index) == ["0.4.0..0.4.1", "0.10.0"]  # 0.10.0 sorts after 0.4.1
    assert list(frame["releases in range"]) == [2, 1]
    assert frame.loc["0.10.0", "input"] == "no error in these cases"


def test_as_released_modes_says_the_releases_without_the_option_have_no_auto_mode() -> None:
    """Issue 61 (r18): 11's "auto (default)" column read as a mode 0.3.6..0.4.0 has, and counted
    them among `auto`'s releases: there `auto` runs as previous_response_id, `input` is not run,
    `store: false` meets its own refusal (no response stored for the id), and the column names
    the release `auto` is the default from."""
    old = replace(PAUSE, sdk_version="0.4.0")
    rows = [
        replace(old, plan="input", mode="input", not_applicable="no compactionMode option"),
        old,
        replace(old, plan="auto-store-false"),
        replace(old, plan="previous_response_id", configured="compactionMode left out"),
        replace(NEXT, sdk_version="0.4.1"),
        replace(PAUSE, sdk_version="0.4.1"),
        replace(PAUSE, sdk_version="0.4.1", plan="auto-store-false"),
        replace(PAUSE, sdk_version="0.4.1", plan="previous_response_id"),
    ]
    frame = as_released_modes(js_ranges_frame(rows))
    assert "auto (default)" not in frame and "auto (default from 0.4.1)" in frame
    before = frame.loc["0.4.0"]
    assert before["input"] == "not run (no compactionMode option)"
    # r20: the `auto` columns say the id is sent there, not that `auto` does not exist; r22:
    # and what the user meets there, previous_response_id's, in the cell itself
    auto = "as previous_response_id (no compactionMode option): "
    assert before["auto (default from 0.4.1)"] == auto + before["previous_response_id"]
    store = "no compactionMode option, store: false: 400 at the pause (response id not found):"
    assert before["auto, store=False"].startswith(store)
    assert "its only mode" not in " ".join(before.astype(str))
    after = frame.loc["0.4.1"]  # the releases with the option read as before
    assert after["auto (default from 0.4.1)"] == cell(PAUSE)
    assert after["auto, store=False"] == cell(PAUSE)
    # r24: the README's table (both_releases) said "the id sent" where 11 said the outcome
    python = pd.DataFrame(columns=["input", "auto (default)", "previous_response_id"])
    readme = both_releases(python, rows).loc["@openai/agents 0.4.0"]
    assert readme["auto (default)"] == before["auto (default from 0.4.1)"]


def test_errors_name_where_run_throws_with_the_call_id_as_the_users() -> None:
    frame = js_errors_frame([PAUSE, NEXT, replace(PAUSE, sdk_version="0.5.0")])
    assert list(frame["raised at"]) == ["run() at the pause", "run() on the next question"]
    assert frame.loc[0, "error text"] == PAUSE.api_message
    assert frame.loc[0, "releases"] == "0.4.0..0.5.0"


def test_js_liveness_frame_names_each_patch_and_shows_the_stall_left_by_the_pending_fix() -> None:
    """Issue 61: notebook 11's answer recommended the pending call's fix while its liveness
    table's one "patched" column showed the SDK still stalling; each JS patch is its own column,
    and the committed runs show what each changes."""
    from approval_compaction.js.finding import js_liveness_frame, load_js_liveness

    frame = js_liveness_frame(load_js_liveness())
    pending, both = "patched (the pending call's fix only)", "patched (both fixes)"
    assert list(frame.columns) == [
        "what happened", "0.20.0", "with js/workaround.mjs", pending, both,
    ]  # fmt: skip
    assert frame.loc["clean", pending] == "stops compacting"  # the stall, with no approval
    assert frame.loc["clean", both] == "keeps compacting"
    assert frame.loc["abandoned", both] == "stops compacting"  # waits for an output for good
    assert (frame["with js/workaround.mjs"] == "keeps compacting").all()


def test_js_exposure_frame_names_positions_and_counts_them_alike() -> None:
    """Issue 61 (r10): the default-trigger table showed "21 | 9 | 9", a count beside a position
    a reader took for "9 of 21"."""
    found = load_js()
    assert found is not None
    frame = js_exposure_frame(found.exposure)
    assert frame.loc["input", "positions tried"] == "0..20"
    assert frame.loc["input", "positions compacted at the pause"] == "9 (1 of 21)"
    assert frame.loc["input", "positions breaking an invariant"] == "9 (1 of 21)"
