"""The JavaScript SDK's plugin: what it hands the shared code (its answer, its part of the front
page, its reports as comments, its line of the search's registry), from data/."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.js.plugin import PLUGIN, answer, comment, driven
from approval_compaction.lab import paths
from approval_compaction.lab.findings.headlines import HeadlineError
from approval_compaction.lab.plugins import REGISTRY, plugin


def test_plugin_is_registered_by_name_for_notebook_11() -> None:
    assert REGISTRY["js"] == "approval_compaction.js.plugin"
    assert plugin("js") is PLUGIN
    assert (PLUGIN.name, PLUGIN.notebook) == ("js", "11")
    assert PLUGIN.answer is answer and PLUGIN.comment is comment and PLUGIN.driven is driven


def test_plugin_answer_names_both_patches_and_what_they_leave() -> None:
    """Issue 61: 11's answer recommended the pending call's fix alone while its own table showed
    the patched SDK still stalling; r13: the answer is short, the rest is in the body; r14: the
    maintainers' action first, "retire" and "3 of the 5 pauses" gone (undefined, cryptic), the
    stall's condition (the endpoint as documented) and "by itself" said, the JS function named."""
    said = answer()
    assert "`js/fix/agents-openai-0.20.0.diff` and `js/fix/agents-openai-0.20.0-stall.diff`" in (
        said
    )
    # js-liveness.json: with both patches compaction still stops after 3 of the 5 situations
    assert said.split("**What to do.** ")[1].startswith("Maintainers: apply ")
    # r15: the action says what to do about it (the workaround's way), with no forward pointer
    assert "still stops compaction: make the session stop waiting for it, as `js/workaround" in said
    assert "retire" not in said.split("**What to do.**")[1] and "rows of the table" not in said
    assert "wrap the session in `deferCompactionWhilePending` from `js/workaround.mjs`" in said
    assert (
        "(first table: 0.20.0, the pinned release and newest)" in said
    )  # r10: both; r18: no label dump
    # js-stall.json; r15: "compaction endpoint" was undefined on the first screen (body says it)
    # r16: the stall's condition on the first screen too, as README and the body say it
    said_stall = (
        "from 0.19.0, when `/v1/responses/compact` answers as documented (the user messages, then"
        " the compaction item), compaction runs once"  # r18: "as documented" said where used
    )
    assert said_stall in said
    # r15: the search's one new break (an approved hosted MCP request, input mode) is named
    # r16: input mode's failure is the tool's own call (stage table), the MCP one the search's
    assert "from 0.17.1 `run()` throws at the next question, the tool's output stored" in said
    # r17: the Answer said "64 of 64" of every mode; input mode meets no error on 0.4.1..0.17.0
    # r19: "no error" said two things; `auto` with `store: false` meets what `input` meets
    unstored = "In `input` mode, and `auto` with `store: false`, the stand-in refuses nothing"
    assert f"{unstored} on " in said
    assert "0.4.1..0.17.0; from 0.17.1" in said
    # r17: `doctor check` heals nothing; `doctor items` does, and the fix's test is named
    assert "`doctor check --js`, then `doctor items`" in said and "pendingApproval.test.ts" in said
    assert "stall.test.ts" in said  # r18: the stall's fix has its test named too
    # r18: "the same" was unclear (does run() throw?): what the search finds, said, in its mode
    # r19: "search" and "moves" are defined in the body only: said in plain words here
    assert "Trying sequences of user steps in `input` mode (last table) finds a hosted MCP" in said
    assert "its response is stored and sent without the request" in said


def test_plugin_answer_is_short_and_scoped() -> None:
    """Issue 61 (r13): the first screen holds an answer of at most 90 words and an action of
    at most 60, scoped to the release, the transport and the mode; r14: 70 and 50; r15: the
    search's MCP break named too, 80."""
    answered, action = answer().split("**What to do.**")
    # r16: the stage table's failure and the search's apart, the stall's condition: 100/60
    # r18: the releases without `auto` said apart, "as documented" said, both tests named: 130/70
    # r19: `previous_response_id` and `store: false` named (the Answer left them out): 140/70
    assert len(answered.split()) <= 140 and len(action.split()) <= 70
    assert "0.20.0, the pinned release and newest" in answered and "Over HTTP" in answered
    # r18: "64 of 64" counted 0.3.6..0.4.0, which have no `auto` mode (no compactionMode option)
    assert "in `auto` (the default from 0.4.1, with the `compactionMode` option)" in answered
    # r19: only with `store` unset (with `store: false` it meets what `input` meets), and
    # `previous_response_id` throws there too
    assert "with `store` unset, `run()` throws" in answered
    assert "in `previous_response_id` mode, and in `auto`" in answered
    assert "throws at the pause on 59 of 59 releases, 0.4.1..0.20.0, as on 0.3.6..0.4.0," in (
        answered
    )


def test_plugin_answer_states_where_the_workaround_is_not_enough() -> None:
    """Issue 61 (r9): 11's action said the workaround simply works, while its sweep
    (js-workaround-sweep.json) shows `auto, store=False` refused at the resume on 0.3.6..0.4.0."""
    said = answer()
    assert "on 0.3.6..0.4.0 with `store: false`, upgrade to 0.4.1 first" in said


def test_plugin_answer_without_the_sweep_is_one_line_naming_the_files(tmp_path: Path) -> None:
    with pytest.raises(HeadlineError, match="data/js-sweep.json"):
        answer(tmp_path)


def test_plugin_comment_attaches_the_stall_figure_only_to_the_stall_report() -> None:
    text, attach = comment(paths.DATA, "stall")
    assert attach == (paths.DATA / "report-js-stall.png",)
    assert text == (paths.DATA / "report-js-stall.md").read_text()
    text, attach = comment(paths.DATA, "pending")
    assert attach == ()
    assert text == (paths.DATA / "report-js.md").read_text()


def test_plugin_driven_is_the_js_moves_on_the_pinned_release() -> None:
    from approval_compaction.js.moves import MOVES
    from approval_compaction.js.packages import pinned

    line = driven()
    assert line.moves is MOVES
    assert line.pinned() == pinned()
