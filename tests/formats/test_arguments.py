"""The command line's shared parts: one-line refusals and bounded numbers."""

from __future__ import annotations

import argparse
import re

import pytest

from approval_compaction.formats.arguments import (
    PORT,
    Parser,
    bounded_int,
    matrix_options,
    patch_options,
    report_options,
    sweep_options,
)


@pytest.mark.parametrize(
    ("text", "message"),
    [("x", "'x' is not a TCP port"), ("70000", "70000 is not a TCP port (from 0 to 65535)")],
    ids=["not-a-number", "too-high"],
)
def test_arguments_bounded_int_refuses_in_one_line(text: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="^" + re.escape(message)):
        PORT(text)


def test_arguments_bounded_int_without_high_says_at_least() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=r"\(at least 1\)"):
        bounded_int(1)("0")
    assert bounded_int(1)("7") == 7


def test_arguments_parser_refuses_with_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = Parser(prog="prog")
    parser.add_argument("--port", type=PORT)
    with pytest.raises(SystemExit) as stop:
        parser.parse_args(["--port", "99999"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "see prog --help" in err


def test_arguments_patch_options_declare_release_unless_the_command_has_its_own() -> None:
    with_release, without = argparse.ArgumentParser(), argparse.ArgumentParser()
    patch_options(with_release)
    patch_options(without, release=False)
    args = with_release.parse_args(["--patch", "a", "--patch", "b", "--release", "0.24.0"])
    assert (args.patch, args.release) == (["a", "b"], "0.24.0")
    assert "release" not in vars(without.parse_args([]))


def test_arguments_an_sdks_matrix_report_and_sweep_options_parse_as_its_commands_read_them() -> (
    None
):
    matrix, report, sweep, bare = Parser(), Parser(), Parser(), Parser()
    matrix_options(matrix)
    report_options(report, "data")
    sweep_options(sweep, "the package index", "data", "where the sweep goes")
    sweep_options(bare, "npm's registry")
    said = matrix.parse_args(["--format", "csv", "--case", "decision=reject"])
    assert (said.format, said.case, said.output) == ("csv", "decision=reject", None)
    assert vars(report.parse_args([])) == {"output": None, "folder": "data"}
    swept = sweep.parse_args(["--release", "1.0", "--release", "1.1", "--dates"])
    assert (swept.release, swept.dates, swept.folder) == (["1.0", "1.1"], True, "data")
    assert "folder" not in vars(bare.parse_args([]))  # no folder given: no --folder
    assert "ask npm's registry for the release dates first" in bare.format_help()
