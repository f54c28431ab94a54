"""Properties: each invariant defined once, found by its name; an unknown name is one line."""

from __future__ import annotations

import pytest

from approval_compaction.analysis.properties import (
    DEFINITIONS,
    INVARIANTS,
    LIVENESS,
    LIVENESS_NAMES,
    SAFETY,
    UnknownInvariantError,
    invariant,
)


def test_properties_eight_safety_then_two_liveness_each_named_once() -> None:
    assert (len(SAFETY), len(LIVENESS_NAMES)) == (8, 2)
    assert INVARIANTS == (*SAFETY, *LIVENESS_NAMES)
    assert len(set(INVARIANTS)) == len(INVARIANTS)


@pytest.mark.parametrize("name", INVARIANTS)
def test_properties_invariant_finds_its_definition(name: str) -> None:
    found = invariant(name)
    assert found.name == name and found in (*DEFINITIONS, *LIVENESS)
    assert found.meaning and found.stages


def test_properties_unknown_invariant_is_one_line_naming_the_known_ones() -> None:
    with pytest.raises(UnknownInvariantError, match="unknown invariant 'nope'") as info:
        invariant("nope")
    assert "\n" not in str(info.value) and "stored_history_paired" in str(info.value)
