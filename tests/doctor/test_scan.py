"""Scan: every session's verdict streamed in id order, in a table, JSON or CSV."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest

from approval_compaction.doctor import scan
from approval_compaction.lab.stores.synthetic import generate


@pytest.fixture
def store(tmp_path: Path) -> str:
    text = str(tmp_path / "store.db")
    asyncio.run(generate(text, 4, 6))
    return text


def test_scan_store_judges_every_session_in_id_order(store: str) -> None:
    reports = asyncio.run(scan.scan_store(store))
    assert [(r.session_id, r.verdict) for r in reports] == [
        ("session-000000", "healthy"),
        ("session-000001", "poisoned"),
        ("session-000002", "pending"),
        ("session-000003", "healthy"),
    ]
    assert scan.verdict_counts(reports) == {"healthy": 2, "poisoned": 1, "stuck": 0, "pending": 1}
    assert [r.session_id for r in asyncio.run(scan.scan_store(store, "session-000002"))] == [
        "session-000002"
    ]


@pytest.mark.parametrize("fmt", scan.FORMATS)
def test_scan_to_streams_each_format_and_counts(store: str, fmt: str) -> None:
    out = io.StringIO()
    counts = asyncio.run(scan.scan_to(out, store, fmt))
    assert counts == Counter({"healthy": 2, "poisoned": 1, "stuck": 0, "pending": 1})
    text = out.getvalue()
    if fmt == "json":
        verdicts = [row["verdict"] for row in json.loads(text)]
        assert verdicts == ["healthy", "poisoned", "pending", "healthy"]
    elif fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(text)))
        assert list(rows[0]) == list(scan.COLUMNS) and len(rows) == 4
    else:
        lines = text.splitlines()
        assert lines[0].split() == list(scan.COLUMNS)
        assert lines[-1] == "4 sessions: 2 healthy, 1 poisoned, 0 stuck, 1 pending"


def test_scan_of_no_session_is_valid_in_each_format(store: str) -> None:
    for fmt, expected in (
        ("json", []),
        ("table", "0 sessions: 0 healthy, 0 poisoned, 0 stuck, 0 pending"),
    ):
        out = io.StringIO()
        asyncio.run(scan.scan_to(out, store, fmt, "no-such-session"))
        found = json.loads(out.getvalue()) if fmt == "json" else out.getvalue().splitlines()[-1]
        assert found == expected
