"""The fixing release and the regression test across releases, from hand-built records and the
committed data."""

from __future__ import annotations

import pytest
from factories import cross_record, release_record

from approval_compaction.formats.records import read_records
from approval_compaction.lab import paths
from approval_compaction.lab.findings.fix import crosscheck_finding, fix_release
from approval_compaction.lab.findings.load import Findings
from approval_compaction.lab.releases.crosscheck import CrossRecord


@pytest.mark.parametrize(
    ("tests", "violated", "fixed"),
    [
        ({"0.9.0": "failed", "0.10.0": "passed", "0.11.0": "passed"}, set(), "0.10.0"),
        ({"0.9.0": "failed", "0.10.0": "passed", "0.11.0": "passed"}, {"0.10.0"}, "0.11.0"),
        ({"0.9.0": "passed", "0.10.0": "failed", "0.11.0": "passed"}, set(), "0.11.0"),
        ({"0.9.0": "failed", "0.10.0": "failed"}, set(), None),
        ({"0.9.0": "failed", "0.11.0": "passed"}, set(), "0.11.0"),
    ],
    ids=["version-order", "invariant-violated", "regressed-later", "never", "untested-gap"],
)
def test_fix_release_is_the_first_release_fixed_from_then_on(
    tests: dict[str, str], violated: set[str], fixed: str | None
) -> None:
    crossed = [cross_record(sdk_version=v, unfixed=u) for v, u in reversed(tests.items())]
    sweep = [release_record(sdk_version=v, holds=v not in violated) for v in tests]
    assert fix_release(crossed, sweep) == fixed


def test_fix_release_needs_the_test_on_a_swept_release() -> None:
    """A release the sweep judged but the test never ran on breaks the run of fixed releases."""
    crossed = [cross_record(sdk_version="0.10.0", unfixed="passed")]
    sweep = [release_record(sdk_version=v) for v in ("0.10.0", "0.11.0")]
    assert fix_release(crossed, sweep) is None


def test_fix_release_of_the_committed_data_passes_the_test(committed: Findings) -> None:
    fixed = committed.fixed_in
    assert fixed is not None
    records = read_records(paths.DATA_FILES.fix_releases, CrossRecord)
    assert {r.unfixed for r in records if r.sdk_version == fixed} == {"passed"}


def test_tested_spans_failing_and_passing_releases_in_release_order() -> None:
    records = [
        cross_record(sdk_version=v, unfixed=u, agrees=a, workaround=w)
        for v, u, a, w in [
            ("0.10.0", "failed", True, "failed"),
            ("0.8.0", "failed", True, "passed"),
            ("0.24.0", "passed", None, "passed"),
            ("0.24.0", "passed", False, "passed"),
        ]
    ]
    found = crosscheck_finding(records)
    assert (found.failing, found.passing) == (("0.8.0", "0.10.0"), ("0.24.0",))
    assert (found.agreed, found.judged) == (2, 3)
    assert found.wrapped == ("0.8.0", "0.24.0")
