"""LangChain's plugin: the blocks and the answer it hands the shared code, from data/."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.langchain.files import FILES
from approval_compaction.langchain.plugin import (
    PLUGIN,
    MissingLangchainData,
    answer,
    verdict_block,
)


def test_plugin_names_its_notebook_blocks_and_commands() -> None:
    assert (PLUGIN.name, PLUGIN.notebook) == ("langchain", "14")
    assert set(PLUGIN.blocks) == {"langchain", "langchain-changes"}
    assert PLUGIN.answer is answer


def test_plugin_without_the_sweep_is_one_line_naming_the_file(tmp_path: Path) -> None:
    with pytest.raises(MissingLangchainData, match=FILES["sweep"]):
        verdict_block(tmp_path)


def test_plugin_answer_names_the_pinned_release_and_what_the_control_meets() -> None:
    """Issue 61: notebook 14's answer blamed the compaction step while the `none` control, with
    no step at all, is refused too: it says what the control meets, counted from the liveness
    runs, and what each step changes of it."""
    from approval_compaction.langchain.finding import load
    from approval_compaction.langchain.report import cell

    found = load()
    assert found is not None
    said = answer()
    assert said.startswith("**Answer.** ") and f"On {found.version}, the pinned release" in said
    control = [r for r in found.liveness if r.mode.startswith("none ") and r.scenario == "lost"]
    refused = {cell(r) for r in control if r.invariant == "compaction_runs"}
    assert refused == {"10 of 10 later turns refused (400 at /v1/chat/completions)",
                       "10 of 10 later turns refused (400 at /v1/responses)"}  # fmt: skip
    assert "With no compaction step at all, the *stand-in*" in said
    assert "refuses 10 of 10 later questions (HTTP 400)" in said
    assert "(the most refused of 10: keep-1 0, keep-2 1, trim 3)" in said


def test_plugin_answer_says_what_the_search_finds_the_patch_leaves() -> None:
    """The patched situations all read usable, while the search finds sequences on the patched
    package where the docs' trim step sends a call's output without its call: the answer says
    both, from the committed searches. Issue 61 (r6): it said the trim step "still" cuts, as if
    the release did so too; the release's search finds no such sequence, and the answer says
    that instead."""
    from approval_compaction.lab.findings.searched import searched_cases

    left = [c for c in searched_cases("langchain") if "+" in c.package and c.label == "new"]
    assert left and {c.mode for c in left} == {"trim"}
    refused = sum(any(name == "next_turn_accepted" for name, _ in c.pairs) for c in left)
    said = answer()
    sent = sum(
        any(n in ("next_turn_input_paired", "compaction_input_paired") for n, _ in c.pairs)
        for c in left
    )
    both = "both" if len(left) == 2 else "each"
    assert (
        f"finds {len(left)} sequences no situation has, {both} on the patched package with the "
        f"docs' trim step over Chat Completions: a later call's output is sent without its call "
        f"in {sent}"
    ) in said
    # issue 61 (r12): a finding that only stores the output was said to send it
    if len(left) > sent:
        assert f"stored without it in {len(left) - sent}" in said
    assert "still" not in said
    released = [c for c in searched_cases("langchain") if "+" not in c.package]
    trim = [c for c in released if c.mode == "trim"]
    assert trim and not any(name.endswith("_paired") for c in trim for name, _ in c.pairs)
    assert "On the release the search finds no trim sequence that sends an output without" in said
    assert f"the API refuses the next question in {refused}" in said
    assert "every later question of these three situations in every setting, the control" in said
    # issue 61 (r7): the answer recommended the patch with no action for what the search finds
    # it leaves in the trim step
    action = said.split("**What to do.**")[1]
    assert "should trim so that no tool message is kept without the AI message" in action
    # issue 61 (r10): no action for teams on the released package until the fix lands
    assert "give each interrupt its decision before the user's next message" in action


def test_plugin_answer_names_the_late_decision_apart_from_one_that_never_comes() -> None:
    """Issue 61 (r7): "a decision that never comes" listed *resumed*, whose decision comes late;
    and "stores or summarises its answer without its call" where the late-answer table shows a
    stored call without its answer too."""
    said = answer()
    assert "a decision that never comes, or comes late: " in said
    assert "leaves its answer and its call apart" in said
    assert "stores or summarises" not in said


def test_plugin_answer_without_a_search_says_nothing_of_one(tmp_path: Path) -> None:
    from approval_compaction.langchain.plugin import _search_left

    assert _search_left(tmp_path) == ""


def test_plugin_verdict_block_calls_langchains_kinds_settings() -> None:
    """Issue 61 (r9): the README's langchain row said "(all modes)" where notebook 14 says
    "(every setting)": langchain has no compaction modes, its kinds are settings."""
    block = verdict_block()
    assert "(every setting)" in block
    assert "all modes" not in block
