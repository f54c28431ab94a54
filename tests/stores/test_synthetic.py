"""Synthetic stores: sessions of the length and verdict asked, written as the SDK writes them."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from approval_compaction.doctor.scan import scan_store, verdict_counts
from approval_compaction.doctor.verdict import VERDICTS, judge
from approval_compaction.lab.stores import synthetic


@pytest.mark.parametrize("verdict", VERDICTS)
@pytest.mark.parametrize("length", [3, 8, 50])
def test_session_items_have_the_length_and_verdict_asked(verdict: str, length: int) -> None:
    items = synthetic.session_items(verdict, length)
    assert len(items) == length
    assert judge("s", items).verdict == verdict


def test_session_items_refuse_an_unknown_verdict() -> None:
    with pytest.raises(ValueError, match="unknown verdict 'odd'"):
        synthetic.session_items("odd", 4)


def test_mixed_sessions_cycle_through_the_mix() -> None:
    found = list(synthetic.mixed_sessions(4, 6, ("healthy", "pending")))
    assert found == [
        ("session-000000", "healthy"),
        ("session-000001", "pending"),
        ("session-000002", "healthy"),
        ("session-000003", "pending"),
    ]


def test_generate_writes_a_store_the_doctor_reads(tmp_path: Path) -> None:
    text = str(tmp_path / "store.db")
    assert asyncio.run(synthetic.generate(text, 7, 5)) == 7
    counts = verdict_counts(asyncio.run(scan_store(text)))
    assert counts == {"healthy": 3, "poisoned": 2, "stuck": 0, "pending": 2}
    from agents import SQLiteSession

    session = SQLiteSession("session-000001", text)
    try:
        stored = asyncio.run(session.get_items())
    finally:
        session.close()
    assert stored == json.loads(json.dumps(synthetic.session_items("poisoned", 5)))
