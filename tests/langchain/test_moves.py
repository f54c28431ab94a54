"""LangChain's moves for the search: every setting and field as the driver's step mode takes
them, and every shape made of moves it has."""

from __future__ import annotations

from approval_compaction.langchain.harness import APIS, KINDS
from approval_compaction.langchain.moves import MOVES
from approval_compaction.langchain.sweep import SITUATIONS


def test_moves_settings_are_the_drivers_kinds_apis_and_stores() -> None:
    settings = {choice.name: choice.values for choice in MOVES.settings}
    assert settings["mode"] == KINDS and settings["api"] == APIS
    assert settings["store"] == ("memory", "sqlite")


def test_moves_every_shape_is_made_of_known_moves_and_names_a_situation_or_the_case() -> None:
    actions = {move.action for move in MOVES.moves}
    for shape in MOVES.shapes:
        assert shape.name in (*SITUATIONS, "case")
        assert {step["action"] for step in shape.steps} <= actions
        drawn = [kind for step in shape.steps for kind in step.get("calls", [])]
        calls = {k for kind in drawn for k in (kind if isinstance(kind, list) else [kind])}
        assert calls <= set(MOVES.kinds)
