"""Status: the doctor's exit statuses, one per outcome (issue 60: a CI job gates on them)."""

from __future__ import annotations

import re

import pytest

from approval_compaction.doctor import status
from approval_compaction.doctor.stores import DiskFull, StoreLocked, WriteRefused
from approval_compaction.lab import paths


def test_each_outcome_has_its_own_status_and_fscks_where_the_outcome_is_fscks() -> None:
    """fsck(8): 0 no errors, 1 errors corrected, 4 errors left uncorrected."""
    assert len(set(status.STATUSES)) == len(status.STATUSES) == 7
    assert (status.HEALTHY, status.HEALED, status.AFFECTED) == (0, 1, 4)
    assert status.ERROR == 2  # argparse's, as every command's bad argument exits
    stops = {StoreLocked: status.LOCKED, DiskFull: status.FULL, WriteRefused: status.REFUSED}
    assert {kind: kind.exit_code for kind in stops} == stops


@pytest.mark.parametrize(
    ("verdicts", "unsound", "expected"),
    [((), False, status.HEALTHY), (("healthy", "pending"), False, status.HEALTHY),
     (("healthy", "poisoned"), False, status.AFFECTED), (("stuck",), False, status.AFFECTED),
     (("unreadable",), False, status.AFFECTED), (("healthy",), True, status.AFFECTED)],
    ids=["empty", "pending", "poisoned", "stuck", "unreadable", "unsound-store"],
)  # fmt: skip
def test_a_scan_is_affected_by_what_repair_heals_unreadable_rows_or_a_damaged_store(
    verdicts: tuple[str, ...], unsound: bool, expected: int
) -> None:
    assert status.of_verdicts(verdicts, unsound) == expected


def test_docs_doctor_md_has_one_table_with_every_status() -> None:
    """The one table a CI author reads names each status, in order, and nothing else."""
    text = (paths.DOCS / "doctor.md").read_text()
    assert text.count("| status | meaning |") == 1
    rows = re.findall(r"^\| (\d+) \| ([a-z]+):", text, re.MULTILINE)
    assert [(int(code), word) for code, word in rows] == list(status.STATUSES.items())
