"""The command writes the record from cached environments and never installs one."""

from __future__ import annotations

from pathlib import Path

import needs
import pytest

from approval_compaction.cli import main
from approval_compaction.lab.mechanism import command
from approval_compaction.lab.mechanism.catalogue import RELEASES
from approval_compaction.lab.mechanism.record import MechanismError, load_record
from approval_compaction.lab.releases.environments import SweepError


def test_command_missing_environment_is_a_one_line_error_before_anything_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[str] = []
    monkeypatch.setattr(command, "live_record", lambda: ran.append("live") or {})
    with pytest.raises(SweepError) as raised:
        command.build(tmp_path)
    message = str(raised.value)
    assert "\n" not in message and "approval_compaction envs" in message
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


@pytest.mark.releases
def test_mechanism_of_a_patched_sdk_is_its_own_labelled_record(tmp_path: Path) -> None:
    """The committed minimal fix traced on the pinned release: a record of that one SDK, with
    the patch's label, whose traces compact as the fixing release's do on both boundaries."""
    from approval_compaction import cli
    from approval_compaction.lab.mechanism.anatomy import load_anatomy
    from approval_compaction.lab.mechanism.catalogue import PINNED
    from approval_compaction.lab.mechanism.record import load_record
    from approval_compaction.lab.releases.patched import read_patch

    needs.release(PINNED)
    patch = tmp_path / "minimal-fix.diff"
    patch.write_text(load_anatomy().minimal_patch)
    output = tmp_path / "mechanism.json"
    assert cli.main(["mechanism", "--patch", str(patch), "--output", str(output)]) == 0
    record = load_record(output).release(PINNED)
    assert record.patch == read_patch(patch).label
    compacting = {
        boundary: [s.name for s in trace.stages if s.compaction_requests]
        for boundary, trace in record.traces.items()
    }
    assert compacting == {"json": ["next_turn"], "memory": ["resume", "next_turn"]}
