"""Command: the user's steps of ``python -m approval_compaction doctor``: scan, repair, restore,
the SQL query a DBA runs (``sql``), ``items`` (one session exported as JSON, judged and healed)
and ``check`` (whether and when the bug strikes a configuration, on the installed SDK: Python's,
or another SDK's by its folder's option, ``steps.check_options``).

``cli.py`` declares the arguments and sends these six steps here (``data``, the lab's, goes to
``lab.affected.command``); none imports the lab. ``check`` imports the study when it runs, so the
other steps never load the SDK's runner. A step whose extra is missing is one line naming it.
Every problem with the input is a one-line ``InvestigationError`` raised before anything is
written. The exit status says what was found, as fsck's does (``status``): 0 healthy, 1 healed,
4 affected (found and not healed), 2 an error; 3, 5 and 6 a write the store did not take.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..errors import InvestigationError, printable
from . import repair, status
from .indb import query, scan_in_database
from .repair import Outcome
from .restore import restore
from .scan import scan_to
from .stores import WriteStopped

if TYPE_CHECKING:
    from .check import CheckRow, Config, Keeps, Sdk

Step = Callable[[argparse.Namespace, TextIO], int]
# What a check's run gives: the release, a row per pause position, and the later turns.
CheckRun = tuple[str, "list[CheckRow]", "Keeps"]


def _scan(args: argparse.Namespace, out: TextIO) -> int:
    """Affected when a session is poisoned, stuck or unreadable, or the store fails its
    engine's check (a warning on stderr), else healthy."""
    keys = {"key_env": args.key_env, "ttl": args.ttl}
    if args.in_database:
        found = asyncio.run(scan_in_database(out, args.store, args.format, args.session_id, **keys))
        return status.AFFECTED if found else status.HEALTHY
    warnings: list[str] = []

    def warn(line: str) -> None:
        warnings.append(line)
        print(f"warning: {line}", file=sys.stderr, flush=True)

    def note(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    counts = asyncio.run(
        scan_to(out, args.store, args.format, args.session_id, warn=warn, note=note, **keys)
    )
    return status.of_verdicts((v for v, n in counts.items() if n), unsound=bool(warnings))


def _sql(args: argparse.Namespace, out: TextIO) -> int:
    if args.branches and args.dialect != "sqlite":
        raise InvestigationError("--branches is for AdvancedSQLiteSession files: --dialect sqlite")
    out.write(query(args.dialect, "branches" if args.branches else None))
    return 0


def _change_lines(outcome: Outcome) -> list[str]:
    head = f"{outcome.session_id}  {outcome.status}"
    head += f"  ({outcome.detail})" if outcome.detail else ""
    lines = [head]
    for change in outcome.changes:
        row = change.as_row()
        lines.append(f"  item {row['position']} (row {row['row_id']}): {row['before']}")
        lines.append(f"    -> assistant message: {row['after']}")
    return [printable(line) for line in lines]  # stored ids and outputs, escaped


def _repair(args: argparse.Namespace, out: TextIO) -> int:
    keys = {"key_env": args.key_env, "ttl": args.ttl}
    if not args.apply:
        result = asyncio.run(repair.dry_run(args.store, args.session_id, **keys))
        if result.unsound is not None:  # --apply would refuse it: said first
            print(f"warning: {result.unsound}", file=sys.stderr, flush=True)
        affected = result.unsound is not None or bool(result.outcomes)
        code = status.AFFECTED if affected else status.HEALTHY
        if args.format == "json":
            rows = [c.as_row() for o in result.outcomes for c in o.changes]
            out.write(json.dumps(rows, indent=2) + "\n")
            return code
        for outcome in result.outcomes:
            out.write("\n".join(_change_lines(outcome)) + "\n")
        count = len(result.outcomes)
        said = f"{count} session{'s' if count != 1 else ''} to repair (poisoned or stuck)"
        out.write(f"dry run: {said}; pass --apply to repair\n")
        return code
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = Path(args.backup) if args.backup else repair.default_backup(args.store, stamp)

    def report(outcome: repair.Outcome) -> None:
        out.write("\n".join(_change_lines(outcome)) + "\n")
        out.flush()

    result = asyncio.run(repair.apply(args.store, target, args.session_id, report=report, **keys))
    if result.backup is None:
        out.write("nothing to repair: no poisoned session\n")
        return status.HEALTHY
    out.write(
        f"{result.count('repaired')} repaired, {result.count('changed since scan')} changed "
        f"since the scan (left alone), {result.count('verify failed')} failed verification; "
        f"backup: {result.backup}\n"
    )
    left = result.count("verify failed") + result.count("changed since scan")
    return status.AFFECTED if left else status.HEALED


def _restore(args: argparse.Namespace, out: TextIO) -> int:
    exact, force = args.exact, args.force
    results = asyncio.run(restore(Path(args.backup), args.store, exact=exact, force=force))
    for item in results:
        kept = ""
        if item.kept:
            shown = ", ".join(str(i) for i in item.kept[:5]) + (
                " ..." if len(item.kept) > 5 else ""
            )
            kept = f", {len(item.kept)} added since the backup kept (row {shown})"
        removed = f", {item.deleted} added since the backup removed (--exact)" if exact else ""
        sid, counts = printable(item.session_id), f"{item.updated} updated, {item.inserted}"
        out.write(f"{sid}  {item.status}  ({counts} put back{kept}{removed})\n")
    bad = sum(1 for item in results if item.status == "mismatch")
    kept_rows = sum(len(item.kept) for item in results)
    tail = f"; {kept_rows} rows added since the backup kept (--exact removes them)"
    out.write(
        f"{len(results) - bad} of {len(results)} sessions as backed up{tail if kept_rows else ''}\n"
    )
    return status.AFFECTED if bad else status.HEALTHY


def _check(args: argparse.Namespace, out: TextIO) -> int:
    """The check on the SDK asked for: a folder's (its option, ``steps.check_options``), or
    the installed openai-agents'."""
    from ..formats.progress import Progress
    from .check import PYTHON, check_liveness
    from .steps import check_options

    asked = [options for options in check_options() if options.asked(args)]
    if len(asked) > 1:
        flags = " and ".join(sorted(options.FLAG for options in asked))
        raise InvestigationError(f"{flags} check different SDKs: pass one")
    if asked:
        return int(asked[0].command(args, out))

    def run(cfg: Config) -> CheckRun:
        with Progress("doctor check", args.turns + 1, "pause positions") as progress:
            return check_liveness(cfg, args.turns, args.later, progress=progress)

    return check_command(args, out, PYTHON, run)


def check_command(
    args: argparse.Namespace, out: TextIO, sdk: Sdk, run: Callable[[Config], CheckRun]
) -> int:
    """The check of ``sdk`` by ``run`` on the configuration the command line names: its rows
    as a table (or JSON), then its answers: affected, and keeps compacting."""
    from ..analysis.liveness import liveness_records
    from .check import check_answer, check_config, liveness_answer

    store = getattr(args, "response_store", "default")
    cfg = check_config(args.mode, args.trigger, args.decision, args.tool, store)
    if args.turns < 0:
        raise InvestigationError("--turns must be 0 or more")
    if args.later < 0:
        raise InvestigationError("--later must be 0 or more")
    release, rows, keeps = run(cfg)
    answers = [check_answer(cfg, rows, release, sdk)]
    answers += [liveness_answer(cfg, keeps, release, sdk)] if args.later else []
    struck = any(r.affected for r in rows) or bool(keeps.refused() or keeps.broken())
    code = status.AFFECTED if struck else status.HEALTHY
    if args.format == "json":
        records = [
            {"prior_turns": p, **asdict(r)}
            for p, run in enumerate(keeps.runs)
            for r in liveness_records([run])
        ]
        value = {"release": release, "rows": [asdict(r) for r in rows], "liveness": records}
        out.write(json.dumps(value | {"answers": answers}, indent=2) + "\n")
        return code
    table = [list(asdict(rows[0]))] + [[str(v) for v in asdict(r).values()] for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    for line in table:
        out.write("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)) + "\n")
    out.write("".join(answer + "\n" for answer in answers))
    return code


def _only_a_file(target: Path, not_regular: Callable[[int], str | None]) -> None:
    """Refuse to replace anything at ``target`` that is not a regular file (a device, a FIFO,
    a folder, a symbolic link): a write replaces only what it would have written."""
    try:
        mode = target.lstat().st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise InvestigationError(f"cannot write {target}: {error.strerror or error}") from None
    what = not_regular(mode)
    if what is not None:
        raise InvestigationError(
            f"--output {target} is {what}: the doctor replaces only a regular file"
        )


def _items(args: argparse.Namespace, out: TextIO) -> int:
    """Judge one exported session; write the healed list where asked (never over the export
    without ``--in-place``, never over another file without ``--force``)."""
    from ..formats.files import write_atomic
    from .export import judge_export, lines, not_regular, read_export

    source = Path(args.export)
    target = source.resolve() if args.in_place else Path(args.output) if args.output else None
    if target is not None and not args.in_place and target.resolve() == source.resolve():
        raise InvestigationError(f"--output {target} is the export itself: pass --in-place")
    judged = judge_export(read_export(source, args.sdk))
    written = None
    if target is not None and not (args.in_place and not judged.rewrites):
        _only_a_file(target, not_regular)
        write_atomic(target, judged.healed_bytes(), replace=args.in_place or args.force)
        written = str(source if args.in_place else target)
    code = status.HEALTHY
    if judged.rewrites:  # poisoned or stuck: healed where the healed list was written
        code = status.HEALED if written is not None else status.AFFECTED
    if args.format == "json":
        out.write(json.dumps(judged.as_json() | {"written": written}, indent=2) + "\n")
        return code
    out.write("".join(line + "\n" for line in lines(judged)))
    count = len(judged.rewrites)
    said = f"{count} item{'s' if count != 1 else ''} rewritten"
    if written is not None:
        out.write(f"healed list: {printable(written)} ({len(judged.healed())} items, {said})\n")
    elif target is not None:
        out.write(f"nothing to heal: {printable(str(source))} left as it is\n")
    elif count:
        out.write(f"dry run: {said}; pass --output FILE or --in-place to write the healed list\n")
    return code


STEPS: dict[str, Step] = {
    "items": _items,
    "scan": _scan,
    "repair": _repair,
    "restore": _restore,
    "check": _check,
    "sql": _sql,
}


def command(args: argparse.Namespace) -> int:
    """Run the doctor's step that ``args.doctor_command`` names, writing to stdout. A write the
    store did not take is one ``error:`` line whose exit status says which (3: locked,
    5: full, 6: refused); every other one-line error exits 2 (``status``)."""
    try:
        return STEPS[args.doctor_command](args, sys.stdout)
    except WriteStopped as stop:
        sys.stdout.flush()
        print(f"error: {printable(str(stop))}", file=sys.stderr, flush=True)
        return stop.exit_code
