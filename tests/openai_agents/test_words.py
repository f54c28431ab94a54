"""The Python SDK's folder's words: a table's title names its runs by its package, in the core's
words (its modes, hook answers and models)."""

from __future__ import annotations

from approval_compaction.display.views import scope, sdk_name
from approval_compaction.openai_agents.words import WORDS
from approval_compaction.sdks import words
from approval_compaction.study.capture import CaseRun
from approval_compaction.study.scenario import Case


def test_words_an_openai_agents_run_is_titled_with_its_package_in_the_core_words() -> None:
    assert words("python") is WORDS
    assert (WORDS.package, WORDS.hooks, WORDS.models) == ("openai-agents", None, None)
    run = CaseRun(Case(), "0.23.1", [], 0, 0, response_store=False)
    assert sdk_name(run.sdk) == "openai-agents"
    assert scope(run) == (
        "openai-agents 0.23.1, input mode, store=False, hook always says yes, scripted model"
    )
