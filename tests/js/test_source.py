"""A compiled line of the installed @openai/agents as a permalink into its TypeScript."""

from __future__ import annotations

import re

import pytest
from needs import require

from approval_compaction.js.harness import installed
from approval_compaction.js.source import SESSION, permalink, ts_line
from approval_compaction.lab.releases.driven import SourceLineError


@pytest.fixture(autouse=True)
def _packages() -> None:
    if not installed():
        require("the JS harness's packages are missing: `make setup` runs npm ci", "JS source")


def test_permalink_points_into_the_typescript_at_the_installed_tag() -> None:
    link = permalink(SESSION, "compactRequest.input = getInputItems")
    found = re.fullmatch(
        r"https://github.com/openai/openai-agents-js/blob/v(\S+)/packages/agents-openai/"
        r"src/memory/openaiResponsesCompactionSession.ts#L(\d+)",
        link,
    )
    assert found is not None, link
    assert found.group(1) == "0.20.0"


def test_ts_line_keeps_the_order_of_the_compiled_lines() -> None:
    """The session decides to compact before it builds the request: so do the source lines."""
    _, decide = ts_line(SESSION, "await this.shouldTriggerCompaction({")
    _, build = ts_line(SESSION, "compactRequest.input = getInputItems")
    assert 0 < decide < build


def test_text_the_module_does_not_hold_is_one_line() -> None:
    with pytest.raises(SourceLineError, match="is not in agents-openai"):
        ts_line(SESSION, "a line no release has")
