"""The shared progress lines: at most one every few seconds while work goes on, one at the end."""

from __future__ import annotations

import io

from approval_compaction.formats.progress import Progress, tracked


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_writes_a_line_when_its_interval_has_passed_and_one_at_the_end() -> None:
    clock, stream = Clock(), io.StringIO()
    with Progress("sweep", 4, "releases", stream=stream, every=5.0, clock=clock) as progress:
        progress.step()  # at 0 s: too soon
        clock.now = 6.0
        progress.step(note=" (0.22.0)")
        clock.now = 7.0
        progress.step()
        clock.now = 12.0
        progress.step()
    assert stream.getvalue().splitlines() == [
        "sweep: 2/4 releases, 6 s (0.22.0)",
        "sweep: 4/4 releases, 12 s",
    ]


def test_progress_of_a_short_run_prints_nothing() -> None:
    clock, stream = Clock(), io.StringIO()
    with Progress("data", 3, "steps", stream=stream, clock=clock) as progress:
        for _ in range(3):
            clock.now += 1.0
            progress.step()
    assert stream.getvalue() == ""


def test_progress_ends_without_repeating_the_line_it_just_wrote() -> None:
    clock, stream = Clock(), io.StringIO()
    with Progress("bisect", unit="releases run", stream=stream, every=1.0, clock=clock) as p:
        clock.now = 2.0
        p.step()
    assert stream.getvalue() == "bisect: 1 releases run, 2 s\n"


def test_tracked_counts_each_item_once_the_caller_is_done_with_it() -> None:
    clock, stream = Clock(), io.StringIO()
    seen = []
    progress = Progress("notebooks", 2, "notebooks", stream=stream, every=1.0, clock=clock)
    for name in tracked(["a", "b"], progress):
        seen.append((name, progress.done))
        clock.now += 3.0
    assert seen == [("a", 0), ("b", 1)]
    assert stream.getvalue().splitlines() == [
        "notebooks: 1/2 notebooks, 3 s",
        "notebooks: 2/2 notebooks, 6 s",
    ]
