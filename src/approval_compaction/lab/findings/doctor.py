"""Doctor: the four questions the doctor's experiments answer, as records.

Am I affected with the SDK's defaults (``Check``: the doctor's check on the pinned and on the
newest release), does upgrading heal a stored session (``Upgrade``), does a resume by another
worker behave like the one in process (``Worker``), and which sessions are poisoned and does
the repair keep every item (the heal's ``HealSummary``). Each is read from the files that
``doctor data`` writes, or built from the experiments a notebook runs live.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...doctor.check import REJECTED, CheckRow, Config
from ..affected.upgrade import PAUSE_FAILED, UpgradeRecord
from ..affected.worker import WorkerComparison
from ..releases.versions import version_key


@dataclass(frozen=True)
class Check:
    """The doctor's check of one configuration on one release: one row per pause position."""

    release: str
    config: Config
    rows: tuple[CheckRow, ...]

    @property
    def affected_at(self) -> tuple[int, ...]:
        """The pause positions (prior turns) where the pause raises or the next turn sends an
        output without its call."""
        return tuple(r.prior_turns for r in self.rows if r.affected)


def check(found: tuple[str, Config, Sequence[CheckRow]]) -> Check:
    """A check as the doctor returns it (release, configuration, rows), as a record."""
    release, config, rows = found
    return Check(release, config, tuple(rows))


@dataclass(frozen=True)
class Upgrade:
    """The next turn on the newest release, on a session the pinned release poisoned, on the
    same session after ``doctor repair``, and on one a failed pause left (None when the
    records have none)."""

    pinned: str
    newest: str
    poisoned: UpgradeRecord
    repaired: UpgradeRecord
    pause_failed: UpgradeRecord | None = None

    @property
    def heals(self) -> bool:
        return self.poisoned.next_turn != REJECTED


def upgrade(records: Sequence[UpgradeRecord]) -> Upgrade:
    """The upgrade records (each release, each store) as the newest release's two turns."""
    by = {(r.store, r.release): r for r in records}
    releases = sorted({r.release for r in records}, key=version_key)
    pinned, newest = releases[0], releases[-1]
    failed = by.get((PAUSE_FAILED, newest))
    return Upgrade(pinned, newest, by[("poisoned", newest)], by[("repaired", newest)], failed)


@dataclass(frozen=True)
class Worker:
    """A resume in a fresh worker against the one in process, with compaction on and off."""

    rows: tuple[WorkerComparison, ...]

    @property
    def same(self) -> bool:
        """Whether every stored history and next-turn input came out the same."""
        return all(r.same_stored_after_resume and r.same_next_turn_input for r in self.rows)
