"""Bisect on synthetic results: where an invariant breaks, holds again, or cannot be placed."""

from __future__ import annotations

import math

import pytest
from factories import release_record

from approval_compaction.lab.releases.bisect import (
    Judgement,
    bisect,
    broken_spans,
    judge_rows,
    marked_ranges,
    spans,
)
from approval_compaction.lab.releases.sweep import ReleaseRecord

VERSIONS = [f"0.{minor}.0" for minor in range(8, 40)]  # 32 releases, 0.8.0 .. 0.39.0


def results(*broken: tuple[int, int], unjudged: tuple[int, ...] = ()) -> dict[str, Judgement]:
    """Synthetic results: broken on each inclusive index range, None on the unjudged indices."""
    out: dict[str, Judgement] = {}
    for index, version in enumerate(VERSIONS):
        out[version] = not any(lo <= index <= hi for lo, hi in broken)
    out.update({VERSIONS[i]: None for i in unjudged})
    return out


class Oracle:
    """A judge that answers from synthetic results and counts what it was asked."""

    def __init__(self, truth: dict[str, Judgement]) -> None:
        self.truth, self.asked = truth, []

    def __call__(self, version: str) -> Judgement:
        self.asked.append(version)
        return self.truth[version]


def probe_budget(n: int) -> int:
    """About log2(N): one probe to find a broken release, then a halving search on each side."""
    return 3 + 2 * math.ceil(math.log2(n))


@pytest.mark.parametrize(
    ("broken", "start", "first", "again"),
    [
        ((10, 20), 15, 10, 21),
        ((10, 20), None, 10, 21),
        ((0, 5), 3, 0, 6),
        ((25, 31), 31, 25, None),
        ((17, 17), 17, 17, 18),
    ],
    ids=["middle", "start-holds-ends-probed", "from-first", "to-newest", "one-release"],
)
def test_bisect_finds_one_broken_range(
    broken: tuple[int, int], start: int | None, first: int, again: int | None
) -> None:
    truth = results(broken)
    oracle = Oracle(truth)
    # Without a broken start or ends, the search needs the sweep to point at a broken release.
    sweep = {VERSIONS[broken[0]]: False} if start is None else None
    found = bisect(
        VERSIONS,
        "x",
        oracle,
        sweep=sweep,
        start=VERSIONS[start] if start is not None else None,
    )
    assert found.contiguous
    assert found.first_broken == VERSIONS[first]
    assert found.holds_again == (VERSIONS[again] if again is not None else None)
    assert found.last_broken == VERSIONS[(again if again is not None else len(VERSIONS)) - 1]
    assert found.last_holding == (VERSIONS[first - 1] if first else None)
    assert len(found.probes) <= probe_budget(len(VERSIONS))
    assert len(oracle.asked) == len(set(oracle.asked)), "a release was probed twice"
    assert all(truth[p.version] == p.holds for p in found.probes)


def test_bisect_with_nothing_broken_says_so() -> None:
    oracle = Oracle(results())
    found = bisect(VERSIONS, "x", oracle, start=VERSIONS[20])
    assert found.first_broken is None and found.holds_again is None
    assert found.contiguous
    assert any("no broken range found" in line for line in found.lines())
    assert len(oracle.asked) == 3  # the start and both ends


def test_bisect_with_everything_broken_reports_no_repair() -> None:
    oracle = Oracle(results((0, len(VERSIONS) - 1)))
    found = bisect(VERSIONS, "x", oracle, start=VERSIONS[20])
    assert (found.first_broken, found.last_holding) == (VERSIONS[0], None)
    assert (found.holds_again, found.last_broken) == (None, VERSIONS[-1])
    lines = "\n".join(found.lines())
    assert f"holds again:  none (still broken in {VERSIONS[-1]})" in lines


def test_bisect_with_two_ranges_in_the_sweep_shows_them_instead_of_boundaries() -> None:
    """A bisect that probes only the halves cannot see a gap; the sweep's results can."""
    truth = results((4, 9), (20, 25))
    found = bisect(VERSIONS, "x", Oracle(truth), sweep=truth, start=VERSIONS[22])
    assert not found.contiguous
    text = "\n".join(found.lines())
    assert "not one contiguous broken range" in text
    assert "first broken" not in text
    assert [(s.first, s.last) for s in broken_spans(VERSIONS, found.results)] == [
        (VERSIONS[4], VERSIONS[9]),
        (VERSIONS[20], VERSIONS[25]),
    ]


def test_bisect_reuses_sweep_results_before_running_a_release() -> None:
    truth = results((10, 20))
    sweep = {v: h for i, (v, h) in enumerate(truth.items()) if i % 2 == 0}
    oracle = Oracle(truth)
    found = bisect(VERSIONS, "x", oracle, sweep=sweep, start=VERSIONS[14])
    assert (found.first_broken, found.holds_again) == (VERSIONS[10], VERSIONS[21])
    assert not set(oracle.asked) & set(sweep)
    assert {p.source for p in found.probes} == {"sweep", "ran"}


def test_bisect_skips_releases_it_cannot_judge() -> None:
    truth = results((10, 20), unjudged=(9, 15, 16))
    found = bisect(VERSIONS, "x", Oracle(truth), start=VERSIONS[14])
    assert (found.first_broken, found.last_holding) == (VERSIONS[10], VERSIONS[8])
    assert "1 release(s) between could not be judged" in "\n".join(found.lines())
    assert found.holds_again == VERSIONS[21]


def test_spans_group_judged_releases_and_skip_unjudged() -> None:
    truth = results((2, 3), unjudged=(1, 4))
    found = [str(s) for s in spans(VERSIONS[:6], truth)]
    assert found == [
        "holds  0.8.0 (1 release)",
        "broken 0.10.0..0.11.0 (2 releases)",
        "holds  0.13.0 (1 release)",
    ]


def test_marked_ranges_name_each_run_of_marked_releases_once() -> None:
    marked = {v: i in (0, 2, 3, 4, 7) for i, v in enumerate(VERSIONS[:8])}
    assert marked_ranges(VERSIONS[:8], marked) == ["0.8.0", "0.10.0..0.12.0", "0.15.0"]
    assert marked_ranges(VERSIONS[:3], dict.fromkeys(VERSIONS[:3], False)) == []


def _row(version: str, decision: str, holds: bool | None) -> ReleaseRecord:
    return release_record(sdk_version=version, decision=decision, invariant="x", holds=holds)


def test_judge_rows_aggregates_cases_under_the_filter() -> None:
    rows = [
        _row("0.1.0", "approve", True),
        _row("0.1.0", "reject", False),
        _row("0.2.0", "approve", True),
        _row("0.2.0", "reject", None),
        _row("0.3.0", "approve", None),
    ]
    assert judge_rows(rows, "x") == {"0.1.0": False, "0.2.0": True, "0.3.0": None}
    assert judge_rows(rows, "x", "decision=approve") == {
        "0.1.0": True,
        "0.2.0": True,
        "0.3.0": None,
    }
    assert judge_rows(rows, "y") == {}
