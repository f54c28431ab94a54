"""Status: the doctor's exit statuses, one per outcome, so a CI job can gate on them.

They follow fsck(8)'s documented codes where an outcome is fsck's (0 no errors, 1 errors
corrected, 4 errors left uncorrected), and keep the command line's own for a bad argument or an
input that cannot be read (2, as argparse and every command here exit). A write the store did not
take has its own three, as before (``stores.WriteStopped``), the refused write moved from 4 to 6
so that no number means two things. docs/doctor.md has the one table.
"""

from __future__ import annotations

from collections.abc import Iterable

HEALTHY = 0  # nothing to heal: every session, item or pause position judged sound
HEALED = 1  # problems found and healed (fsck: "errors corrected")
ERROR = 2  # a bad argument, or an input the doctor cannot read: one `error:` line
LOCKED = 3  # a write lock another writer held past the doctor's wait
AFFECTED = 4  # problems found and not healed (fsck: "errors left uncorrected")
FULL = 5  # a full disk stopped a write
REFUSED = 6  # the store refused a write (a trigger, a permission, a read-only database)

STATUSES: dict[int, str] = {
    HEALTHY: "healthy",
    HEALED: "healed",
    ERROR: "error",
    LOCKED: "locked",
    AFFECTED: "affected",
    FULL: "full",
    REFUSED: "refused",
}
# The verdicts a scan or an export is affected by: what `doctor repair` or `doctor items` heals,
# and rows the doctor could not read. A pending call may be an approval still waiting: healthy.
AFFECTING = frozenset({"poisoned", "stuck", "unreadable"})


def of_verdicts(verdicts: Iterable[str], unsound: bool = False) -> int:
    """A scan's status: affected when any verdict is (``AFFECTING``) or the store fails its
    engine's check, else healthy."""
    return AFFECTED if unsound or not AFFECTING.isdisjoint(verdicts) else HEALTHY
