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


def test_properties_ten_safety_then_two_liveness_each_named_once() -> None:
    assert (len(SAFETY), len(LIVENESS_NAMES)) == (10, 2)
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


def test_properties_every_input_is_judged_both_ways() -> None:
    """Each kind of input a stage sends (model, compaction) has a rule for an output without
    its call and one for a call without its output, and the model's covers every stage that
    sends: the pause, the resume and the next turn."""
    from approval_compaction.analysis.pairing import open_calls, orphan_outputs

    def stages(field: str, check: object) -> set[str]:
        return {s for i in DEFINITIONS if (i.field, i.check) == (field, check) for s in i.stages}

    sending = {"pause", "resume", "next_turn"}
    for field in ("model_inputs", "compaction_inputs"):
        assert sending <= stages(field, orphan_outputs), field
        assert sending <= stages(field, open_calls), field
