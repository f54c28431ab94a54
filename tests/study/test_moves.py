"""Moves as data: the kind an offending id came from, by its prefix."""

from __future__ import annotations

from approval_compaction.study.moves import Choice, Move, Moves

MOVES = Moves(
    package="an-sdk",
    short="sdk",
    settings=(Choice("mode", ("a", "b")),),
    moves=(Move("ask", (Choice("calls", ("function", "long_running"), many=2),)),),
    kinds=("function", "long_running"),
    synthetic={"made-": "confirmation"},
)


def test_moves_kind_of_an_id_a_step_made_is_its_kind() -> None:
    assert MOVES.kind_of("function-0-1") == "function"
    assert MOVES.kind_of("long_running-2-0") == "long_running"  # an underscore, not a dash


def test_moves_kind_of_an_id_the_sdk_made_up_is_its_synthetic_kind() -> None:
    assert MOVES.kind_of("made-abc123") == "confirmation"


def test_moves_kind_of_an_id_no_step_made_is_unknown() -> None:
    assert MOVES.kind_of("call_xyz") == "?"
    assert MOVES.kind_of("other-0-1") == "?"
