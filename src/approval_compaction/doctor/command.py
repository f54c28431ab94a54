"""Command: the user's steps of ``python -m approval_compaction doctor``: scan, repair, restore,
and the SQL query a DBA runs (``sql``).

``cli.py`` declares the arguments; ``affected.command`` adds the ``check`` and ``data`` steps
and dispatches. Each step imports what it uses.
Every problem with the input is a one-line ``InvestigationError`` raised before anything is
written; the exit status is 0 when the step did what was asked.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

Step = Callable[[argparse.Namespace, TextIO], int]


def _scan(args: argparse.Namespace, out: TextIO) -> int:
    from .scan import scan_to

    keys = {"key_env": args.key_env, "ttl": args.ttl}
    if args.in_database:
        from .indb import scan_in_database

        asyncio.run(scan_in_database(out, args.store, args.format, args.session_id, **keys))
        return 0
    asyncio.run(scan_to(out, args.store, args.format, args.session_id, **keys))
    return 0


def _sql(args: argparse.Namespace, out: TextIO) -> int:
    from .indb import query

    if args.branches and args.dialect != "sqlite":
        from ..errors import InvestigationError

        raise InvestigationError("--branches is for AdvancedSQLiteSession files: --dialect sqlite")
    out.write(query(args.dialect, "branches" if args.branches else None))
    return 0


def _change_lines(outcome: object) -> list[str]:
    from .repair import Outcome

    assert isinstance(outcome, Outcome)
    head = f"{outcome.session_id}  {outcome.status}"
    head += f"  ({outcome.detail})" if outcome.detail else ""
    lines = [head]
    for change in outcome.changes:
        row = change.as_row()
        lines.append(f"  item {row['position']} (row {row['row_id']}): {row['before']}")
        lines.append(f"    -> assistant message: {row['after']}")
    return lines


def _repair(args: argparse.Namespace, out: TextIO) -> int:
    from . import repair

    keys = {"key_env": args.key_env, "ttl": args.ttl}
    if not args.apply:
        result = asyncio.run(repair.dry_run(args.store, args.session_id, **keys))
        if args.format == "json":
            rows = [c.as_row() for o in result.outcomes for c in o.changes]
            out.write(json.dumps(rows, indent=2) + "\n")
            return 0
        for outcome in result.outcomes:
            out.write("\n".join(_change_lines(outcome)) + "\n")
        count = len(result.outcomes)
        said = f"{count} session{'s' if count != 1 else ''} to repair (poisoned or stuck)"
        out.write(f"dry run: {said}; pass --apply to repair\n")
        return 0
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = Path(args.backup) if args.backup else repair.default_backup(args.store, stamp)

    def report(outcome: repair.Outcome) -> None:
        out.write("\n".join(_change_lines(outcome)) + "\n")
        out.flush()

    result = asyncio.run(repair.apply(args.store, target, args.session_id, report=report, **keys))
    if result.backup is None:
        out.write("nothing to repair: no poisoned session\n")
        return 0
    out.write(
        f"{result.count('repaired')} repaired, {result.count('changed since scan')} changed "
        f"since the scan (left alone), {result.count('verify failed')} failed verification; "
        f"backup: {result.backup}\n"
    )
    return 0 if result.count("verify failed") == 0 else 1


def _restore(args: argparse.Namespace, out: TextIO) -> int:
    from .restore import restore

    results = asyncio.run(restore(Path(args.backup), args.store))
    for item in results:
        out.write(
            f"{item.session_id}  {item.status}  ({item.updated} updated, {item.inserted} "
            f"put back, {item.deleted} removed)\n"
        )
    bad = sum(1 for item in results if item.status == "mismatch")
    out.write(f"{len(results) - bad} of {len(results)} sessions as backed up\n")
    return 0 if bad == 0 else 1


STEPS: dict[str, Step] = {"scan": _scan, "repair": _repair, "restore": _restore, "sql": _sql}
