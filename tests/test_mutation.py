"""Mutation: a mutant's edits apply exactly once, its record names the test that killed it, and
the table says what each mutant changes and what kills it."""

from __future__ import annotations

import pytest

from approval_compaction.lab.mutation import (
    Mutant,
    MutationError,
    mutants_frame,
    mutate,
    record,
    survivors,
)

DROP = Mutant("fix.diff", "drop", "the check dropped", (("if (a && b)", "if (a)"),), "keeps b")


def test_mutate_applies_each_edit_once() -> None:
    assert mutate("x; if (a && b) y;", DROP.edits, "drop") == "x; if (a) y;"


@pytest.mark.parametrize(
    "text", ["nothing to edit", "if (a && b) 1; if (a && b) 2;"], ids=["0", "2"]
)
def test_mutate_refuses_an_edit_that_does_not_match_once(text: str) -> None:
    with pytest.raises(MutationError, match=r"^mutant drop: its edit matches \d times, not once$"):
        mutate(text, DROP.edits, "drop")


def test_record_names_the_killer_as_the_run_named_it() -> None:
    failing = ["a.test.ts: other", "a.test.ts: keeps b when asked (mode=x)"]
    found = record(DROP, 10, failing)
    assert (found.failed, found.killer_failed) == (2, True)
    assert found.killer == "a.test.ts: keeps b when asked (mode=x)"
    assert survivors([found]) == []


def test_a_mutant_that_no_test_kills_survives_unless_shown_equivalent() -> None:
    quiet = record(DROP, 10, [])
    same = record(Mutant("fix.diff", "same", "reordered", (), equivalent="no order exists"), 10, [])
    assert survivors([quiet, same]) == ["drop"]
    frame = mutants_frame([quiet, same]).droplevel("fix")
    assert frame.loc["the check dropped", "killed by"] == "none: survives"
    assert frame.loc["reordered", "killed by"] == "none: equivalent, no order exists"


def test_the_table_names_the_killer_and_how_many_more_failed() -> None:
    killed = record(DROP, 10, ["a: keeps b", "a: other", "a: third"])
    frame = mutants_frame([killed]).droplevel("fix")
    assert frame.loc["the check dropped", "killed by"] == "a: keeps b (and 2 more)"


def test_the_table_names_a_parametrised_killer_by_its_title() -> None:
    failing = ["a.test.ts: keeps b when asked (mode='auto', store=false)"]
    frame = mutants_frame([record(DROP, 10, failing)]).droplevel("fix")
    assert frame.loc["the check dropped", "killed by"] == "a.test.ts: keeps b when asked"
