"""The ADK commands' files (slow: they run the driver in the pinned release's environment)."""

from __future__ import annotations

import argparse

import pytest

from approval_compaction.lab.share.adk import matrix_command

pytestmark = [pytest.mark.slow, pytest.mark.releases, pytest.mark.subprocess]


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
