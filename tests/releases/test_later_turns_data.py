"""The liveness data command: a missing environment for the newer release is one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.cli import main
from approval_compaction.formats.records import RecordsError
from approval_compaction.lab.releases.later_turns import load_liveness


def test_liveness_command_without_the_newer_environment_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "liveness.json"
    code = main(["liveness", "--turns", "1", "--envs", str(tmp_path), "--output", str(output)])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no environment for openai-agents ") and err.count("\n") == 1
    assert not output.exists()  # nothing written


def test_liveness_load_names_the_command_when_the_file_is_missing(tmp_path: Path) -> None:
    with pytest.raises(RecordsError, match="python -m approval_compaction liveness"):
        load_liveness(tmp_path / "liveness.json")


def test_liveness_command_model_is_one_of_the_wirings(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["liveness", "--model", "lenient"])
    assert "invalid choice: 'lenient'" in capsys.readouterr().err
