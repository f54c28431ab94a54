"""The ADK search's moves: the study's kinds among the drawn ones, every hand-picked shape
steps the search itself can take."""

from __future__ import annotations

from approval_compaction.adk.moves import MOVES
from approval_compaction.adk.words import KINDS as ADK_KINDS


def test_moves_draw_every_kind_the_study_ran_and_sizes_beyond_them() -> None:
    modes = MOVES.settings[0]
    assert modes.name == "mode"
    assert set(ADK_KINDS) < set(modes.values)
    for mode in modes.values:  # each a window or a threshold with a size the driver parses
        trigger, _, size = mode.rpartition("-")
        assert trigger in ("window", "tokens") and size.isdigit(), mode


def test_moves_every_shape_takes_only_declared_moves_on_declared_kinds() -> None:
    actions = {move.action for move in MOVES.moves}
    for shape in MOVES.shapes:
        for step in shape.steps:
            assert step["action"] in actions, shape.name
            calls = step.get("calls", [])
            flat = {c for call in calls for c in ([call] if isinstance(call, str) else call)}
            assert flat <= set(MOVES.kinds), shape.name


def test_moves_confirmation_requests_adk_makes_up_are_their_own_kind() -> None:
    assert MOVES.kind_of("adk-0b1c") == "confirmation"
    assert MOVES.kind_of("confirm-0-0") == "confirm"
