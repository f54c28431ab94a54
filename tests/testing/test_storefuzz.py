"""The store fuzzer's driver: a built case keeps the promises, and a broken backup is caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.doctor import backup
from approval_compaction.doctor.values import Value
from approval_compaction.testing.storefuzz import StoreCase, build, cells, run_case

# An orphan output beside a blob, an integer and text that is not UTF-8, in a session that has
# no agent_sessions row, and a healthy session with its row.
CASE = StoreCase(
    message_type="",
    created_type="",
    wal=True,
    session_ids=("a\x1b", "b"),
    with_row=(False, True),
    rows=(
        (0, "output", "c1", 0),
        (0, "blob", "c1", 1),
        (0, "int", "c1", 2),
        (0, "rawtext", "c1", 0),
        (1, "user", "c1", 0),
    ),  # fmt: skip
    lock=False,
    failure=None,
    failing=0,
)


def test_build_writes_each_value_with_its_type(tmp_path: Path) -> None:
    build(CASE, tmp_path / "s.db")
    assert [row[2] for row in cells(tmp_path / "s.db")] == [
        "text",
        "blob",
        "integer",
        "text",
        "text",
    ]


@pytest.mark.parametrize(
    "changes",
    [{}, {"lock": True}, {"failure": "trigger"}, {"failure": "full"}],
    ids=["plain", "lock", "trigger", "full"],
)
def test_a_case_keeps_the_doctors_promises(tmp_path: Path, changes: dict[str, object]) -> None:
    from dataclasses import replace

    assert run_case(replace(CASE, **changes), tmp_path) == []  # type: ignore[arg-type]


def test_a_backup_that_loses_a_value_s_type_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The driver can fail: a backup that writes every value as text is refused by its own
    fingerprint, so the repair stops and there is nothing to restore from."""

    def as_text(value: Value) -> object:
        return None if value is None else str(value)

    monkeypatch.setattr(backup, "to_json", as_text)
    problems = run_case(CASE, tmp_path)
    assert any(p.endswith("line 2 does not match its fingerprint") for p in problems), problems
    assert "restore: exit 2" in problems
