"""The doctor's commands: ``doctor scan|repair|sql|restore|check|items`` and their options.

``register`` declares them on the command line's parser; each step runs ``doctor.command``,
which is imported only when a step runs, so declaring them loads nothing but this module and
each SDK folder's options on ``check`` (``check_options``: its ``options`` module, by name).
"""

from __future__ import annotations

import argparse
from types import ModuleType

from ..formats.arguments import SECONDS, STORE_HELP, AddCommand, Lazy
from ..sdks import FOLDERS, Exported, has_module, sdk_module
from ..study.words import STORE_WORDS
from .status import STATUSES

_STORE_HELP = (
    "a SQLite file (SQLiteSession, AsyncSQLiteSession, AdvancedSQLiteSession), an "
    "SQLAlchemy URL (postgresql+asyncpg://, mysql+asyncmy://...) or redis://host:port/db"
)


def check_options() -> list[ModuleType]:
    """Each SDK folder's options on ``doctor check`` (its ``options`` module, in ``FOLDERS``'
    order): its ``FLAG``, ``SAID`` (the help's words), ``declare``, ``asked`` and ``command``."""
    return [sdk_module(sdk, "options") for sdk in FOLDERS if _options(sdk)]


def exported() -> dict[str, Exported]:
    """Each SDK folder whose sessions ``doctor items`` reads (its options' ``EXPORT``), by its
    name, the ``--sdk`` word."""
    found = {}
    for sdk in FOLDERS:
        words = getattr(sdk_module(sdk, "options"), "EXPORT", None) if _options(sdk) else None
        if isinstance(words, Exported):
            found[sdk] = words
    return found


def _options(sdk: str) -> bool:
    return has_module(sdk, "options")


def register(add: AddCommand, lazy: Lazy) -> argparse._SubParsersAction[argparse.ArgumentParser]:
    """Declare ``doctor`` and its steps; return its steps, to which another wing may add."""
    doctor = add(
        "doctor",
        lazy(".doctor.command"),
        f"am I affected (check; check {', '.join(o.SAID for o in check_options())}); scan, "
        "repair and restore stored sessions; judge and heal one exported as JSON (items)",
    )
    said = ", ".join(f"{code} {word}" for code, word in STATUSES.items())
    doctor.epilog = f"exit status: {said} (the table in docs/doctor.md)"
    steps = doctor.add_subparsers(dest="doctor_command", required=True)
    scan = steps.add_parser("scan", help="each session's verdict: healthy, poisoned or pending")
    repair = steps.add_parser("repair", help="show (or --apply) the rewrites that heal sessions")
    for step in (scan, repair):
        step.add_argument("store", help=_STORE_HELP)
        which = step.add_mutually_exclusive_group()
        which.add_argument("--session-id", help="only this session")
        which.add_argument("--all", action="store_true", help="every session (the default)")
        step.add_argument(
            "--key-env",
            default="SESSION_ENCRYPTION_KEY",
            help="the variable holding EncryptedSession's key (never printed)",
        )
        step.add_argument(
            "--ttl", type=SECONDS, help="judge as EncryptedSession with this ttl (seconds) reads"
        )
    scan.add_argument("--format", choices=("table", "json", "csv"), default="table")
    scan.add_argument(
        "--in-database",
        action="store_true",
        help="list the poisoned and stuck sessions with `doctor sql`",
    )
    sql = steps.add_parser(
        "sql", help="print the read-only SQL query that lists poisoned and stuck sessions"
    )
    sql.add_argument("--dialect", choices=("sqlite", "postgresql", "mysql"), required=True)
    sql.add_argument(
        "--branches", action="store_true", help="an AdvancedSQLiteSession file (sqlite)"
    )
    repair.add_argument("--format", choices=("table", "json"), default="table")
    repair.add_argument("--apply", action="store_true", help="write (after a backup)")
    repair.add_argument("--backup", help="backup file to write (default: beside the store)")
    restore = steps.add_parser("restore", help="put the sessions of a backup back exactly")
    restore.add_argument("backup", help="a backup written by doctor repair --apply")
    restore.add_argument("--store", help="the store to restore into (default: the backup's)")
    restore.add_argument(
        "--exact",
        action="store_true",
        help="remove the rows added since the backup (default: keep them, and name them)",
    )
    restore.add_argument(
        "--force", action="store_true", help="restore into a store that is not the backup's"
    )
    items = steps.add_parser(
        "items",
        help="judge one session's items exported as JSON "
        f"({', '.join([*(e.getter for e in exported().values()), 'get_items() in Python'])}) "
        "and write the healed list",
    )
    items.add_argument("export", help="a JSON list of one session's items")
    items.add_argument(
        "--sdk",
        choices=("auto", *exported(), "python"),
        default="auto",
        help="whose items (auto: told)",
    )
    written = items.add_mutually_exclusive_group()
    written.add_argument("--output", help="write the healed list to this new file")
    written.add_argument("--in-place", action="store_true", help="rewrite the export itself")
    items.add_argument("--force", action="store_true", help="replace an --output file that exists")
    items.add_argument("--format", choices=("table", "json"), default="table")
    _check(steps)
    return steps


def _check(steps: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``doctor check``: its configuration, and which SDK (the Python one, or a folder's)."""
    check = steps.add_parser("check", help="whether and when the bug strikes a configuration")
    check.add_argument("--mode", default="auto", help="auto, input or previous_response_id")
    check.add_argument("--trigger", default="default", help="default, always, never or N items")
    check.add_argument(
        "--decision", default="approve", help="approve, reject or abandon (the user asks on)"
    )
    check.add_argument(
        "--tool", default="function", help="the tool that pauses: function, or mcp (hosted MCP)"
    )
    check.add_argument("--turns", type=int, default=24, help="pause positions 0..N prior turns")
    check.add_argument(
        "--later",
        type=int,
        default=10,
        help="later turns after each position, to judge whether compaction keeps running "
        "(default: 10; at least 2 to see a session stop compacting; 0: not judged)",
    )
    check.add_argument("--format", choices=("table", "json"), default="table")
    check.add_argument("--response-store", choices=STORE_WORDS, default="default", help=STORE_HELP)
    for options in check_options():  # each SDK folder's own (its ``options``, by name)
        options.declare(check)
