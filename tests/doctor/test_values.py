"""Values: each stored value's type and bytes survive the backup's JSON."""

from __future__ import annotations

import pytest

from approval_compaction.doctor.values import RawText, from_json, kind, read_text, same, to_json

VALUES = ["{}", "", b"\x00\xff", RawText(b"\xff{"), 7, -(2**63), 2.5, float("inf"), None]


@pytest.mark.parametrize("value", VALUES, ids=[kind(v) + str(i) for i, v in enumerate(VALUES)])
def test_every_value_round_trips_with_its_type(value: object) -> None:
    back = from_json(to_json(value))  # type: ignore[arg-type]
    assert same(back, value) and kind(back) == kind(value)  # type: ignore[arg-type]


def test_same_tells_types_apart_and_text_that_is_not_utf8_is_kept() -> None:
    assert not same(1, 1.0) and not same("1", 1) and not same(b"{}", RawText(b"{}"))
    assert read_text("é".encode()) == "é" and kind(read_text(b"\xff")) == "rawtext"
    with pytest.raises(ValueError):
        from_json({"int": True})
