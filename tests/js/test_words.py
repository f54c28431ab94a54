"""The JS folder's words: a table's title names its runs by the JS package."""

from __future__ import annotations

from approval_compaction.display.views import scope
from approval_compaction.js.words import WORDS
from approval_compaction.study.capture import CaseRun
from approval_compaction.study.scenario import Case


def test_words_a_js_run_is_titled_with_its_package_and_openai_agents_words() -> None:
    assert WORDS.package == "@openai/agents"
    run = CaseRun(Case(), "0.3.0", [], 0, 0, mode="input", sdk="js")
    assert scope(run) == "@openai/agents 0.3.0, input mode, hook always says yes, scripted model"
