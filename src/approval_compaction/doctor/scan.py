"""Scan: every stored session's verdict, streamed, without writing anything.

The store is opened read-only and its sessions are read one at a time (``stores``), each judged
with ``verdict.judge`` on the fields pairing reads (``codec``: decrypted first for an encrypted
store); an ``AdvancedSQLiteSession`` file gets one report per branch. The reports are written
as they come, so a scan of a large store starts printing at once and holds one session in
memory. Formats: an aligned table with a summary line, JSON (a list of reports) or CSV.
``--in-database`` asks the database itself for the poisoned and stuck sessions instead (``indb``).
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import fields, replace
from typing import Any, TextIO

from ..errors import printable
from .codec import KEY_ENV, Codec
from .stores import Store, opened
from .verdict import REPORTED, UNREADABLE, VERDICTS, SessionReport, judge

FORMATS = ("table", "json", "csv")
COLUMNS = tuple(f.name for f in fields(SessionReport) if f.name != "branch")
BRANCH_COLUMNS = (COLUMNS[0], "branch", *COLUMNS[1:])
_WIDTHS = {
    "session_id": 24,
    "branch": 12,
    "items": 5,
    "unreadable": 10,
    "compactions": 11,
    "orphan_outputs": 14,
    "open_calls": 12,
    "verdict": 8,
}


async def reports(store: Store, session_id: str | None = None) -> AsyncIterator[SessionReport]:
    """The verdict on each session (or branch) of an open store, or on the one named, in id
    order."""
    codec = store.codec
    async for unit in store.units(session_id):
        before = codec.left_out
        items, unreadable = codec.light(unit.session_id, unit.texts)
        report = judge(unit.session_id, items, unreadable, unit.branch)
        left = codec.left_out - before
        if left:  # said in the note (a table's last column); the summary counts them all
            said = f"{left} item{'s' if left != 1 else ''} older than the ttl left out"
            report = replace(report, note=f"{report.note}; {said}" if report.note else said)
        yield report


async def scan_store(
    text: str, session_id: str | None = None, *, key_env: str = KEY_ENV, ttl: int | None = None
) -> list[SessionReport]:
    """Every report of the store named by ``text`` (a small store: the list is kept)."""
    async with opened(text, key_env=key_env, ttl=ttl) as store:
        return [report async for report in reports(store, session_id)]


def columns(store: Store) -> tuple[str, ...]:
    """The report's columns for this store: with the branch for an AdvancedSQLiteSession."""
    return BRANCH_COLUMNS if store.branches else COLUMNS


def summary(counts: Counter[str]) -> str:
    """``3 sessions: 1 healthy, 1 poisoned, 0 stuck, 1 pending`` (and ``, 1 unreadable``
    when a session is)."""
    total = sum(counts.values())
    words = REPORTED if counts.get(UNREADABLE) else VERDICTS
    parts = ", ".join(f"{counts.get(word, 0)} {word}" for word in words)
    return f"{total} session{'s' if total != 1 else ''}: {parts}"


def _table_line(values: dict[str, object], names: tuple[str, ...] = COLUMNS) -> str:
    """One aligned line; stored text (ids, notes) escaped as errors are (``printable``), so a
    control character in a session id can neither move the cursor nor forge a line."""
    cells = [(printable(str(values[c])) or "-").ljust(_WIDTHS.get(c, 0)) for c in names]
    return "  ".join(cells).rstrip()


class ReportWriter:
    """Write rows one by one in a format, then close the format (and count the verdicts): the
    scan's reports, or the sessions the in-database query lists (``indb``), with their summary
    line under a table."""

    def __init__(
        self,
        out: TextIO,
        fmt: str,
        names: tuple[str, ...] = COLUMNS,
        summary: Callable[[Counter[str]], str] = summary,
    ) -> None:
        self.out, self.fmt, self.names, self.summary = out, fmt, names, summary
        self.counts: Counter[str] = Counter()
        self._csv = csv.DictWriter(out, fieldnames=names, lineterminator="\n")

    def start(self) -> None:
        if self.fmt == "table":
            self.out.write(_table_line({c: c for c in self.names}, self.names) + "\n")
        elif self.fmt == "csv":
            self._csv.writeheader()
        else:
            self.out.write("[")

    def write(self, report: SessionReport) -> None:
        self.write_row(report.as_row(), report.verdict, report.note)

    def write_row(self, row: dict[str, Any], verdict: str, note: str = "") -> None:
        """One row (its columns ``names``) with its verdict; the note only in a table."""
        row = {name: row[name] for name in self.names}
        if self.fmt == "table":
            self.out.write(_table_line({**row, "note": note}, self.names) + "\n")
        elif self.fmt == "csv":  # escaped as the table is; JSON escapes by itself
            self._csv.writerow(
                {k: printable(v) if isinstance(v, str) else v for k, v in row.items()}
            )
        else:
            separator = ",\n  " if self.counts else "\n  "
            self.out.write(separator + json.dumps(row))
        self.counts[verdict] += 1

    def finish(self) -> None:
        if self.fmt == "table":
            self.out.write(self.summary(self.counts) + "\n")
        elif self.fmt == "json":
            self.out.write("\n]\n" if self.counts else "]\n")


async def scan_to(
    out: TextIO,
    text: str,
    fmt: str,
    session_id: str | None = None,
    *,
    key_env: str = KEY_ENV,
    ttl: int | None = None,
    warn: Callable[[str], None] | None = None,
    note: Callable[[str], None] | None = None,
) -> Counter[str]:
    """Stream the store's reports to ``out`` as they are judged; return the verdict counts.
    ``warn`` hears, before the first report, that the store fails its engine's check (the
    reports are then of what could be read), and after the last, how many items ``--ttl``
    left out."""
    async with opened(text, key_env=key_env, ttl=ttl) as store:
        problem = await store.soundness()
        if problem is not None and warn is not None:
            warn(f"{store.spec.label} fails its integrity check ({problem}): the verdicts are "
                 "of what could be read, and repair and restore refuse to write on it")  # fmt: skip
        writer = ReportWriter(out, fmt, columns(store))
        writer.start()
        async for report in reports(store, session_id):
            writer.write(report)
        writer.finish()
        if ttl is not None and note is not None:
            note(left_out_note(ttl, store.codec))
        return writer.counts


def left_out_note(ttl: int, codec: Codec) -> str:
    """What ``--ttl`` left out of the verdicts: the items older than it, or nothing."""
    if not codec.encrypted:
        return f"--ttl {ttl} left out nothing: the store holds no EncryptedSession items"
    count = codec.left_out
    return (
        f"--ttl {ttl} left out {count} item{'s' if count != 1 else ''} older than {ttl} s, as "
        "EncryptedSession with this ttl skips them (they count in no column)"
    )


def verdict_counts(rows: Iterable[SessionReport]) -> dict[str, int]:
    """How many sessions have each verdict, every verdict named."""
    counts = Counter(str(r.verdict) for r in rows)
    words = REPORTED if counts.get(UNREADABLE) else VERDICTS
    return {word: counts.get(word, 0) for word in words}
