"""What the package's command line shares between its wings: the parser class, argument types,
and the options and help texts more than one wing declares.

A refusal is one line on stderr and exit 2, never argparse's usage or a traceback. Each wing
declares its own commands (``doctor.steps``, ``lab.commands``) with the ``AddCommand`` and
``Lazy`` that ``cli.parser`` hands it, and imports nothing heavy to do so.
"""

from __future__ import annotations

import argparse
import gc
from collections.abc import Callable
from typing import Any, Protocol

from ..errors import printable

Handler = Callable[[argparse.Namespace], int]
FORMATS = ("table", "json", "csv", "markdown")  # analysis.matrix.matrix_text's formats
CASE_HELP = "filter, e.g. decision=reject,compaction=on"
STORE_HELP = (
    "the agent's ModelSettings(store=...): default leaves it unset (auto compacts by "
    "previous_response_id); false: the responses are not stored (auto compacts by input)"
)
PATCH_HELP = (
    "a unified diff of the SDK (paths src/agents/... as git diff writes them, or agents/...): "
    "run on the base release with it applied, in a scratch environment; repeatable"
)
RELEASE_HELP = (
    "with --patch/--sdk, the release whose environment the run copies (default: the pinned "
    "release for --patch; for --sdk the release the tree declares, else the newest)"
)


class AddCommand(Protocol):
    """Declares one command: its name, what runs it, and its one-line help."""

    def __call__(self, name: str, handler: Handler, help: str) -> argparse.ArgumentParser: ...


class Lazy(Protocol):
    """A handler that imports ``module`` (relative to the package) only when its command runs."""

    def __call__(self, module: str, function: str = "command") -> Handler: ...


class Parser(argparse.ArgumentParser):
    """An argument parser whose every refusal is one line on stderr and exit 2 (argparse's
    own prints the usage first); its subcommands' parsers are of this class too."""

    def error(self, message: str) -> Any:
        self.exit(2, f"error: {printable(message)} (see {self.prog} --help)\n")

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        # argparse (3.11) drops a "--" given as an option's whole value: "--output=--" would
        # arrive as [] (for --output: stdout). Such a value is refused, naming the option.
        if action.option_strings and action.nargs is None and arg_strings == ["--"]:
            self.error(f"argument {'/'.join(action.option_strings)}: '--' is not a value")
        return super()._get_values(action, arg_strings)


def bounded_int(low: int, high: int | None = None, what: str = "a number") -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` (to ``high``), else one line saying so."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if value < low or (high is not None and value > high):
            span = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"{value} is not {what} ({span})")
        return value

    return parse


PORT = bounded_int(0, 65535, "a TCP port")
SECONDS = bounded_int(1, None, "a number of seconds")


def patch_options(command: argparse.ArgumentParser, release: bool = True) -> None:
    """``--patch FILE`` (repeatable), ``--sdk PATH`` and (unless the command has its own)
    ``--release V``, the release a patched run copies."""
    command.add_argument("--patch", action="append", metavar="FILE", help=PATCH_HELP)
    command.add_argument(
        "--sdk",
        metavar="PATH",
        help="an openai-agents source tree (a checkout or an unpacked sdist): run its src/agents "
        "on a release's dependencies, in a scratch environment",
    )
    if release:
        command.add_argument("--release", metavar="V", help=RELEASE_HELP)


def matrix_options(command: argparse.ArgumentParser) -> None:
    """A matrix command's printing: ``--format``, ``--case`` (a filter) and ``--output``."""
    command.add_argument("--format", choices=FORMATS, default="table")
    command.add_argument("--case", help=CASE_HELP)
    command.add_argument("--output", help="write to this file instead of stdout")


def report_options(command: argparse.ArgumentParser, folder: str) -> None:
    """A report command's ``--output`` (else stdout) and ``--folder``, the data it reads."""
    command.add_argument("--output", help="write here instead of stdout")
    command.add_argument("--folder", default=folder)


def sweep_options(
    command: argparse.ArgumentParser, dates: str, folder: str | None = None, where: str = ""
) -> None:
    """A sweep over an SDK's releases: ``--release`` (repeatable), ``--dates`` (``dates``
    names whom they are asked of first) and, given a ``folder``, ``--folder`` (``where``
    says what goes there)."""
    command.add_argument("--release", action="append", help="only this release (repeatable)")
    said = f"ask {dates} for the release dates first"
    command.add_argument("--dates", action="store_true", help=said)
    if folder is not None:
        command.add_argument("--folder", default=folder, help=where)


def collect_from_here() -> None:
    """Turn the cyclic garbage collector back on once a command's modules are imported
    (``__main__`` turns it off for the imports), with what is loaded so far frozen out of its
    work. A long command makes cycles that only the collector frees (``explore`` makes some in
    every example: hypothesis's runs, event loops, tracebacks)."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
