"""Upgrade: does the newest release heal a session an affected release already stored?

The record of one next turn (``UpgradeRecord``): on the pinned release and on the newest, on a
store an affected release left (``STORES``: poisoned as stored, after ``doctor repair``, and the
``pause_failed`` store an API refusal at the pause left), judged by the API stand-in's answer.
The SDK's folder takes the turns (openai-agents' ``upgrade``); ``python -m approval_compaction
doctor data`` (``make doctor-data``) writes ``data/doctor-upgrade.json``, which the findings and
notebook 07 read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...formats.records import read_json_list
from ...study.words import Mode
from .. import paths

# The stores the next turns are taken on, each in the compaction mode that left it.
# ``pause_failed``: the API rejected the compaction request at the pause (``auto``), so the
# call stays stored without its output.
PAUSE_FAILED = "pause_failed"
STORES: dict[str, Mode] = {"poisoned": "input", "repaired": "input", PAUSE_FAILED: "auto"}


@dataclass(frozen=True)
class UpgradeRecord:
    """The next turn on one release, for a store as the pinned release left it or repaired."""

    release: str
    store: str
    next_turn: str
    judged_by: str
    api_answer: str
    orphan_outputs: str
    compaction_requests: int
    compaction_input_orphans: str
    stored_after: str
    model_input: list[dict[str, Any]]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> UpgradeRecord:
        return cls(**data)


def load_upgrade(path: Path = paths.DATA_FILES.doctor_upgrade) -> list[UpgradeRecord]:
    return read_json_list(path, UpgradeRecord.from_json)
