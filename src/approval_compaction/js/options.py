"""Options: ``doctor check --js [FOLDER]``, as the JS folder declares it on the doctor's
``check``, and how ``doctor items --sdk js`` names its exports (``EXPORT``), importing nothing
heavy: the doctor declares its steps without loading an SDK, so it
loads this module by name (``sdks``) and the check itself (``check.command``) only when asked."""

from __future__ import annotations

import argparse
from typing import TextIO

from ..sdks import Exported

FLAG = "--js"
SAID = "--js for @openai/agents"  # how the doctor's one-line help names it
# ``doctor items --sdk js``: a session's ``getItems()`` (``items`` maps it to the wire's shapes).
EXPORT = Exported(
    "@openai/agents", "getItems() in JS", "the JS SDK's", "callId, providerData or a JS type"
)


def declare(check: argparse.ArgumentParser) -> None:
    """Add ``--js [FOLDER]`` to the doctor's ``check``."""
    check.add_argument(
        FLAG,
        nargs="?",
        const=".",
        metavar="FOLDER",
        help="check the @openai/agents (JS SDK) in FOLDER/node_modules (default: the current "
        "folder) instead of the installed openai-agents; runs that folder's installed code in "
        "Node",
    )


def asked(args: argparse.Namespace) -> bool:
    """Whether the command line asks for the JS check."""
    return getattr(args, "js", None) is not None


def command(args: argparse.Namespace, out: TextIO) -> int:
    """Run the JS check (``check.command``)."""
    from .check import command as check

    return check(args, out)
