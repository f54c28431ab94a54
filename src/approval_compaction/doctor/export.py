"""Export: one session's items in a JSON file, judged and healed (``doctor items``).

Any store a team uses can hand over what a session holds: ``await session.getItems()`` in the JS
SDK, ``await session.get_items()`` in the Python SDK, written out as a JSON list. This reads that
list in either SDK's protocol (``is_js_item``: ``callId``, ``function_call_result``; or the
Responses API's shapes the Python SDK stores), maps JS items to the wire's shapes in the one
place that does (``js.items``), and judges them as ``doctor scan`` judges a stored session
(``verdict.judge``). What the next turn would be refused for is the first output without its
call, worded as the API words it (``wire.rules.check_pairing``; a call still waiting for its
output is left out, as it is the verdict's note, not a refusal). The healed list is the export
with each rewrite ``doctor repair`` makes (``analysis.healing.rewrites``) in its place, each
written in the export's own protocol (``js.items.js_message`` for the JS SDK), so the team loads
it back with its own session's ``clearSession``/``addItems`` (``clear_session``/``add_items``).
Nothing is written unless asked: to a new file, or over the export itself with ``in place``,
atomically either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..analysis.healing import item_name, rewrites
from ..analysis.pairing import find_unpaired
from ..errors import InvestigationError, printable, require
from ..js.items import is_js_item, js_message, wire_items
from ..study.items import Item
from ..wire.rules import ApiError, check_pairing
from .verdict import SessionReport, judge

require("the doctor", ["msgspec"], "doctor")  # the export's parser, before the import fails
import msgspec  # noqa: E402  # after the check that names its extra

ExportSdk = Literal["js", "python"]
SDK_WORDS = ("auto", "js", "python")
PACKAGES: dict[ExportSdk, str] = {"js": "@openai/agents", "python": "openai-agents"}


class ExportError(InvestigationError):
    """An export that cannot be judged: not there, not JSON, not a list of item objects, or
    items of both SDKs' protocols at once."""


@dataclass(frozen=True)
class Export:
    """The items of one export, as the SDK stored them, and which SDK's protocol they are in."""

    path: Path
    items: list[Item]
    sdk: ExportSdk

    @property
    def wire(self) -> list[Item]:
        """The items in the wire's shapes, one for one (what the judge reads)."""
        return wire_items(self.items) if self.sdk == "js" else self.items


def read_export(path: Path, sdk: str = "auto") -> Export:
    """The export at ``path``, or a one-line ``ExportError`` naming what is wrong with it."""
    if sdk not in SDK_WORDS:
        raise ExportError(f"unknown --sdk {sdk!r}: {', '.join(SDK_WORDS)}")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ExportError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        items = msgspec.json.decode(data)
    except msgspec.DecodeError as error:
        raise ExportError(f"{path} is not JSON: {error}") from None
    except RecursionError:
        raise ExportError(f"{path} is nested deeper than the JSON parser goes") from None
    if not isinstance(items, list):
        found = type(items).__name__
        raise ExportError(f"{path} is not a JSON list of items (it holds a {found})")
    for number, item in enumerate(items):
        if not isinstance(item, dict):
            kind = type(item).__name__
            raise ExportError(f"item {number} of {path} is not a JSON object (a {kind})")
    return Export(path, items, _sdk_of(path, items, sdk))


def _sdk_of(path: Path, items: list[Item], asked: str) -> ExportSdk:
    """The SDK whose protocol the items are in: as asked, else told from the items (the JS
    SDK's keys and types; with none of them, the wire's, which is the Python SDK's)."""
    js = next((n for n, item in enumerate(items) if is_js_item(item)), None)
    wire = next((n for n, item in enumerate(items) if "call_id" in item), None)
    if asked == "python" or (asked == "auto" and js is None):
        return "python"
    if asked == "auto" and wire is not None:
        raise ExportError(
            f"{path} mixes the JS SDK's items (item {js}) with the Python SDK's (item {wire}, "
            "call_id): pass --sdk js or --sdk python"
        )
    return "js"


@dataclass(frozen=True)
class Rewrite:
    """One item the healed list replaces: where, what it was, and the message it becomes."""

    position: int
    before: Item  # as the export holds it
    name: str  # the id that names it (``healing.item_name``)
    after: Item

    def as_row(self) -> dict[str, Any]:
        kind = self.before.get("type", "message")
        return {"position": self.position, "before": f"{kind} {self.name}"} | {
            "after": _text(self.after)
        }


def _text(message: Item) -> str:
    content = message["content"]
    return content if isinstance(content, str) else " ".join(p["text"] for p in content)


@dataclass(frozen=True)
class Judged:
    """An export judged: its verdict (``doctor scan``'s), the API's refusal of the next turn
    (None when it accepts it), and the rewrites that heal it."""

    export: Export
    report: SessionReport
    refused: ApiError | None
    rewrites: tuple[Rewrite, ...]

    def healed(self) -> list[Item]:
        """The export's items with every rewrite in place, in the export's own protocol."""
        after = {r.position: r.after for r in self.rewrites}
        return [after.get(n, item) for n, item in enumerate(self.export.items)]

    def as_json(self) -> dict[str, Any]:
        refused = None if self.refused is None else self.refused.body()["error"]
        return {
            "file": str(self.export.path),
            "sdk": PACKAGES[self.export.sdk],
            **{k: v for k, v in self.report.as_row().items() if k not in ("session_id",)},
            "refused": refused,
            "rewrites": [r.as_row() for r in self.rewrites],
        }


def judge_export(export: Export) -> Judged:
    """The verdict on the export's items, the next turn's refusal, and the healing rewrites."""
    wire = export.wire
    report = judge(export.path.name, wire)
    waiting = {u.position for u in find_unpaired(wire) if u.problem == "open call"}
    sent = [item for n, item in enumerate(wire) if n not in waiting]
    found = []
    for position, message in rewrites(wire):
        after = js_message(message) if export.sdk == "js" else message
        before = export.items[position]
        found.append(Rewrite(position, before, item_name(wire[position]), after))
    return Judged(export, report, check_pairing(sent), tuple(found))


def encoded(items: list[Item]) -> bytes:
    """A list of items as the healed file holds it: JSON, two-space indented, one line each."""
    return msgspec.json.format(msgspec.json.encode(items), indent=2) + b"\n"


def lines(judged: Judged) -> list[str]:
    """The table form: the verdict, the refusal, each rewrite (stored text escaped)."""
    report, export = judged.report, judged.export
    head = f"{export.path}: {report.items} {PACKAGES[export.sdk]} items, {report.verdict}"
    out = [head + (f" ({report.note})" if report.note else "")]
    if judged.refused is not None:
        out.append(
            f"the next turn is refused: HTTP {judged.refused.status} {judged.refused.message}"
        )
    for rewrite in judged.rewrites:
        row = rewrite.as_row()
        out.append(f"  item {row['position']}: {row['before']}")
        out.append(f"    -> assistant message: {row['after']}")
    return [printable(line) for line in out]
