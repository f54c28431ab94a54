"""Exports: the sessions each SDK's real runner stores, for every approval kind, as a team exports
them (``getItems()``, ``get_items()``), to hold the doctor's one item mapping to what the runner
writes rather than to hand-made fixtures.

Each export is one conversation on the SDK's own runner and model class, over HTTP to the wire's
stand-in (offline): a question the model answers with a call of one approval kind (a function
tool, a hosted MCP server, the shell, apply_patch or computer tool), then the human's decision
(``approve``, ``reject``, or ``abandon``: nobody decides and the user asks on), the resume, and a
next question; once on a plain session (``compaction`` off) and once compacting at every turn
(``on``: on an affected release the pause compacts the waiting call away). The session's items
after the last turn are the export, written as the SDK's ``getItems()``/``get_items()`` returned
them. Beside each, the manifest keeps every model request of the conversation twice: the items
the runner handed the SDK's model class, and the ``input`` the SDK's own converter sent over HTTP
(``Exchange``): the pairs ``tests/affected/test_exports.py`` holds a folder's item map
(``items.wire_items``) to.

An SDK's folder runs its own (its plugin's ``exports``: the pinned release and the newest the
project knows, through its one driver); Python's folder on the pinned ``openai-agents`` (this
environment) and the newest (its release environment), through its one driver (its
``exports``, by name). A kind a release cannot pause on is recorded with the reason
(``not_applicable``), found by looking for the feature.
``python -m approval_compaction doctor exports`` (``make doctor-exports``) writes them.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ...analysis.pairing import item_key
from ...formats.files import write_all_atomic
from ...sdks import sdk_module
from ...study.capture import Stage
from ...study.items import Item
from ...study.words import Mode, ToolKind
from ...wire.rules import COMPACT
from .. import paths
from ..plugins import plugins

Sdk = str  # "python", or the name of the plugin whose runner wrote it (its ``exports``)
Choice = Literal["approve", "reject", "abandon"]
CHOICES: tuple[Choice, ...] = ("approve", "reject", "abandon")
COMPACTIONS = ("off", "on")
MODE: Mode = "input"  # the study's mode: every turn sends the whole stored history
FOLDER = paths.DOCTOR_EXPORTS
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class Exchange:
    """One model request: the items the runner handed the SDK's model class (the SDK's own
    protocol), and the ``input`` its converter sent over HTTP (the wire's)."""

    given: list[Item]
    sent: list[Item]


@dataclass(frozen=True)
class ExportRecord:
    """One conversation on one release: what it was, where its export is (``file``, under
    ``FOLDER``; empty when the kind cannot pause there, ``not_applicable`` says why), what the
    API answered its last request (``accepted``, or the refusal) and its model requests."""

    sdk: Sdk
    release: str
    kind: ToolKind
    decision: Choice
    compaction: str
    file: str = ""
    items: int = 0
    last_request: str = ""
    not_applicable: str = ""
    exchanges: list[Exchange] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.sdk}-{self.release}-{self.kind}-{self.decision}-compaction-{self.compaction}"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ExportRecord:
        exchanges = [Exchange(**e) for e in data.get("exchanges", [])]
        return cls(**data | {"exchanges": exchanges})


def _as_list(value: Any) -> list[Item]:
    """A request's ``input`` as items: a string is one user message."""
    if isinstance(value, str):
        return [{"role": "user", "content": value}]
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def exchanges(stages: Sequence[Stage | dict[str, Any]]) -> list[Exchange]:
    """Each model request of a conversation's stages, its given items beside what was sent
    (requests to ``/v1/responses`` in order, one for each model call)."""
    found = []
    for stage in stages:
        data = stage if isinstance(stage, dict) else dataclasses.asdict(stage)
        sent = [r for r in data.get("http_requests", []) if r.get("path") != COMPACT]
        given = data.get("model_inputs", [])
        for items, request in zip(given, sent, strict=True):
            body = request.get("body") or {}
            found.append(Exchange(list(items), _as_list(body.get("input"))))
    return found


def last_request(stages: Sequence[Stage | dict[str, Any]]) -> str:
    """What the API answered the conversation's last model request."""
    for stage in reversed(stages):
        data = stage if isinstance(stage, dict) else dataclasses.asdict(stage)
        sent = [r for r in data.get("http_requests", []) if r.get("path") != COMPACT]
        if sent:
            last = sent[-1]
            ok = int(last.get("status", 0)) < 400
            return "accepted" if ok else f"HTTP {last.get('status')}: {last.get('error', '')}"
    return ""


def write(records: Sequence[tuple[ExportRecord, Any]], folder: Path = FOLDER) -> Path:
    """The exports (one JSON list each, two-space indented) and the manifest, written together;
    exports of an earlier run that are no longer made are removed."""
    contents: dict[Path, str] = {}
    manifest = []
    for record, items in records:
        if items is not None:
            record = dataclasses.replace(record, file=f"{record.name}.json")
            contents[folder / record.file] = json.dumps(items, indent=2) + "\n"
        manifest.append(record.to_json())
    contents[folder / MANIFEST] = json.dumps(manifest, indent=1) + "\n"
    if folder.exists():
        for stale in set(folder.glob("*.json")) - set(contents):
            stale.unlink()
    write_all_atomic(contents)
    return folder / MANIFEST


def read(folder: Path = FOLDER) -> list[ExportRecord]:
    """The manifest's records, in the order they were made."""
    data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    return [ExportRecord.from_json(entry) for entry in data]


def pairing(items: Sequence[Item]) -> list[tuple[str, str | None, str | None]]:
    """What the judge reads of each item: its type (``message`` when it has none), the id that
    pairs it and its role."""
    found = []
    for item in items:
        kind = item.get("type") or "message"
        role = item.get("role")
        found.append((str(kind), item_key(item), role if isinstance(role, str) else None))
    return found


def command(args: Any) -> int:
    """``doctor exports``: every kind on each SDK's pinned and newest release, written to
    ``args.folder``; prints the manifest's path and how many exports it lists."""
    records: list[tuple[ExportRecord, Any]] = []
    for plugin in plugins():  # each SDK folder's runner (lab.plugins)
        if plugin.exports is not None:
            records += plugin.exports()
    records += sdk_module("python", "exports").python_exports()  # its folder, by name (sdks)
    written = write(records, Path(args.folder))
    made = sum(1 for _, items in records if items is not None)
    print(f"{written}: {made} exports of {len(records)} conversations")
    return 0
