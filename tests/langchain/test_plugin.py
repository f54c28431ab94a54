"""LangChain's plugin: the blocks and the answer it hands the shared code, from data/."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.langchain.plugin import (
    PLUGIN,
    MissingLangchainData,
    answer,
    verdict_block,
)
from approval_compaction.langchain.sweep import FILES


def test_plugin_names_its_notebook_blocks_and_commands() -> None:
    assert (PLUGIN.name, PLUGIN.notebook) == ("langchain", "14")
    assert set(PLUGIN.blocks) == {"langchain", "langchain-changes"}
    assert PLUGIN.answer is answer


def test_plugin_without_the_sweep_is_one_line_naming_the_file(tmp_path: Path) -> None:
    with pytest.raises(MissingLangchainData, match=FILES["sweep"]):
        verdict_block(tmp_path)


def test_plugin_answer_names_the_pinned_release_and_its_verdict() -> None:
    said = answer()
    assert said.startswith("**Answer.** ") and "the pinned release" in said
