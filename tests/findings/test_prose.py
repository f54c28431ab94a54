"""Each renderer carries the facts of its record: the record's numbers and names appear."""

from __future__ import annotations

import pytest

from approval_compaction.lab.findings import prose
from approval_compaction.lab.findings.load import Findings, load_findings
from approval_compaction.lab.findings.matrix import Failure, Seen
from approval_compaction.lab.findings.releases import NEVER, Era, ModeStory, Releases


@pytest.fixture(scope="module")
def found() -> Findings:
    return load_findings()


def test_prose_seen_carries_each_error_and_the_agreement() -> None:
    failure = Failure("next_turn", "openai.BadRequestError", 400, "No tool call found")
    text = prose.seen_sentence(Seen(4, 2, (failure,), True, 3))
    assert text.startswith("2 of 4 cases")
    assert all(str(fact) in text for fact in (failure.exception, 400, failure.message))
    assert "in 3 of 4 cases" in text


ERA = Era("0.1.0", 1, 2, 1, "scripted 3", "pause", "resume", NEVER, NEVER, NEVER, "", "")


def story(era: Era) -> str:
    return prose.era_story(Releases((), (), (), (), (era,)))


STORY = ModeStory(
    "0.1.0",
    "auto",
    16,
    8,
    "pause",
    "HTTP 400 from /v1/responses/compact: No tool output found for function call c1.",
    "no",
    "the call c1 without its output",
    "not run",
    "answered",
    "nothing unpaired",
    "the pause fails",
)
