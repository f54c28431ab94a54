"""Ddmin: Zeller and Hildebrandt's minimizing delta debugging, over any list of changes.

``ddmin(changes, test)`` looks for a smallest subset whose ``test`` is ``FAIL``, the outcome
being searched for (here: "the bug is fixed"), from "Simplifying and Isolating
Failure-Inducing Input" (IEEE TSE 28(2), 2002), figure 5: split the current set into ``n``
parts; if a part alone gives ``FAIL``, go on with it (``n = 2``); else if a complement gives
``FAIL``, go on with it (``n - 1``); else split finer (``2n``), until the parts are single
changes. A subset that cannot be judged (a patch that does not import or run) is
``UNRESOLVED`` and, like ``PASS``, is not kept. The result is 1-minimal: leaving out any one
of its changes loses the outcome. ``test`` is called once per distinct subset (the search
keeps every answer), and ``Search.tests`` lists them in the order they ran.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

T = TypeVar("T")
Verdict = Literal["pass", "fail", "unresolved"]
PASS: Verdict = "pass"
FAIL: Verdict = "fail"
UNRESOLVED: Verdict = "unresolved"


def partition(changes: Sequence[T], n: int) -> list[list[T]]:
    """``changes`` in ``n`` contiguous parts whose sizes differ by at most one."""
    size, extra = divmod(len(changes), n)
    parts, start = [], 0
    for index in range(n):
        end = start + size + (1 if index < extra else 0)
        parts.append(list(changes[start:end]))
        start = end
    return [part for part in parts if part]


@dataclass
class Search(Generic[T]):
    """One ddmin run over ``changes``: each distinct subset's verdict, in the order it ran."""

    test: Callable[[list[T]], Verdict]
    changes: Sequence[T]
    tests: list[tuple[tuple[T, ...], Verdict]] = field(default_factory=list)
    _seen: dict[tuple[int, ...], Verdict] = field(default_factory=dict)

    def verdict(self, subset: Sequence[int]) -> Verdict:
        """The verdict of the changes at these positions, tested once, in the changes' order."""
        key = tuple(sorted(subset))
        if key not in self._seen:
            chosen = [self.changes[index] for index in key]
            self._seen[key] = self.test(chosen)
            self.tests.append((tuple(chosen), self._seen[key]))
        return self._seen[key]

    def run(self) -> list[T]:
        """The 1-minimal subset (all the changes when no smaller set gives ``FAIL``)."""
        current, n = list(range(len(self.changes))), 2
        while len(current) >= 2:
            parts = partition(current, n)
            kept = next((part for part in parts if self.verdict(part) == FAIL), None)
            if kept is not None:
                current, n = kept, 2
                continue
            if len(parts) > 2:  # with two parts, each complement is the other part
                complements = [[c for c in current if c not in part] for part in parts]
                found = next((c for c in complements if self.verdict(c) == FAIL), None)
                if found is not None:
                    current, n = found, max(n - 1, 2)
                    continue
            if n >= len(current):
                break
            n = min(len(current), 2 * n)
        return [self.changes[index] for index in current]


def ddmin(changes: Sequence[T], test: Callable[[list[T]], Verdict]) -> tuple[list[T], Search[T]]:
    """The 1-minimal subset of ``changes`` whose test gives ``FAIL``, and the search that found
    it (its tests, in order)."""
    search = Search(test, list(changes))
    return search.run(), search
