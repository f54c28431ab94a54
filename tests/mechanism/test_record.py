"""The record: written stably, parsed once into typed records, and a missing or malformed one is
one line saying what to run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from approval_compaction.lab.mechanism.catalogue import CATALOGUE, PINNED
from approval_compaction.lab.mechanism.record import (
    MechanismError,
    MechanismRecord,
    ReleaseMechanism,
    load_record,
    pinned_here,
    recorded_extract,
    recorded_release,
    write_record,
)
from approval_compaction.lab.mechanism.source import MISSING, Extract
from approval_compaction.lab.mechanism.trace import REPORT_CASE, StageRecord, Trace

EXTRACT = Extract(status="present", path="agents/x.py", first_line=3, source="def f():\n")
TRACE = Trace(
    model="scripted",
    calls={"f": ("pause",)},
    callers={"f": {"pause": ("caller",)}},
    stages=(StageRecord("pause", 1, ("agents: a warning",), "ok", ("message:user",)),),
)
RELEASE = ReleaseMechanism(PINNED, {"f": EXTRACT, "g": MISSING}, TRACE)


def test_record_is_stable_and_names_the_catalogue_and_the_case(tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    write_record(first, {PINNED: RELEASE})
    write_record(second, {PINNED: RELEASE})
    assert first.read_bytes() == second.read_bytes() and first.read_text().endswith("}\n")
    record = load_record(first)
    assert record.catalogue == tuple(f.qualname for f in CATALOGUE)
    assert record.case == REPORT_CASE and record.releases == {PINNED: RELEASE}
    assert recorded_extract(PINNED, "f", first) == EXTRACT
    assert recorded_release(PINNED, first).trace.stages[0].warnings == ("agents: a warning",)


def test_record_json_is_the_plain_fields_sorted(tmp_path: Path) -> None:
    path = tmp_path / "mechanism.json"
    write_record(path, {PINNED: RELEASE})
    data = json.loads(path.read_text())
    assert list(data) == ["case", "catalogue", "releases"]
    assert data["releases"][PINNED]["functions"]["f"] == {
        "first_line": 3,
        "path": "agents/x.py",
        "source": "def f():\n",
        "status": "present",
    }
    assert data["releases"][PINNED]["trace"]["stages"][0]["stored"] == ["message:user"]
    assert MechanismRecord.from_json(data) == load_record(path)


def test_record_of_a_release_it_does_not_hold_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "mechanism.json"
    write_record(path, {PINNED: RELEASE})
    with pytest.raises(MechanismError) as raised:
        recorded_release("9.9.9", path)
    assert str(raised.value) == "mechanism.json records no release 9.9.9: run `make mechanism`"


@pytest.mark.parametrize(
    "content",
    [None, "{", '{"catalogue": [], "case": {}, "releases": {"0.1.0": {"release": "0.1.0"}}}'],
    ids=["missing", "truncated", "another-shape"],
)
def test_record_missing_corrupt_or_malformed_is_one_line(
    tmp_path: Path, content: str | None
) -> None:
    path = tmp_path / "mechanism.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(MechanismError) as raised:
        load_record(path)
    message = str(raised.value)
    assert message.startswith(f"{path} ") and message.endswith(": run `make mechanism`")
    assert "\n" not in message


def test_record_that_mixes_a_patched_and_a_released_sdk_is_refused(tmp_path: Path) -> None:
    from dataclasses import replace

    path = tmp_path / "mechanism.json"
    write_record(path, {PINNED: RELEASE, "patched": replace(RELEASE, patch="x.diff sha256:1")})
    with pytest.raises(MechanismError) as raised:
        load_record(path)
    message = str(raised.value)
    assert "mixes patched and released SDKs: released, 'x.diff sha256:1'" in message
    assert "\n" not in message


def test_pinned_here_passes_on_the_pinned_release_and_names_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from approval_compaction.lab.mechanism import record

    pinned_here()  # this interpreter runs the pinned release (requirements.txt)
    monkeypatch.setattr(record, "sdk_version", lambda: "9.9.9")
    with pytest.raises(
        MechanismError, match=rf"^openai-agents 9\.9\.9 is installed, not the pinned {PINNED}$"
    ):
        pinned_here()
