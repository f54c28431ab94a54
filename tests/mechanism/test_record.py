"""The record: written stably, read back whole, and a missing one is one line saying what to run."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.mechanism.catalogue import CATALOGUE, PINNED
from approval_compaction.mechanism.record import (
    MechanismError,
    load_record,
    recorded_extract,
    recorded_release,
    write_record,
)
from approval_compaction.mechanism.trace import REPORT_CASE

EXTRACT = {"status": "absent", "path": "", "first_line": 0, "source": ""}


def test_record_is_stable_and_names_the_catalogue_and_the_case(tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    releases = {PINNED: {"release": PINNED, "functions": {"f": EXTRACT}}}
    write_record(first, releases)
    write_record(second, releases)
    assert first.read_bytes() == second.read_bytes() and first.read_text().endswith("}\n")
    record = load_record(first)
    assert record["catalogue"] == [f.qualname for f in CATALOGUE]
    assert record["case"] == REPORT_CASE.as_dict() and record["releases"] == releases
    assert recorded_extract(PINNED, "f", first) == EXTRACT


def test_record_of_a_release_it_does_not_hold_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "mechanism.json"
    write_record(path, {PINNED: {}})
    with pytest.raises(MechanismError) as raised:
        recorded_release("9.9.9", path)
    assert str(raised.value) == "mechanism.json records no release 9.9.9: run `make mechanism`"


@pytest.mark.parametrize("content", [None, "{"], ids=["missing", "truncated"])
def test_record_missing_or_corrupt_is_one_line(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "mechanism.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(MechanismError) as raised:
        load_record(path)
    message = str(raised.value)
    assert message.startswith(f"{path} ") and message.endswith(": run `make mechanism`")
    assert "\n" not in message
