"""openai-agents' exports: the doctor's test data comes from the runner, not from a hand."""

from __future__ import annotations

import json
import sys

import pytest

from approval_compaction.lab import paths
from approval_compaction.lab.affected.exports import read
from approval_compaction.openai_agents.exports import python_records, python_steps
from approval_compaction.study.words import PINNED

FOLDER = paths.DOCTOR_EXPORTS


def test_an_abandoned_approval_is_never_decided_and_the_user_asks_on() -> None:
    steps = [type(step).__name__ for step in python_steps("function", "abandon")]
    assert steps == ["Ask", "Ask"]
    decided = [type(step).__name__ for step in python_steps("function", "reject")]
    assert decided == ["Ask", "Cross", "Decide", "Resume", "Ask"]


@pytest.mark.subprocess
def test_the_python_exports_are_what_the_pinned_runner_writes_today() -> None:
    """The committed Python exports come from the runner: the pinned openai-agents, driven
    again, stores the same items, sends the same requests, and skips the same kinds."""
    again = {
        record.name: (record, items)
        for record, items in python_records(PINNED, None, sys.executable)
    }
    committed = [r for r in read(FOLDER) if r.sdk == "python" and r.release == PINNED]
    assert committed and {r.name for r in committed} == set(again)
    for record in committed:
        ran, items = again[record.name]
        assert ran.not_applicable == record.not_applicable, record.name
        assert ran.exchanges == record.exchanges and ran.last_request == record.last_request
        if record.file:
            assert items == json.loads((FOLDER / record.file).read_text(encoding="utf-8"))
