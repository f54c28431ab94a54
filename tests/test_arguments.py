"""Bad arguments, generated: every command answers one line on stderr and exit 2, never a
traceback (issue 33: store URLs, ``--backup /proc/self/x.jsonl``, ``serve --port 99999``, and
``share`` or ``render`` of a file that is not a notebook each ended in 30 to 58 lines).

Each test drives one command's argument parser, in-process, with values hypothesis generates
from the shapes that broke (and a few more); a value is generated only where it is bad by
construction, so no example reaches a server, runs the matrix or writes a file.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import io
import string
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from approval_compaction import cli
from approval_compaction.cli import main, parser
from approval_compaction.lab.stores.synthetic import generate

EXAMPLES = settings(max_examples=40, deadline=None)
WORD = st.text(string.ascii_letters, min_size=1, max_size=12)
TEXT = st.text(min_size=1, max_size=40)  # any characters: NUL, surrogates, newlines
SCHEMES = ("postgresql+asyncpg", "mysql+asyncmy", "redis")


def run(argv: list[str]) -> tuple[int, str]:
    """The exit status and stderr of ``python -m approval_compaction ARGV``, in-process."""
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:  # argparse's refusal
            code = stop.code if isinstance(stop.code, int) else 1
    return code, err.getvalue()


def assert_one_line(argv: list[str]) -> str:
    code, err = run(argv)
    assert code == 2, (argv, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), (argv, err)
    return lines[0]


@st.composite
def bad_stores(draw: st.DrawFn, folder: Path) -> str:
    """A store string that is bad before anything connects: a URL that does not parse, a
    port out of range, a Redis database that is not a number, a file that is not there or is
    not a database, a scheme nobody serves."""
    scheme = draw(st.sampled_from(SCHEMES))
    kind = draw(st.integers(0, 6))
    text = draw(TEXT.filter(lambda t: "]" not in t))
    if kind == 0:
        return f"{scheme}://u:p@[{text}/db"  # an IPv6 host never closed
    if kind == 1:
        return f"{scheme}://u@h:{draw(WORD)}/db"  # a port that is not a number
    if kind == 2:
        return f"{scheme}://u@h:{draw(st.integers(65536, 10**9))}/db"
    if kind == 3:
        return f"redis://h/{draw(WORD)}"
    if kind == 4:
        return f"zz{draw(WORD)}+{draw(WORD)}://x/db"
    if kind == 5:
        return str(folder / "absent" / text.replace("/", "_"))
    garbage = folder / f"garbage-{draw(st.integers(0, 10**6))}.db"
    garbage.write_bytes(draw(st.binary(min_size=1, max_size=200)).rjust(100, b"x"))
    return str(garbage)


@pytest.fixture(scope="module", autouse=True)
def command_line_built_once() -> Iterator[None]:
    """``main`` parses with the command line built once for the module (with the lab's commands,
    and without them for the doctor's own), not once per generated example: ``cli.parser`` is
    a pure function of ``with_lab``, argparse parses any number of times with one parser, and
    building it is three quarters of a refused command's time."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli, "parser", functools.cache(cli.parser))
        yield


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("arguments")


@pytest.fixture(scope="module")
def store(folder: Path) -> Path:
    """A small store with poisoned sessions: a repair with a good backup would write it."""
    target = folder / "store.db"
    asyncio.run(generate(str(target), 3, 6))
    return target


@pytest.mark.parametrize("step", ["scan", "repair"])
def test_doctor_scan_and_repair_refuse_bad_stores_and_ttls(step: str, folder: Path) -> None:
    @EXAMPLES
    @given(bad_stores(folder), st.one_of(st.none(), st.integers(max_value=0), WORD))
    def check(text: str, ttl: int | str | None) -> None:
        argv = ["doctor", step, text] + ([] if ttl is None else ["--ttl", str(ttl)])
        assert_one_line(argv + (["--apply"] if step == "repair" else []))

    check()


@pytest.mark.parametrize("step", ["scan", "repair"])
@pytest.mark.parametrize("store", ["{folder}/absent/\x00", "sqlite+aiosqlite:///{folder}/a\x00.db"])
def test_a_store_path_with_a_nul_byte_is_one_line_naming_it(
    step: str, store: str, folder: Path
) -> None:
    line = assert_one_line(["doctor", step, store.format(folder=folder)])
    assert "is not a file path: embedded null byte" in line, line


def test_doctor_repair_refuses_a_backup_it_cannot_write_and_writes_nothing(
    folder: Path, store: Path
) -> None:
    before = store.read_bytes()

    @EXAMPLES
    @given(WORD, st.sampled_from(["proc", "absent", "exists", "folder"]))
    def check(name: str, where: str) -> None:
        backup = {
            "proc": f"/proc/self/{name}.jsonl",
            "absent": str(folder / "no-such-folder" / name),
            "exists": str(store),
            "folder": str(folder),
        }[where]
        assert_one_line(["doctor", "repair", str(store), "--apply", "--backup", backup])

    check()
    assert store.read_bytes() == before


def test_doctor_restore_refuses_files_that_are_not_backups(folder: Path, store: Path) -> None:
    @EXAMPLES
    @given(st.binary(max_size=300), st.booleans())
    def check(content: bytes, with_store: bool) -> None:
        backup = folder / "not-a-backup.jsonl"
        backup.write_bytes(content)
        assert_one_line(["doctor", "restore", str(backup)] + (["--store", str(store)] * with_store))

    check()


def test_doctor_sql_refuses_a_dialect_it_does_not_know() -> None:
    @EXAMPLES
    @given(WORD.filter(lambda w: w not in ("sqlite", "postgresql", "mysql")))
    def check(dialect: str) -> None:
        assert_one_line(["doctor", "sql", "--dialect", dialect])

    check()


def test_serve_refuses_a_port_that_is_not_one() -> None:
    """Regression for issue 33: ``serve --port 99999`` and ``-1`` were tracebacks."""
    bad_port = st.one_of(st.integers(65536, 10**12), st.integers(max_value=-1), WORD)

    @EXAMPLES
    @given(bad_port, st.one_of(st.none(), WORD))
    def check(port: int | str, rules: str | None) -> None:
        argv = ["serve", f"--port={port}"]
        assert_one_line(argv + ([f"--compact-rules={rules}z"] if rules else []))

    check()


@pytest.mark.parametrize("command", ["share", "render"])
def test_share_and_render_refuse_a_file_that_is_not_a_notebook(command: str, folder: Path) -> None:
    """Regression for issue 33: ``share`` or ``render`` of a file that is not a notebook was a
    39 to 58-line traceback."""
    content = st.one_of(
        st.binary(max_size=300),
        st.builds(lambda t: ('{"cells": ' + t + "}").encode(), TEXT),
        st.just(
            b'{"cells": [{"cell_type": 5}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
        ),
    )

    @EXAMPLES
    @given(content)
    def check(data: bytes) -> None:
        notebook = folder / "not-a-notebook.ipynb"
        notebook.write_bytes(data)
        out = folder / "rendered-here"
        line = assert_one_line([command, str(notebook), "--folder", str(out)])
        assert "is not a Jupyter notebook" in line, line

    check()


def test_share_and_report_refuse_an_existing_output(folder: Path, store: Path) -> None:
    notebook = Path("notebooks/01-walkthrough.ipynb")
    before = store.read_bytes()

    @EXAMPLES
    @given(st.sampled_from(["share-notebook", "share-case", "report"]), WORD)
    def check(form: str, label: str) -> None:
        argv = {
            "share-notebook": ["share", str(notebook), "--output", str(store)],
            "share-case": ["share", "--case", f"{label}/a/b/c", "--output", str(store)],
            "report": ["report", "--case", label, "--output", str(store)],
        }[form]
        line = assert_one_line(argv)
        assert line == f"error: {store} already exists: pass --force to replace it"

    check()
    assert store.read_bytes() == before


def test_report_refuses_a_case_filter_that_is_not_one(folder: Path) -> None:
    @EXAMPLES
    # dashes alone are no value at all (test_every_option_refuses_a_lone_dashes_value)
    @given(
        st.text(string.ascii_letters + string.digits + " -_.", min_size=1).filter(
            lambda case: case.strip().strip("-")
        )
    )
    def check(case: str) -> None:
        line = assert_one_line(["report", f"--case={case}", "--output", str(folder / "new.md")])
        assert "case filter" in line

    check()
    assert not (folder / "new.md").exists()


def test_every_option_refuses_a_lone_dashes_value() -> None:
    """argparse (3.11) hands ``--x=--`` over as an empty list: ``report --output=--`` printed
    the report to stdout, ``--case=--`` kept every case. Every option that takes one value
    refuses it in one line that names the option, and nothing is written."""
    options = [
        (command, option)
        for command, sub in next(
            a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)
        ).choices.items()
        for action in sub._actions
        if action.option_strings and action.nargs is None and action.option_strings != ["-h"]
        for option in action.option_strings[-1:]
    ]
    assert ("report", "--output") in options and ("matrix", "--case") in options

    @EXAMPLES
    @given(st.sampled_from(options))
    def check(pair: tuple[str, str]) -> None:
        command, option = pair
        line = assert_one_line([command, f"{option}=--"])
        assert f"argument {option}" in line and "'--' is not a value" in line, line

    check()


def test_render_refuses_a_folder_it_does_not_own(folder: Path) -> None:
    foreign = folder / "someone-elses"
    foreign.mkdir(exist_ok=True)
    (foreign / "notes.txt").write_text("mine")

    @EXAMPLES
    @given(st.sampled_from(["render", "share"]), st.sampled_from(["foreign", "file"]))
    def check(command: str, where: str) -> None:
        target = foreign if where == "foreign" else foreign / "notes.txt"
        argv = [command, "notebooks/01-walkthrough.ipynb", "--folder", str(target)]
        assert "--folder" in assert_one_line(argv)

    check()
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"]


def subcommands() -> list[str]:
    found = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(found.choices)


@pytest.mark.parametrize("command", subcommands())
def test_every_command_refuses_an_unknown_option_in_one_line(command: str) -> None:
    @settings(max_examples=10, deadline=None)
    @given(WORD)
    def check(option: str) -> None:
        line = assert_one_line([command, f"--zz-{option}"])
        assert "unrecognized arguments" in line or "required" in line

    check()
