"""Progress: how far a long command has got, as a line on stderr every few seconds.

A command that runs longer than a few seconds (a sweep, a search, the notebooks, a crosscheck)
says what it has done so far: ``sweep: 3/72 releases, 40 s``, or a search's rounds, examples and
findings. A line comes when a unit of work ends and at least ``every`` seconds passed since the
last one, and once more at the end, so a long run can be told from a hung one in a terminal and
in a log alike (the sweep's lines are the model); standard output keeps the command's results.
A run that ends within ``every`` seconds prints nothing.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import TextIO, TypeVar

EVERY_SECONDS = 5.0  # the most time between two lines while work goes on
T = TypeVar("T")


class Progress:
    """Units of work done (of ``total``, when known) under ``label``, reported on ``stream``
    (stderr); ``note`` adds what a unit's own line should say (which release, say)."""

    def __init__(
        self,
        label: str,
        total: int | None = None,
        unit: str = "runs",
        *,
        stream: TextIO | None = None,
        every: float = EVERY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label, self.total, self.unit = label, total, unit
        self.stream, self.every, self.clock = stream, every, clock
        self.start = self.last = clock()
        self.done, self.shown = 0, -1

    def seconds(self) -> float:
        return self.clock() - self.start

    def text(self, note: str = "") -> str:
        """The line as it reads now."""
        count = f"{self.done}/{self.total}" if self.total is not None else f"{self.done}"
        return f"{self.label}: {count} {self.unit}, {self.seconds():.0f} s{note}"

    def line(self, note: str = "") -> None:
        """Write the line now."""
        self.last, self.shown = self.clock(), self.done
        print(self.text(note), file=self.stream or sys.stderr, flush=True)

    def due(self) -> bool:
        return self.clock() - self.last >= self.every

    def step(self, count: int = 1, note: str = "") -> None:
        """``count`` more units done: a line when ``every`` seconds passed since the last."""
        self.done += count
        if self.due():
            self.line(note)

    def finish(self, note: str = "") -> None:
        """The last line, unless the one shown last already said it all."""
        if self.shown != self.done and self.seconds() >= self.every:
            self.line(note)

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if kind is None:
            self.finish()


def tracked(items: Iterable[T], progress: Progress) -> Iterator[T]:
    """The items, one by one, each counted as done on ``progress`` once the caller is back."""
    with progress:
        for item in items:
            yield item
            progress.step()
