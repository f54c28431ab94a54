"""Ddmin finds a 1-minimal set with the searched-for outcome, tests each set once, and keeps
neither passing nor unresolved sets."""

from __future__ import annotations

import pytest

from approval_compaction.lab.mechanism.ddmin import (
    FAIL,
    PASS,
    UNRESOLVED,
    Verdict,
    ddmin,
    partition,
)


def test_ddmin_partition_is_contiguous_and_even() -> None:
    assert partition(list(range(7)), 3) == [[0, 1, 2], [3, 4], [5, 6]]
    assert partition([1, 2], 4) == [[1], [2]]


@pytest.mark.parametrize(
    "needed",
    [{3}, {1, 7, 8}, {0, 9}, set(range(10))],
    ids=["one", "three-apart", "ends", "all"],
)
def test_ddmin_finds_the_changes_the_outcome_needs(needed: set[int]) -> None:
    asked: list[tuple[int, ...]] = []

    def test(chosen: list[int]) -> Verdict:
        asked.append(tuple(chosen))
        return FAIL if needed <= set(chosen) else PASS

    found, search = ddmin(list(range(10)), test)
    assert set(found) == needed
    assert len(asked) == len(set(asked)) == len(search.tests)  # each set once


def test_ddmin_result_is_one_minimal_when_sets_interact() -> None:
    """Either of two pairs gives the outcome: the result is one of them, and leaving out any one
    of its changes loses it."""

    def fails(chosen: list[int] | set[int]) -> bool:
        return {2, 5} <= set(chosen) or {6, 7} <= set(chosen)

    found, _ = ddmin(list(range(8)), lambda c: FAIL if fails(c) else PASS)
    assert fails(found)
    assert not any(fails(set(found) - {change}) for change in found)


def test_ddmin_steps_around_unresolved_sets() -> None:
    """A set that holds 4 without 3 does not run (4 needs 3): it is not kept, and the search
    still finds the change the outcome needs."""

    def test(chosen: list[int]) -> Verdict:
        if 4 in chosen and 3 not in chosen:
            return UNRESOLVED
        return FAIL if 6 in chosen else PASS

    found, search = ddmin(list(range(8)), test)
    assert found == [6]
    assert all(verdict != FAIL or 6 in chosen for chosen, verdict in search.tests)


def test_ddmin_returns_everything_when_nothing_smaller_works() -> None:
    found, _ = ddmin([1, 2, 3], lambda c: FAIL if len(c) == 3 else PASS)
    assert found == [1, 2, 3]
