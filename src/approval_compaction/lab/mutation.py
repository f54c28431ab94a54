"""Mutation: each fix's plausible simplifications (a condition dropped, a match widened or
narrowed, a branch dropped, a simpler fix someone might propose instead), and the regression
tests each one fails.

A ``Mutant`` is text edits to the patched code, each ``old`` text found there exactly once. It
is killed when a regression test that passes on the patched code fails on it; the mutant names
the test written to kill it (``killer``, a piece of its title), and the record says whether that
test, and how many others, failed. A mutant no test can tell from the fix says why
(``equivalent``). Each SDK's folder lists its mutants and runs its own tests on them
(an SDK folder's ``mutants``, ``lab.releases.mutants``) into
``data/*-mutants.json``, which the reports render (``mutants_frame``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ..errors import InvestigationError

SHOWN_FAILING = 5  # failing tests kept per mutant in the record


class MutationError(InvestigationError):
    """A mutant whose edit does not apply to the patched code, in one line."""


@dataclass(frozen=True)
class Mutant:
    """One plausible simplification of a fix."""

    fix: str  # which fix (its patch's name)
    name: str  # a short id
    change: str  # what the mutant does, in words
    edits: tuple[tuple[str, str], ...]  # (old, new) texts
    killer: str = ""  # a piece of the title of the test written to kill it
    equivalent: str = ""  # why no test can tell it from the fix (then no killer)


@dataclass(frozen=True)
class MutantRecord:
    """A mutant's run: how many regression tests failed, and whether its killer did."""

    fix: str
    mutant: str
    change: str
    tests: int
    failed: int
    killer: str  # the killer's full title as the run names it, or the piece given
    killer_failed: bool
    failing: str  # the first failing tests, one a line
    equivalent: str


def mutate(text: str, edits: Sequence[tuple[str, str]], label: str) -> str:
    """``text`` with each edit applied; an ``old`` that is not there exactly once is an error."""
    for old, new in edits:
        found = text.count(old)
        if found != 1:
            raise MutationError(f"mutant {label}: its edit matches {found} times, not once")
        text = text.replace(old, new)
    return text


def record(mutant: Mutant, tests: int, failing: Sequence[str]) -> MutantRecord:
    """The record of ``mutant`` from its run's failing tests (``file: title`` each)."""
    named = [test for test in failing if mutant.killer and mutant.killer in test]
    return MutantRecord(
        fix=mutant.fix,
        mutant=mutant.name,
        change=mutant.change,
        tests=tests,
        failed=len(failing),
        killer=named[0] if named else mutant.killer,
        killer_failed=bool(named),
        failing="\n".join(list(failing)[:SHOWN_FAILING]),
        equivalent=mutant.equivalent,
    )


def survivors(records: Sequence[MutantRecord]) -> list[str]:
    """The mutants neither killed nor shown equivalent."""
    return [r.mutant for r in records if not r.failed and not r.equivalent]


def _named(test: str) -> str:
    """A test as the table names it: its title without the parameters of one of its cases
    (vitest's ``it.each`` appends them as ``(mode='auto', ...)``)."""
    return re.sub(r" \([^()]*=[^()]*\)$", "", test)


def mutants_frame(records: Sequence[MutantRecord]) -> pd.DataFrame:
    """One row a mutant: what it changes, and the test that kills it (with how many fail)."""
    rows = []
    for r in records:
        if r.failed and r.killer_failed:
            killed = _named(r.killer) + (f" (and {r.failed - 1} more)" if r.failed > 1 else "")
        elif r.failed:
            killed = f"{r.failed} tests, e.g. {r.failing.splitlines()[0]}"
        else:
            killed = f"none: equivalent, {r.equivalent}" if r.equivalent else "none: survives"
        rows.append({"fix": r.fix, "mutant": r.change, "killed by": killed})
    return pd.DataFrame(rows).set_index(["fix", "mutant"])
