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
project knows, through its one driver); Python on the pinned ``openai-agents`` (this
environment) and the newest (its release environment), through the study's driver
(``openai_agents.driver``). A kind a release cannot pause on is recorded with the reason
(``not_applicable``), found by looking for the feature.
``python -m approval_compaction doctor exports`` (``make doctor-exports``) writes them.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ...analysis.pairing import item_key
from ...formats.files import write_all_atomic
from ...sdks import sdk_module
from ...study.capture import Stage
from ...study.items import Item
from ...study.words import PINNED, TOOL_KINDS, Decision, Kind, Mode, ToolKind
from ...wire.rules import COMPACT
from ...wire.standin import apply_patch_call, shell_call
from .. import paths
from ..plugins import plugins

# The Python SDK's folder, reached by name as every SDK's folder is (``sdks``); mypy reads the
# same modules by import.
if TYPE_CHECKING:
    from ...openai_agents import driver as _driver
    from ...openai_agents import harness as _harness
    from ...openai_agents import worker as _worker
else:
    _driver, _harness, _worker = (sdk_module("python", m) for m in ("driver", "harness", "worker"))

Sdk = str  # "python", or the name of the plugin whose runner wrote it (its ``exports``)
Choice = Literal["approve", "reject", "abandon"]
CHOICES: tuple[Choice, ...] = ("approve", "reject", "abandon")
COMPACTIONS = ("off", "on")
MODE: Mode = "input"  # the study's mode: every turn sends the whole stored history
FOLDER = paths.DOCTOR_EXPORTS
MANIFEST = "manifest.json"
# The Python study's tool kind for each approval kind, and the item its model answers with.
PYTHON_KINDS: dict[ToolKind, tuple[Kind, Item]] = {
    "function": ("function_approval", _harness.PENDING_CALL),
    "mcp": ("mcp_approval", _harness.MCP_REQUEST),
    "shell": ("shell_approval", shell_call(1)),
    "apply_patch": ("apply_patch_approval", apply_patch_call(1)),
}


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


# Python: the study's one driver, on the release's own interpreter.
def python_steps(kind: ToolKind, choice: Choice) -> list[_driver.Step]:
    """The conversation: the question that pauses on the kind's call, the decision and the
    resume (none when abandoned), the next question."""
    pause = _driver.Ask(_harness.QUESTIONS[0], (PYTHON_KINDS[kind][1],), stage="pause")
    nxt = _driver.Ask(_harness.QUESTIONS[1], (_harness.NEXT_ANSWER,))
    if choice == "abandon":
        return [pause, nxt]
    decision: Decision = "reject" if choice == "reject" else "approve"
    return [
        pause,
        _driver.Cross("json"),
        _driver.Decide(decision),
        _driver.Resume((_harness.FINISHED,)),
        nxt,
    ]


def python_missing(kind: ToolKind, python: str) -> str:
    """Why the release ``python`` runs cannot pause on ``kind`` ("" when it can): the
    ``computer`` tool of the Python SDK has no ``needs_approval`` (``ComputerTool``'s fields)."""
    if kind != "computer":
        return ""
    probe = (
        "import dataclasses, agents; "
        "print('needs_approval' in {f.name for f in dataclasses.fields(agents.ComputerTool)})"
    )
    done = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=False)
    if done.stdout.strip() == "True":
        return "ComputerTool has needs_approval, but the export's computer call is not scripted"
    return "agents.ComputerTool has no needs_approval: a computer call never pauses for approval"


def python_records(
    release: str, worker: _worker.Worker | None, python: str
) -> Iterator[tuple[ExportRecord, Any]]:
    """Each Python conversation on ``release`` (here when ``worker`` is None, else in the
    worker's interpreter), and its export."""
    for kind in TOOL_KINDS:
        for choice in CHOICES:
            for compaction in COMPACTIONS:
                base = ExportRecord("python", release, kind, choice, compaction)
                why = python_missing(kind, python)
                if why:
                    yield dataclasses.replace(base, not_applicable=why), None
                    continue
                trigger: _driver.Trigger = "always" if compaction == "on" else "never"
                kinds = (PYTHON_KINDS[kind][0],)
                setup = _driver.Setup(MODE, trigger, kinds, model="responses", go_on=True)
                done: _driver.Transcript = _driver.converse(
                    setup, python_steps(kind, choice), worker=worker
                )
                stages = [t.stage for t in done.turns if t.stage is not None]
                failed = next((t.error for t in done.turns if t.error and not t.http_status), "")
                if failed:
                    yield dataclasses.replace(base, not_applicable=failed), None
                    continue
                items = stages[-1].stored
                record = dataclasses.replace(
                    base,
                    items=len(items),
                    last_request=last_request(stages),
                    exchanges=exchanges(stages),
                )
                yield record, items


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
    from ..releases import environments
    from ..releases.versions import sort_versions

    records: list[tuple[ExportRecord, Any]] = []
    for plugin in plugins():  # each SDK folder's runner (lab.plugins)
        if plugin.exports is not None:
            records += plugin.exports()
    newest = environments.newest_release()
    for release in sort_versions({PINNED, newest}):
        if release == PINNED:
            records += list(python_records(release, None, sys.executable))
            continue
        env = environments.release_environment(release, environments.default_envs())
        with _worker.Worker(str(env.python), environments.isolated_environ()) as worker:
            records += list(python_records(release, worker, str(env.python)))
    written = write(records, Path(args.folder))
    made = sum(1 for _, items in records if items is not None)
    print(f"{written}: {made} exports of {len(records)} conversations")
    return 0
