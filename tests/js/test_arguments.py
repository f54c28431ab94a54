"""The JS commands as the command line declares them: through the plugin registry, in their
place in ``--help`` (first of the SDKs'), each with the options its handler reads."""

from __future__ import annotations

import pytest

from approval_compaction.cli import parser

COMMANDS = ("js-matrix", "js-sdk-test", "report-js", "js-fix", "js-typecheck", "js-mutants",
            "js-upstream", "js-liveness", "js-stall", "js-sweep")  # fmt: skip


def test_arguments_declare_every_js_command_together_before_the_other_sdks() -> None:
    found = list(parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    first = found.index(COMMANDS[0])
    assert found[first : first + len(COMMANDS)] == list(COMMANDS)
    assert first < found.index("adk-matrix") < found.index("langchain-matrix")


def test_arguments_report_js_takes_the_stall_and_a_folder() -> None:
    args = parser().parse_args(["report-js", "--stall", "--folder", "elsewhere"])
    assert (args.stall, args.folder, args.output) == (True, "elsewhere", None)


def test_arguments_js_matrix_refuses_an_unknown_mode_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        parser().parse_args(["js-matrix", "--mode", "sometimes"])
    assert "invalid choice: 'sometimes'" in capsys.readouterr().err
