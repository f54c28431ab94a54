"""The ADK commands, as the command line parses them, and the files they write (the slow ones
run the driver in the pinned release's environment)."""

from __future__ import annotations

import argparse

import pytest

from approval_compaction.adk.commands import matrix_command
from approval_compaction.cli import parser


def test_commands_adk_matrix_takes_a_kind_and_a_release() -> None:
    args = parser().parse_args(["adk-matrix", "--kind", "tokens-2", "--release", "1.16.0"])
    assert (args.kind, args.release, args.format) == ("tokens-2", "1.16.0", "table")


def test_commands_adk_sweep_takes_releases_and_a_folder() -> None:
    args = parser().parse_args(["adk-sweep", "--release", "1.16.0", "--folder", "/tmp/x"])
    assert args.release == ["1.16.0"] and args.folder == "/tmp/x" and not args.dates


@pytest.mark.slow
@pytest.mark.releases
@pytest.mark.subprocess
def test_adk_matrix_command_prints_the_cases_it_was_given(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = argparse.Namespace(
        kind="window-0", case="runner=run,decision=approve,compaction=on", release=None,
        format="json", output=None, model="scripted",
    )  # fmt: skip
    assert matrix_command(args) == 0
    out = capsys.readouterr().out
    assert '"state_boundary": "json"' in out and '"state_boundary": "memory"' in out
    assert '"holds": false' not in out
