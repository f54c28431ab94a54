"""Driven: the search on a driver, its moves as data, judged by the one judge (a fake driver
in-process: the drivers' own runs are in tests/explore/test_driven_findings.py)."""

from __future__ import annotations

import pytest

from approval_compaction.lab.explore import driven
from approval_compaction.lab.explore.conversation import Conversation, Step
from approval_compaction.lab.explore.rules import Setup
from approval_compaction.lab.explore.search import Options
from approval_compaction.study.capture import Stage
from approval_compaction.study.items import Item
from approval_compaction.study.moves import Choice, Moves, Shape
from tests.explore.driver_fake import ASK_OPEN, MOVES, FakeDriver


def test_search_on_a_driver_finds_the_stall_and_shrinks_it_to_its_shape() -> None:
    result = driven.search(MOVES, FakeDriver(), Options(examples=60, rounds=3))
    assert result.sdk == "adk" and result.sdk_version == "1.0" and result.exhausted
    (stall,) = [f for f in result.findings if "compaction_runs" in f.invariants]
    assert ("compaction_runs", "open") in stall.pairs
    assert [s.action for s in stall.trace.conversation.steps] == ["ask", "continue"]
    assert stall.trace.conversation.steps[0].calls == ("open",)
    assert stall.trace.conversation.mode == "a"  # shrunk to the simplest setting
    assert (stall.label, stall.known_as) == ("known", "abandoned")
    assert stall.name.startswith("adk-1.0-")


def test_rerun_of_a_finding_breaks_the_same_invariants() -> None:
    found = Conversation("a", False, (Step("ask", calls=("open",)), Step("continue")), "adk")
    drive = driven.Drive(MOVES, FakeDriver(), Setup(()))
    trace = driven.rerun(drive, found)
    assert [(i, j.invariant) for i, j in trace.violations] == [
        (1, "compaction_runs"),
        (1, "history_bounded"),
    ]


def test_rerun_stops_at_a_step_the_conversation_can_no_longer_take() -> None:
    """A tightened conversation whose ``decide`` lost the ``ask`` it answered ends there."""
    found = Conversation("a", False, (Step("decide"), Step("continue")), "adk")
    trace = driven.rerun(driven.Drive(MOVES, FakeDriver(), Setup(())), found)
    assert trace.records == ()


@pytest.mark.parametrize(
    ("steps", "settings", "shape"),
    [
        ((Step("ask", calls=("open",)), Step("continue")), {"mode": "a"}, "abandoned"),
        ((Step("ask", calls=("open",)),), {"mode": "a"}, "abandoned"),  # the start of one
        ((Step("ask", calls=("open",)), Step("continue")), {"mode": "b"}, ""),  # not run in b
        ((Step("ask", calls=("paired",)), Step("continue")), {"mode": "a"}, ""),
        ((Step("continue"),), {"mode": "a"}, ""),
    ],
    ids=["shape", "prefix", "other-setting", "other-kind", "other-steps"],
)
def test_shape_of_names_the_hand_picked_shape_a_finding_has(
    steps: tuple[Step, ...], settings: dict[str, str], shape: str
) -> None:
    found = Conversation(settings["mode"], False, steps, "adk")
    assert driven.shape_of(MOVES, found) == shape


def test_shape_of_counts_plain_questions_in_a_row_as_one_and_takes_a_call_s_alternatives() -> None:
    plain = {"action": "ask", "calls": []}
    moves = Moves(
        "fake",
        "adk",
        MOVES.settings,
        MOVES.moves,
        MOVES.kinds,
        (Shape("late", ({"action": "ask", "calls": [["open", "paired"]]}, plain, plain, plain)),),
    )
    steps = (Step("ask", calls=("paired",)), Step("ask"))
    assert driven.shape_of(moves, Conversation("a", False, steps, "adk")) == "late"


def test_control_sets_the_warm_up_and_the_designed_breaks() -> None:
    def turn(compacted: bool, kept: int) -> Stage:
        stored: list[Item] = [{"type": "message", "role": "assistant"}] * kept
        return Stage(
            name="next_turn", stored=stored, compaction_inputs=[stored] if compacted else []
        )

    growing = [turn(False, 1), turn(True, 2), turn(True, 3)]
    control = driven.Control.of(growing, ("history_bounded",), "1.0")
    assert control == driven.Control(1, frozenset({"history_bounded"}))
    never = driven.Control.of([turn(False, 1)] * 3, ("history_bounded",), "1.0")
    assert never.warmup == 0  # a control that never compacts excuses nothing


def test_by_design_keeps_other_verdicts_and_says_why() -> None:
    from approval_compaction.lab.explore.conversation import Judgement

    broken = Judgement("history_bounded", False, "turns 2, 3")
    other = Judgement("compaction_runs", False, "turn 1")
    designed = frozenset({"history_bounded"})
    said = driven.by_design(broken, designed, "the docs")
    assert said.holds is None and "the docs" in said.detail
    assert driven.by_design(other, designed, "the docs") == other


def test_moves_name_the_kind_of_an_id_the_sdk_made_up() -> None:
    assert MOVES.kind_of("open-3-0") == "open"
    assert MOVES.kind_of("sys-7") == "system"
    assert MOVES.kind_of("call_1") == "?"


def test_a_move_drawing_a_field_a_step_lacks_is_refused() -> None:
    with pytest.raises(AssertionError, match="fields a step does not have"):
        driven._rule("ask", (Choice("colour", ("red",)),), ())


def test_driver_conversation_keeps_its_settings_and_the_python_one_reads_as_before() -> None:
    found = driven.conversation(MOVES, {"mode": "a", "store": "database"})
    assert found.to_json() == {
        "mode": "a",
        "fix": False,
        "steps": [],
        "sdk": "adk",
        "settings": {"store": "database"},
    }
    assert Conversation.from_json(found.to_json()) == found
    assert "sdk" not in Conversation("input").to_json()


def test_a_shape_s_plain_questions_are_optional() -> None:
    late = Shape("late", (ASK_OPEN, {"action": "ask", "calls": []}, {"action": "decide"}))
    moves = Moves("fake", "adk", MOVES.settings, MOVES.moves, MOVES.kinds, (late,))
    steps = (Step("ask", calls=("open",)), Step("decide"))
    assert driven.shape_of(moves, Conversation("a", False, steps, "adk")) == "late"
    other = (Step("ask", calls=("open",)), Step("continue"))  # later questions fit it too
    assert driven.shape_of(moves, Conversation("a", False, other, "adk")) == "late"
    assert driven.shape_of(moves, Conversation("a", False, (Step("decide"),), "adk")) == ""


def test_later_questions_fit_a_shape_s_plain_question() -> None:
    case = Shape("case", (ASK_OPEN, {"action": "decide"}, {"action": "ask", "calls": []}))
    moves = Moves("fake", "adk", MOVES.settings, MOVES.moves, MOVES.kinds, (case,))
    steps = (Step("ask", calls=("open",)), Step("decide"), Step("continue"))
    assert driven.shape_of(moves, Conversation("a", False, steps, "adk")) == "case"


def test_known_as_reads_a_finding_up_to_the_step_that_first_broke_its_invariant() -> None:
    """Compaction stopped for good at the first ``continue``: the later steps only pin it."""
    from approval_compaction.lab.explore.conversation import Judgement, StepRecord

    stall = Shape("stall", ({"action": "continue"},))
    moves = Moves("fake", "adk", MOVES.settings, MOVES.moves, MOVES.kinds, (stall,))
    steps = (Step("continue"), Step("ask", calls=("open",)), Step("continue"))
    broken = (Judgement("compaction_runs", False, "turns 1, 2, 3"),)
    records = [
        StepRecord(n, step, "answered", (), 0, Stage(name="next_turn", stored=[]), broken)
        for n, step in enumerate(steps)
        if step.action == "continue"
    ]
    found = Conversation("a", False, steps, "adk")
    assert driven.known_as(moves, found, records, {"compaction_runs"}) == "stall"
    assert driven.known_as(moves, found, records[1:], {"compaction_runs"}) == ""
