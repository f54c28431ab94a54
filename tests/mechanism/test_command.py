"""The command writes the record from cached environments and never installs one."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.cli import main
from approval_compaction.mechanism import command
from approval_compaction.mechanism.catalogue import CATALOGUE, PINNED
from approval_compaction.mechanism.command import cached_environment
from approval_compaction.mechanism.record import MechanismError, load_record, write_record


def test_command_missing_environment_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(MechanismError) as raised:
        cached_environment("0.22.0", tmp_path)
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith("no environment for openai-agents 0.22.0 in ")
    assert "make sweep" in message


def test_command_unknown_release_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(MechanismError, match=r"^9\.9\.9 is not in release-dates\.json$"):
        cached_environment("9.9.9", tmp_path)


def test_command_cli_reports_a_missing_environment_before_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(command, "default_envs", lambda: tmp_path)
    ran: list[str] = []
    monkeypatch.setattr(command, "live_record", lambda: ran.append("live") or {})
    assert main(["mechanism"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no environment for openai-agents ") and err.count("\n") == 1
    assert ran == []  # nothing ran before the environments were checked


def test_command_record_is_stable_and_names_the_catalogue(tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    write_record(first, {PINNED: {"release": PINNED}})
    write_record(second, {PINNED: {"release": PINNED}})
    assert first.read_bytes() == second.read_bytes() and first.read_text().endswith("}\n")
    record = load_record(first)
    assert record["catalogue"] == [f.qualname for f in CATALOGUE]
    assert record["releases"] == {PINNED: {"release": PINNED}}


def test_command_missing_record_is_a_one_line_error(tmp_path: Path) -> None:
    missing = tmp_path / "mechanism.json"
    with pytest.raises(MechanismError) as raised:
        load_record(missing)
    assert str(raised.value) == f"{missing} does not exist: run `make mechanism`"
