"""The doctor's steps as the command line declares them."""

from __future__ import annotations

import argparse

import pytest

from approval_compaction.doctor import steps
from approval_compaction.formats.arguments import Handler, Parser


def declared() -> tuple[argparse.ArgumentParser, list[str], list[str]]:
    """A parser with only the doctor on it, the commands added and the modules asked for."""
    main = Parser(prog="p")
    commands = main.add_subparsers(dest="command", required=True)
    added: list[str] = []
    asked: list[str] = []

    def add(name: str, handler: Handler, help: str) -> argparse.ArgumentParser:
        added.append(name)
        command = commands.add_parser(name, help=help)
        command.set_defaults(handler=handler)
        return command

    def lazy(module: str, function: str = "command") -> Handler:
        asked.append(module)
        return lambda args: 0

    found = steps.register(add, lazy)
    assert sorted(found.choices) == ["check", "items", "repair", "restore", "scan", "sql"]
    return main, added, asked


def test_steps_register_declares_doctor_run_by_its_command_module() -> None:
    main, added, asked = declared()
    assert (added, asked) == (["doctor"], [".doctor.command"])
    args = main.parse_args(["doctor", "scan", "s.db", "--ttl", "60", "--format", "json"])
    assert (args.doctor_command, args.store, args.ttl, args.format) == ("scan", "s.db", 60, "json")


def test_steps_refuse_a_ttl_that_is_not_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    main, _, _ = declared()
    with pytest.raises(SystemExit) as stop:
        main.parse_args(["doctor", "repair", "s.db", "--ttl", "0"])
    assert stop.value.code == 2
    assert "0 is not a number of seconds" in capsys.readouterr().err


def test_steps_check_takes_each_sdk_folders_own_option() -> None:
    """``doctor check --js``/``--adk`` are declared by the folders (``check_options``): the
    doctor names neither, and each option's flag parses as the folder says it is asked."""
    main, _, _ = declared()
    options = steps.check_options()
    assert [o.FLAG for o in options] == ["--js", "--adk"]
    asked = {o.FLAG: o.asked(main.parse_args(["doctor", "check", o.FLAG])) for o in options}
    assert asked == {"--js": True, "--adk": True}
    bare = main.parse_args(["doctor", "check"])
    assert not any(o.asked(bare) for o in options)
