"""The JS search's moves: every hand-picked shape is steps the search itself can take."""

from __future__ import annotations

from approval_compaction.js.moves import BETWEEN, MOVES, _late


def test_moves_a_late_answer_keeps_the_state_asks_three_times_then_decides_it() -> None:
    ask = {"action": "ask", "calls": ["mcp_approval"]}
    steps = _late(ask)
    assert steps[0] == ask and steps[1] == {"action": "keep"}
    assert steps[2:5] == BETWEEN and len(BETWEEN) == 3
    assert steps[5] == {"action": "decide", "kept": True}
    assert steps[-1] == {"action": "continue"}


def test_moves_every_shape_takes_only_declared_moves_on_declared_kinds() -> None:
    actions = {move.action for move in MOVES.moves}
    for shape in MOVES.shapes:
        for step in shape.steps:
            assert step["action"] in actions, shape.name
            assert set(step.get("calls", [])) <= set(MOVES.kinds), shape.name


def test_moves_the_shapes_ran_in_settings_the_search_draws() -> None:
    drawn = {choice.name: set(choice.values) for choice in MOVES.settings}
    assert MOVES.settings[0].name == "mode"  # the compaction mode first
    for shape in MOVES.shapes:
        for name, values in shape.settings.items():
            assert set(values) <= drawn[name], shape.name
