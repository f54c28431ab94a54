"""The LangChain commands: declared on the command line, each loading nothing until it runs."""

from __future__ import annotations

import pytest

from approval_compaction.cli import parser

COMMANDS = ("langchain-matrix", "langchain-data", "langchain-sweep", "langchain-fix",
            "report-langchain")  # fmt: skip


def test_commands_are_declared_through_the_plugin_registry() -> None:
    found = parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert set(COMMANDS) <= set(found)


def test_commands_matrix_refuses_an_unknown_kind_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        parser().parse_args(["langchain-matrix", "--kind", "window-0"])
    assert "invalid choice: 'window-0'" in capsys.readouterr().err
