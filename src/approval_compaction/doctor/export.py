"""Export: one session's items in a JSON file, judged and healed (``doctor items``).

Any store a team uses can hand over what a session holds: ``await session.get_items()`` in the
Python SDK, or what an SDK folder's options name (``EXPORT``: ``steps.exported``), written out as
a JSON list. This reads that list in the Responses API's shapes the Python SDK stores, or in a
folder's protocol (its ``items.is_item``), maps those items to the wire's shapes in the one place
that does (its ``items.wire_items``), and judges them as ``doctor scan`` judges a stored session
(``verdict.judge``). What the next turn would be refused for is the first output without its
call, worded as the API words it for that kind (``wire.rules.orphan_answer``: the function form
the stand-in enforces, the shell form a public report shows, the others unknown and said so; a
call still waiting for its output is left out, as it is the verdict's note, not a refusal). The
healed list is the export with each rewrite ``doctor repair`` makes
(``analysis.healing.rewrites``) in its place, each written in the export's own protocol
(a folder's ``items.sdk_message``), so the team loads it back with its own session's
``clearSession``/``addItems`` (``clear_session``/``add_items``). Nothing is written unless
asked: to a new file, or over the export itself with ``in place``, atomically either way, and
never over anything but a regular file.

What a team hands over is read as JSON allows, or refused in one line. It must be a regular file
(a FIFO or a device is refused before it is read, so nothing waits on a writer). JSON is UTF-8
(RFC 8259 section 8.1): a byte-order mark, or UTF-16 or UTF-32 with one, is read as that; other
bytes are refused naming the first bad one. A lone surrogate escape (``"\\ud800"``, which
``JSON.stringify`` writes for a string cut inside a pair) is read as Python's ``json`` reads it,
and written back escaped. A value nested deeper than a parser goes (a tool's output) is kept as its
text: the items around it are judged from their top-level fields, and the healed list keeps every
item it does not rewrite exactly as the export held it (``jsontext``).
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from ..analysis.healing import item_name, rewrites
from ..analysis.pairing import Unpaired, find_unpaired
from ..errors import InvestigationError, printable, require
from ..sdks import sdk_module
from ..study.items import Item
from ..wire.rules import ApiError, OrphanAnswer, orphan_answer, orphan_output
from .jsontext import JsonTextError, children, kind_at, value_end
from .steps import exported
from .verdict import SessionReport, judge

require("the doctor", ["msgspec"], "doctor")  # the export's parser, before the import fails
import msgspec  # noqa: E402  # after the check that names its extra

PYTHON = "python"  # the Python SDK's exports: the wire's shapes, as it stores them
PACKAGE = "openai-agents"


def sdk_words() -> tuple[str, ...]:
    """What ``--sdk`` takes: ``auto``, each folder whose exports the doctor reads, ``python``."""
    return ("auto", *exported(), PYTHON)


def package(sdk: str) -> str:
    """The package whose items an export of ``sdk``'s protocol holds."""
    return PACKAGE if sdk == PYTHON else exported()[sdk].package


def _item_map(sdk: str) -> ModuleType:
    """The item map of ``sdk``'s folder (its ``items``), loaded by name (``sdks.sdk_module``)."""
    return sdk_module(sdk, "items")


class ExportError(InvestigationError):
    """An export that cannot be judged: not a regular file, not UTF-8 JSON, not a list of item
    objects, items of both SDKs' protocols at once, or of another SDK than ``--sdk`` says."""


class DeepValue(str):
    """The JSON text of a value nested deeper than the parsers go, kept in place of its value:
    pairing never reads it, a rewrite quotes it, and the healed list writes the item's own
    text."""


@dataclass(frozen=True)
class Export:
    """The items of one export, as the SDK stored them, and which SDK's protocol they are in;
    ``texts`` is each item's own JSON text when the export was read item by item (a value
    too deep to parse, ``DeepValue``), so a healed list keeps it byte for byte."""

    path: Path
    items: list[Item]
    sdk: str  # ``python``, or the name of the folder whose protocol they are in
    texts: tuple[str, ...] | None = None

    @property
    def wire(self) -> list[Item]:
        """The items in the wire's shapes, one for one (what the judge reads)."""
        return self.items if self.sdk == PYTHON else _item_map(self.sdk).wire_items(self.items)


# What stat calls a file that is not a regular one, for the refusal.
_NOT_REGULAR = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a symbolic link"),
)


def not_regular(mode: int) -> str | None:
    """What a file of this mode is when it is not a regular file (None when it is)."""
    if stat.S_ISREG(mode):
        return None
    return next((said for test, said in _NOT_REGULAR if test(mode)), "not a regular file")


def read_bytes(path: Path) -> bytes:
    """A regular file's bytes; anything else is refused before it is read (a FIFO is opened
    without waiting for a writer, then refused)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError) as error:
        said = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise ExportError(f"cannot read {path}: {said}") from None
    try:
        what = not_regular(os.fstat(fd).st_mode)
        if what is not None:
            raise ExportError(f"{path} is {what}, not a file: write the export to a file first")
        with os.fdopen(os.dup(fd), "rb") as handle:
            return handle.read()
    except OSError as error:
        raise ExportError(f"cannot read {path}: {error.strerror or error}") from None
    finally:
        os.close(fd)


def _unicode(path: Path, data: bytes) -> str:
    """The export's text: UTF-8 (a byte-order mark skipped), or UTF-16 or UTF-32 as ``json``
    tells them; other bytes are one line naming the first that is not UTF-8."""
    encoding = json.detect_encoding(data)
    try:
        return data.decode("utf-8-sig" if encoding == "utf-8" else encoding)
    except UnicodeDecodeError as error:
        byte = data[error.start : error.start + 1].hex()
        raise ExportError(
            f"{path} is not UTF-8 text (byte 0x{byte} at offset {error.start}: "
            f"{error.reason}): export it as UTF-8, which JSON requires"
        ) from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _decode(text: str) -> Any:
    """One JSON text as Python's ``json`` reads it (lone surrogates kept), but ``NaN`` and
    ``Infinity``, which are not JSON, refused as ``msgspec`` refuses them."""
    return json.loads(text, parse_constant=_no_constant)


def _fields(text: str, start: int, end: int) -> Item:
    """An object nested deeper than the parsers go, field by field: a field too deep kept as
    its text (``DeepValue``)."""
    item: Item = {}
    for child in children(text, start, end)[1]:
        field = str(_decode(child.key or '""'))
        try:
            item[field] = _decode(text[child.start : child.end])
        except RecursionError:
            item[field] = DeepValue(text[child.start : child.end])
    return item


_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def _element(path: Path, text: str, number: int, start: int) -> tuple[Item, int]:
    """The element of the export's list at ``start`` and where it ends: an object, parsed by
    ``json``'s C scanner, or (nested deeper than it goes) walked without recursion and read
    field by field."""
    if kind_at(text, start) != "dict":
        kind = kind_at(text, start)
        raise ExportError(f"item {number} of {path} is not a JSON object (a {kind})")
    try:
        item, end = _DECODER.raw_decode(text, start)
        return item, end
    except RecursionError:
        end = value_end(text, start)
        return _fields(text, start, end), end


def _deep(path: Path, text: str) -> tuple[list[Item], tuple[str, ...]]:
    """A list nested deeper than the parsers go, element by element, and each element's text
    (the grammar between them checked here, within them by ``json`` or ``jsontext``)."""
    space = re.compile(r"[ \t\n\r]*")
    at = space.match(text).end()  # type: ignore[union-attr]
    if kind_at(text, at) != "list":
        raise ExportError(f"{path} is not a JSON list of items (it holds a {kind_at(text, at)})")
    items: list[Item] = []
    texts: list[str] = []
    at = space.match(text, at + 1).end()  # type: ignore[union-attr]
    closed = at < len(text) and text[at] == "]"
    while not closed:
        item, end = _element(path, text, len(items), at)
        items.append(item)
        texts.append(text[at:end])
        at = space.match(text, end).end()  # type: ignore[union-attr]
        if at < len(text) and text[at] in ",]":
            closed = text[at] == "]"
            at = space.match(text, at + 1).end()  # type: ignore[union-attr]
            continue
        raise JsonTextError("',' or ']' expected", at)
    if at < len(text):
        raise JsonTextError("extra data", at)
    return items, tuple(texts)


def _items(path: Path, data: bytes) -> tuple[Any, tuple[str, ...] | None]:
    """The export's value, and each item's text when it had to be read item by item."""
    try:
        return msgspec.json.decode(data), None
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError) as error:
        first = error  # msgspec refuses lone surrogates, byte-order marks and deep values
    text = _unicode(path, data)
    try:
        return _decode(text), None
    except RecursionError:
        pass
    except ValueError as error:
        said = first if isinstance(first, msgspec.DecodeError) else error
        raise ExportError(f"{path} is not JSON: {said}") from None
    try:
        return _deep(path, text)
    except (JsonTextError, ValueError) as error:
        raise ExportError(f"{path} is not JSON: {error}") from None


def read_export(path: Path, sdk: str = "auto") -> Export:
    """The export at ``path``, or a one-line ``ExportError`` naming what is wrong with it."""
    if sdk not in sdk_words():
        raise ExportError(f"unknown --sdk {sdk!r}: {', '.join(sdk_words())}")
    items, texts = _items(path, read_bytes(path))
    if not isinstance(items, list):
        found = type(items).__name__
        raise ExportError(f"{path} is not a JSON list of items (it holds a {found})")
    for number, item in enumerate(items):
        if not isinstance(item, dict):
            kind = type(item).__name__
            raise ExportError(f"item {number} of {path} is not a JSON object (a {kind})")
    return Export(path, items, _sdk_of(path, items, sdk), texts)


def _sdk_of(path: Path, items: list[Item], asked: str) -> str:
    """The SDK whose protocol the items are in: as asked, else told from the items (a
    folder's keys and types, its ``items.is_item``; with none of them, the wire's, which is
    the Python SDK's). A ``--sdk`` the items contradict (all of them another SDK's) is
    refused: read in the other protocol, an orphan output would pair with nothing and be
    missed."""
    words = exported()
    firsts = {
        sdk: next((n for n, item in enumerate(items) if _item_map(sdk).is_item(item)), None)
        for sdk in words
    }
    theirs = [(sdk, n) for sdk, n in firsts.items() if n is not None]
    wire = next((n for n, item in enumerate(items) if "call_id" in item), None)
    if asked == PYTHON:
        if theirs and wire is None:
            sdk, n = theirs[0]
            raise ExportError(
                f"--sdk python, but {path} holds {words[sdk].owner} items (item {n}: "
                f"{words[sdk].tells}) and none of the Python SDK's: pass --sdk {sdk} or auto"
            )
        return PYTHON
    if asked != "auto":
        if firsts[asked] is None and wire is not None:
            raise ExportError(
                f"--sdk {asked}, but {path} holds the Python SDK's items (item {wire}: call_id) "
                f"and none of {words[asked].owner}: pass --sdk python or auto"
            )
        return asked
    if not theirs:
        return PYTHON
    sdk, n = theirs[0]
    if wire is not None:
        raise ExportError(
            f"{path} mixes {words[sdk].owner} items (item {n}) with the Python SDK's (item "
            f"{wire}, call_id): pass --sdk {sdk} or --sdk python"
        )
    return sdk


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
class Refusal:
    """Why the API would refuse the next turn: its first output without a call (its type and
    id), and what the API answers that kind (``wire.rules.orphan_answer``: the status and
    message where public sources show them, else unknown)."""

    output_type: str
    call_id: str
    answer: OrphanAnswer

    @property
    def error(self) -> ApiError | None:
        """The API's whole answer, where its status and message are both known."""
        text = self.answer.text(self.call_id)
        if self.answer.status is None or text is None:
            return None
        if self.output_type == "function_call_output":
            return orphan_output(self.call_id)
        return ApiError(self.answer.status, text)

    def as_json(self) -> dict[str, Any]:
        """The answer as far as it is known: ``status`` and ``message`` null where no public
        source shows them (``unknown`` says so), with the sources."""
        error = self.error
        known = error.body()["error"] if error is not None else {}
        return {
            "output_type": self.output_type,
            "call_id": self.call_id,
            "status": self.answer.status,
            "message": self.answer.text(self.call_id),
            "type": known.get("type", self.answer.error_type),
            "param": known.get("param"),
            "code": known.get("code"),
            "sources": [source.url for source in self.answer.sources],
            "unknown": self.answer.unknown,
        }

    def line(self) -> str:
        text = self.answer.text(self.call_id)
        if text is None:
            return (
                f"the next turn sends {self.output_type} {self.call_id} without its call: "
                f"{self.answer.unknown}"
            )
        if self.answer.status is None:
            shown = ", ".join(source.label for source in self.answer.sources)
            return f"the next turn is refused: {text} (the status is not shown: {shown})"
        return f"the next turn is refused: HTTP {self.answer.status} {text}"


@dataclass(frozen=True)
class Judged:
    """An export judged: its verdict (``doctor scan``'s), why the API would refuse the next
    turn (None when it accepts it), and the rewrites that heal it."""

    export: Export
    report: SessionReport
    refusal: Refusal | None
    rewrites: tuple[Rewrite, ...]

    @property
    def refused(self) -> ApiError | None:
        """The API's whole answer to the next turn, where its status and message are known."""
        return None if self.refusal is None else self.refusal.error

    def healed(self) -> list[Item]:
        """The export's items with every rewrite in place, in the export's own protocol."""
        after = {r.position: r.after for r in self.rewrites}
        return [after.get(n, item) for n, item in enumerate(self.export.items)]

    def healed_bytes(self) -> bytes:
        """The healed list as its file holds it (``encoded``); an export read item by item
        keeps each item it does not rewrite as its own text, a value nested past the parsers
        included."""
        texts = self.export.texts
        if texts is None:
            return encoded(self.healed())
        after = {r.position: json.dumps(r.after) for r in self.rewrites}
        parts = [after.get(n, text) for n, text in enumerate(texts)]
        return ("[\n  " + ",\n  ".join(parts) + "\n]\n").encode()

    def as_json(self) -> dict[str, Any]:
        refused = None if self.refusal is None else self.refusal.as_json()
        return {
            "file": str(self.export.path),
            "sdk": package(self.export.sdk),
            **{k: v for k, v in self.report.as_row().items() if k not in ("session_id",)},
            "refused": refused,
            "rewrites": [r.as_row() for r in self.rewrites],
        }


def refusal(unpaired: Sequence[Unpaired]) -> Refusal | None:
    """Why the API refuses the next turn, from the export's unpaired items: its first function
    output without a call, the one form the stand-in enforces (``wire.rules.check_pairing``);
    else its first output of another kind without a call (what the API answers it, and in which
    order across kinds, no source shows). A call still waiting is not sent, and leaving it out
    changes no output's pairing, so the export's orphans are the next turn's."""
    orphans = [u for u in unpaired if u.problem == "orphan output"]
    functions = [u for u in orphans if u.item_type == "function_call_output"]
    if not orphans:
        return None
    first = (functions or orphans)[0]
    return Refusal(first.item_type, first.key or "?", orphan_answer(first.item_type))


def judge_export(export: Export) -> Judged:
    """The verdict on the export's items, the next turn's refusal, and the healing rewrites."""
    wire = export.wire
    report = judge(export.path.name, wire)
    found = []
    for position, message in rewrites(wire):
        after = message if export.sdk == PYTHON else _item_map(export.sdk).sdk_message(message)
        before = export.items[position]
        found.append(Rewrite(position, before, item_name(wire[position]), after))
    return Judged(export, report, refusal(find_unpaired(wire)), tuple(found))


def encoded(items: list[Item]) -> bytes:
    """A list of items as the healed file holds it: JSON, two-space indented, one line each
    (a lone surrogate, which UTF-8 cannot hold, written as its escape, as ``json`` writes it)."""
    try:
        return msgspec.json.format(msgspec.json.encode(items), indent=2) + b"\n"
    except UnicodeEncodeError:
        return (json.dumps(items, indent=2) + "\n").encode()


def lines(judged: Judged) -> list[str]:
    """The table form: the verdict, the refusal, each rewrite (stored text escaped)."""
    report, export = judged.report, judged.export
    head = f"{export.path}: {report.items} {package(export.sdk)} items, {report.verdict}"
    out = [head + (f" ({report.note})" if report.note else "")]
    if judged.refusal is not None:
        out.append(judged.refusal.line())
    for rewrite in judged.rewrites:
        row = rewrite.as_row()
        out.append(f"  item {row['position']}: {row['before']}")
        out.append(f"    -> assistant message: {row['after']}")
    return [printable(line) for line in out]
