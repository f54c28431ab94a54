"""Heal: one store scanned, repaired, compared and restored, end to end, as a user would.

The store holds generated sessions of each verdict and one session exactly as the pinned
release stored it after a compacted pause (``upgrade.poison``: the pause, the JSON round trip,
the approval and the resume). ``heal`` scans it, shows the dry run, applies the repair with a
backup, and then compares every item of every session in three copies: the backup, the repaired
store and the store restored from the backup, against the store as it was first read.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from ...doctor import backup as backups
from ...doctor import repair, restore
from ...doctor.scan import reports, verdict_counts
from ...doctor.stores import StoredSession, opened
from ...doctor.verdict import HEALTHY, PENDING, POISONED, STUCK, SessionReport
from ...sdks import sdk_module
from ...study.loop import run_sync
from ..stores import synthetic
from ..stores.postgres import ThrowawayPostgres

REAL_SESSION = "pinned-release-session"


@dataclass(frozen=True)
class ItemCheck:
    """One item of one session in the three copies, against the store as first read."""

    session_id: str
    position: int
    row_id: int
    in_backup: str
    repaired: str
    restored: str


@dataclass(frozen=True)
class HealSummary:
    """The figures of a heal that the README and the notebook's answer quote: sessions and
    their verdicts before and after, sessions repaired, and the items compared in each copy."""

    sessions: int
    before: dict[str, int]
    after: dict[str, int]
    repaired: int
    items_compared: int
    items_backed_up: int
    items_backed_up_differently: int
    items_rewritten: int
    items_restored_same: int


@dataclass(frozen=True)
class Healed:
    """Everything a heal showed: scans before and after, the dry run, outcomes, items."""

    before: tuple[SessionReport, ...]
    dry_run: repair.RepairResult
    applied: repair.RepairResult
    after: tuple[SessionReport, ...]
    restored: tuple[restore.Restored, ...]
    items: tuple[ItemCheck, ...]

    def summary(self) -> HealSummary:
        """The figures the README and the notebook's answer quote."""
        return HealSummary(
            sessions=len(self.before),
            before=verdict_counts(self.before),
            after=verdict_counts(self.after),
            repaired=self.applied.count("repaired"),
            items_compared=len(self.items),
            items_backed_up=sum(1 for i in self.items if i.in_backup == "same"),
            items_backed_up_differently=sum(1 for i in self.items if i.in_backup == "DIFFERENT"),
            items_rewritten=sum(1 for i in self.items if i.repaired == "rewritten"),
            items_restored_same=sum(1 for i in self.items if i.restored == "same"),
        )


async def _snapshot(text: str) -> dict[str, StoredSession]:
    async with opened(text) as store:
        return {s.session_id: s async for s in store.sessions()}


async def _reports(text: str) -> tuple[SessionReport, ...]:
    async with opened(text) as store:
        return tuple([r async for r in reports(store)])


def pinned_session_items() -> list[dict[str, object]]:
    """The items the pinned release stores after a compacted pause and its resume."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-heal-") as folder:
        upgrade = sdk_module("python", "upgrade")  # the Python SDK's folder, by name (sdks)
        items: list[dict[str, object]] = upgrade.poison(Path(folder) / "history.db")
        return items


MIX = (HEALTHY, POISONED, STUCK, PENDING)  # every verdict the doctor gives a readable session


def fill_store(text: str, count: int = 8, length: int = 8, real: bool = True) -> None:
    """Generated sessions of each verdict, and (``real``) the pinned release's own poisoned
    session."""
    generated = synthetic.mixed_sessions(count, length, MIX)
    sessions = [(sid, synthetic.session_items(v, length)) for sid, v in generated]
    if real:
        sessions.append((REAL_SESSION, pinned_session_items()))
    run_sync(synthetic.write_sessions(text, sessions))


def _compare(
    first: dict[str, StoredSession],
    saved: dict[str, StoredSession],
    repaired: dict[str, StoredSession],
    restored: dict[str, StoredSession],
) -> list[ItemCheck]:
    checks = []
    for sid, session in first.items():
        for position, row in enumerate(session.rows):
            backed = saved.get(sid)
            in_backup = "not needed" if backed is None else (
                "same" if backed.rows[position] == row else "DIFFERENT")  # fmt: skip
            after = repaired[sid].rows[position]
            again = restored[sid].rows[position]
            checks.append(
                ItemCheck(
                    session_id=sid,
                    position=position,
                    row_id=row.id,
                    in_backup=in_backup,
                    repaired="same" if after.data == row.data else "rewritten",
                    restored="same" if (again.id, again.data) == (row.id, row.data) else "LOST",
                )
            )
    return checks


async def heal_async(text: str, backup_folder: Path) -> Healed:

    first = await _snapshot(text)
    before = await _reports(text)
    dry = await repair.dry_run(text)
    target = backup_folder / "doctor-backup.jsonl"
    applied = await repair.apply(text, target)
    repaired, after = await _snapshot(text), await _reports(text)
    _, saved_list = backups.read(target)
    saved = {s.session_id: s for s in saved_list}
    restored_rows = await restore.restore(target)
    restored = await _snapshot(text)
    checks = _compare(first, saved, repaired, restored)
    return Healed(before, dry, applied, after, tuple(restored_rows), tuple(checks))


def heal(text: str) -> Healed:
    """Scan, dry-run, repair (backup in a temporary folder), compare and restore ``text``."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-heal-") as folder:
        return run_sync(heal_async(text, Path(folder)))


def heal_new_sqlite(generated: int = 8, real: bool = True) -> Healed:
    """The whole heal on a new SQLite file filled by ``fill_store`` with ``generated`` sessions
    and (``real``) the pinned release's own (notebook 07 takes one of each verdict, 4, without
    the pinned release's session, whose repair its upgrade table already shows)."""
    with tempfile.TemporaryDirectory(prefix="approval-compaction-heal-") as folder:
        text = str(Path(folder) / "store.db")
        fill_store(text, generated, real=real)
        return heal(text)


def heal_on_postgres(database: str = "doctor_heal") -> Healed:
    """The whole heal on a new database of a throwaway PostgreSQL server, stopped after."""

    with ThrowawayPostgres() as server:
        text = server.create_database(database)
        fill_store(text)
        return heal(text)
