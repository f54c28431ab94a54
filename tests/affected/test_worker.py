"""The worker comparison's record, as doctor data writes it and the findings read it back."""

from __future__ import annotations

from dataclasses import asdict

from approval_compaction.lab.affected.worker import WorkerComparison
from approval_compaction.lab.findings.load import _worker


def test_a_comparison_reads_back_from_its_json_with_its_id_lists_as_tuples() -> None:
    compared = WorkerComparison("on", True, True, "poisoned", ("pending-c1",), ("pending-c1",))
    row = {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(compared).items()}
    assert _worker(row) == compared
