"""Options: ``doctor check --adk [--kind KIND]``, as the ADK folder declares it on the doctor's
``check``, importing nothing heavy: the doctor declares its steps without loading an SDK, so it
loads this module by name (``sdks``) and the check itself (``check.command``) only when asked."""

from __future__ import annotations

import argparse
from typing import TextIO

FLAG = "--adk"
SAID = "--adk for google-adk"  # how the doctor's one-line help names it


def declare(check: argparse.ArgumentParser) -> None:
    """Add ``--adk`` and its ``--kind`` to the doctor's ``check``."""
    check.add_argument(
        FLAG,
        action="store_true",
        help="check the google-adk installed beside the doctor instead of openai-agents: the "
        "cases and the liveness situations in --kind",
    )
    check.add_argument(
        "--kind",
        default="every",
        help="with --adk: every, window-0, window-1 (sliding window, overlap 0 or 1), tokens-0 "
        "or tokens-2 (token threshold, 0 or 2 raw events kept)",
    )


def asked(args: argparse.Namespace) -> bool:
    """Whether the command line asks for the ADK check."""
    return bool(getattr(args, "adk", False))


def command(args: argparse.Namespace, out: TextIO) -> int:
    """Run the ADK check (``check.command``)."""
    from .check import command as check

    return check(args, out)
