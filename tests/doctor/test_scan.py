"""Scan: every session's verdict streamed in id order, in a table, JSON or CSV."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import sqlite3
import time
from collections import Counter
from pathlib import Path

import pytest

from approval_compaction.doctor import codec, scan
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


def test_a_ttl_says_in_each_session_s_note_how_many_items_it_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression for issue 33: ``--ttl 1`` showed every session healthy, saying nothing of
    the items it left out."""
    key = "q2H3pO4J0m3S6u7Yc8bC9dE0fG1hI2jK3lM4nO5pQ6r="
    target = tmp_path / "sealed.db"
    asyncio.run(generate(str(target), 2, 4, ("healthy",), key=key))
    monkeypatch.setenv("SESSION_ENCRYPTION_KEY", key)
    sealed = codec.EncryptedCodec(key)
    with sqlite3.connect(target) as conn:  # every item sealed again two hours ago
        for row_id, sid, text in conn.execute(
            "SELECT id, session_id, message_data FROM agent_messages"
        ).fetchall():
            envelope = json.loads(text)
            cipher = sealed._for(sid).cipher
            plain = cipher.decrypt(envelope["payload"])
            envelope["payload"] = cipher.encrypt_at_time(plain, int(time.time()) - 7200).decode()
            conn.execute(
                "UPDATE agent_messages SET message_data = ? WHERE id = ?",
                (json.dumps(envelope), row_id),
            )
    notes: list[str] = []
    out = io.StringIO()
    counts = asyncio.run(scan.scan_to(out, str(target), "table", ttl=3600, note=notes.append))
    assert counts == {"healthy": 2}
    lines = out.getvalue().splitlines()[1:3]
    assert all(line.endswith("healthy   4 items older than the ttl left out") for line in lines)
    assert notes == [
        "--ttl 3600 left out 8 items older than 3600 s, as EncryptedSession with this ttl "
        "skips them (they count in no column)"
    ]
