"""The lab's commands as the command line declares them (``lab/commands.py``)."""

from __future__ import annotations

import argparse

from approval_compaction import cli
from approval_compaction.formats.arguments import Handler, Parser
from approval_compaction.lab import commands


def test_commands_register_declares_the_lab_commands_and_nothing_of_the_core() -> None:
    main = Parser(prog="p")
    subparsers = main.add_subparsers(dest="command", required=True)
    added: list[str] = []

    def add(name: str, handler: Handler, help: str) -> argparse.ArgumentParser:
        added.append(name)
        command = subparsers.add_parser(name, help=help)
        command.set_defaults(handler=handler)
        return command

    commands.register(add, cli._lazy, cli.parser)
    assert {"sweep", "explore", "js-matrix", "readme", "report"} <= set(added)
    assert not {"matrix", "serve", "doctor"} & set(added)
    assert len(added) == len(set(added))


def test_commands_readme_gets_the_whole_parser_to_document() -> None:
    args = cli.parser().parse_args(["readme"])
    assert args.handler is commands._readme
    assert args.whole_parser is cli.parser


def test_commands_doctor_data_is_the_labs_step() -> None:
    args = cli.parser().parse_args(["doctor", "data", "--version", "0.24.0"])
    assert (args.doctor_command, args.version) == ("data", "0.24.0")
    assert (
        args.handler
        is not cli.parser().parse_args(["doctor", "sql", "--dialect", "sqlite"]).handler
    )
