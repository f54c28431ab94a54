"""The command writes the record from cached environments and never installs one."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.cli import main
from approval_compaction.mechanism import command
from approval_compaction.mechanism.catalogue import RELEASES
from approval_compaction.mechanism.record import MechanismError, load_record
from approval_compaction.releases.environments import SweepError


def test_command_missing_environment_is_a_one_line_error_before_anything_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[str] = []
    monkeypatch.setattr(command, "live_record", lambda: ran.append("live") or {})
    with pytest.raises(SweepError) as raised:
        command.build(tmp_path)
    message = str(raised.value)
    assert "\n" not in message and "make sweep" in message
    assert message.startswith(f"no environment for openai-agents {RELEASES[1]} in {tmp_path}")
    assert ran == []


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


def test_command_missing_record_is_a_one_line_error(tmp_path: Path) -> None:
    missing = tmp_path / "mechanism.json"
    with pytest.raises(MechanismError) as raised:
        load_record(missing)
    assert str(raised.value) == f"{missing} does not exist: run `make mechanism`"
