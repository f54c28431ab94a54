"""The store fuzzer (``testing.storefuzz``): random SQLite stores, scanned, repaired and restored,
and the doctor's three promises checked on each: no traceback, nothing the SDK reads lost, every
changed session restorable byte for byte. Full tier, bounded: a fixed number of examples."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from approval_compaction.testing.storefuzz import StoreCase, run_case, store_cases

EXAMPLES = 60


@pytest.mark.slow
@pytest.mark.timeout(600)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(store_cases())
def test_random_stores_keep_the_doctors_promises(case: StoreCase) -> None:
    """Issue 42: stores in use broke "one line, nothing lost, every undo kept" in ways no
    hand-written case had tried; a generated store of random schema, values, ids, locks and
    write failures must keep all three."""
    with tempfile.TemporaryDirectory() as folder:
        assert run_case(case, Path(folder)) == []
