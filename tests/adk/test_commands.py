"""The ADK commands, as the command line parses them."""

from __future__ import annotations

from approval_compaction.cli import parser


def test_commands_adk_matrix_takes_a_kind_and_a_release() -> None:
    args = parser().parse_args(["adk-matrix", "--kind", "tokens-2", "--release", "1.16.0"])
    assert (args.kind, args.release, args.format) == ("tokens-2", "1.16.0", "table")


def test_commands_adk_sweep_takes_releases_and_a_folder() -> None:
    args = parser().parse_args(["adk-sweep", "--release", "1.16.0", "--folder", "/tmp/x"])
    assert args.release == ["1.16.0"] and args.folder == "/tmp/x" and not args.dates
