"""The doctor on the sessions each SDK's real runner stores (tests/doctor/exports, written by
``doctor exports``): every approval kind, approved, rejected and abandoned, on a plain session and
compacting, on the pinned and the newest release of @openai/agents and openai-agents.

The one item mapping (``js.items``) is held to the SDK's own converter on every model request the
runner made (what it handed the model class beside what went over HTTP), and ``doctor items``
judges each export as the conversation left it (regression for issue 57: the JS runner's own MCP
approval response, a ``hosted_tool_call`` named ``mcp_approval_response``, read as nothing: an
answered request was judged stuck and rewritten as never answered).
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from approval_compaction.analysis.pairing import find_unpaired
from approval_compaction.cli import main
from approval_compaction.doctor.export import judge_export, read_export
from approval_compaction.js.exports import js_records
from approval_compaction.js.items import wire_items
from approval_compaction.js.packages import pinned, releases
from approval_compaction.lab import paths
from approval_compaction.lab.affected.exports import (
    CHOICES,
    COMPACTIONS,
    ExportRecord,
    pairing,
    read,
)
from approval_compaction.study.items import Item
from approval_compaction.study.words import NEWEST, PINNED, TOOL_KINDS

FOLDER = paths.DOCTOR_EXPORTS
RECORDS = read(FOLDER)
MADE = [r for r in RECORDS if r.file]


def _given(record: ExportRecord, items: list[Item]) -> list[Item]:
    """Items as the judge reads them: the JS SDK's mapped, the Python SDK's as they are."""
    return wire_items(items) if record.sdk == "js" else items


def expected(record: ExportRecord) -> str:
    """The verdict each conversation leaves, from what it did. On a plain session every decided
    call is answered (healthy) and an abandoned one is dead (stuck). Compacting at every turn: the
    JS SDK 0.20.0 compacts the waiting item away at the pause, so a decision's output is stored
    without it (poisoned), and an abandoned one leaves nothing open; openai-agents 0.23.1 does the
    same to a function call, while an output of the other kinds is compacted away again by the
    next turn (the stand-in compacts what the API's answer is not known for); 0.24.0 keeps the
    waiting item (healthy, and an abandoned one stays dead)."""
    abandoned = record.decision == "abandon"
    if record.compaction == "off":
        return "stuck" if abandoned else "healthy"
    if record.sdk == "js":
        return "healthy" if abandoned else "poisoned"
    if record.release == NEWEST:
        return "stuck" if abandoned else "healthy"
    return "poisoned" if record.kind == "function" and not abandoned else "healthy"


def test_every_approval_kind_is_exported_from_the_pinned_and_newest_release() -> None:
    """Each kind, decision and compaction on each release, as a file, or the reason it cannot
    pause (the Python SDK's ComputerTool takes no needs_approval)."""
    js = sorted({pinned(), releases()[-1]})
    wanted = {
        (sdk, release, kind, choice, compaction)
        for sdk, found in (("js", js), ("python", [PINNED, NEWEST]))
        for release in found
        for kind in TOOL_KINDS
        for choice in CHOICES
        for compaction in COMPACTIONS
    }
    made = {(r.sdk, r.release, r.kind, r.decision, r.compaction) for r in RECORDS}
    assert made == wanted
    skipped = {(r.sdk, r.kind, r.not_applicable) for r in RECORDS if not r.file}
    assert skipped == {
        (
            "python",
            "computer",
            "agents.ComputerTool has no needs_approval: a computer call never pauses for approval",
        )
    }
    assert all((FOLDER / r.file).is_file() for r in MADE)


@pytest.mark.parametrize("record", MADE, ids=[r.name for r in MADE])
def test_the_one_mapping_reads_each_request_as_the_sdks_converter_sent_it(
    record: ExportRecord,
) -> None:
    """Every model request: what the judge reads of the items the runner handed the model
    (types, pairing ids, roles) is what the SDK's converter sent over HTTP."""
    assert record.exchanges
    for exchange in record.exchanges:
        assert pairing(_given(record, exchange.given)) == pairing(exchange.sent)


def _shape(item: Item) -> tuple[str, str]:
    """An item's kind in the SDK's protocol: its type, and a hosted item's name."""
    kind = str(item.get("type") or "message")
    return kind, str(item.get("name")) if kind == "hosted_tool_call" else ""


def test_every_item_shape_the_runner_stores_went_through_the_converter() -> None:
    """Each kind of item an export holds (on each release and approval kind) is in a request
    the converter sent, so the check above covers it; only what the last turn stored is never
    sent, on a release that compacts after it (0.24.0): its compaction item."""
    stored: dict[tuple[str, str, str], set[tuple[str, str]]] = defaultdict(set)
    sent: dict[tuple[str, str, str], set[tuple[str, str]]] = defaultdict(set)
    for record in MADE:
        key = (record.sdk, record.release, record.kind)
        items = json.loads((FOLDER / record.file).read_text(encoding="utf-8"))
        stored[key] |= {_shape(item) for item in items}
        sent[key] |= {_shape(item) for e in record.exchanges for item in e.given}
    unsent = {key: shapes - sent[key] for key, shapes in stored.items() if shapes - sent[key]}
    assert unsent == {
        ("python", NEWEST, kind): {("compaction", "")}
        for kind in ("function", "mcp", "shell", "apply_patch")
    }
    js_mcp = stored["js", pinned(), "mcp"]
    assert ("hosted_tool_call", "mcp_approval_response") in js_mcp


@pytest.mark.parametrize("record", MADE, ids=[r.name for r in MADE])
def test_doctor_items_judges_each_real_export_as_the_conversation_left_it(
    record: ExportRecord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``doctor items`` on the export: the verdict the conversation left, the SDK told from the
    items, the API's refusal named where the stand-in refused the last request with it, only
    unpaired items rewritten, and the healed list judged healthy."""
    export = FOLDER / record.file
    healed = tmp_path / "healed.json"
    main(["doctor", "items", str(export), "--output", str(healed), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == expected(record)
    assert report["sdk"] == {"js": "@openai/agents", "python": "openai-agents"}[record.sdk]
    judged = judge_export(read_export(export))
    if record.last_request.startswith("HTTP 400: "):
        assert judged.refused is not None
        assert record.last_request == f"HTTP 400: {judged.refused.message}"
    unpaired = {u.position for u in find_unpaired(_given(record, judged.export.items))}
    assert {r.position for r in judged.rewrites} <= unpaired
    if judged.rewrites:
        again = judge_export(read_export(healed))
        assert (again.report.verdict, again.rewrites) == ("healthy", ())
    else:
        assert report["written"] is None or json.loads(healed.read_text()) == judged.export.items


@pytest.mark.subprocess
@pytest.mark.enable_socket
@pytest.mark.usefixtures("node_harness")
def test_the_js_exports_are_what_the_pinned_runner_writes_today() -> None:
    """The committed JS exports come from the runner, not from a hand: the pinned
    @openai/agents, driven again, stores the same items and sends the same requests."""
    again = {record.name: (record, items) for record, items in js_records(paths.ROOT)}
    for record in (r for r in RECORDS if r.sdk == "js" and r.release == pinned()):
        ran, items = again[record.name]
        assert ran.exchanges == record.exchanges and ran.last_request == record.last_request
        assert items == json.loads((FOLDER / record.file).read_text(encoding="utf-8"))
