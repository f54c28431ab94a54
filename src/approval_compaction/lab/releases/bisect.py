"""Bisect: the first release where an invariant breaks, and the first where it holds again.

A release is *broken* for an invariant when any selected case violates it, *holds* when every
judged case keeps it, and cannot be judged (``None``) when no case could be (not applicable or
unavailable). The search starts from a broken release (the pinned one the report names, unless
told otherwise) and halves the range on each side of it, so it probes about log2(N) releases.
It reads a release from the sweep's results when they have it and runs it otherwise.

A bisect sees only what it probes, so it then checks every result it knows, the sweep's and its
own, and when those are not one contiguous broken range it says so and shows them.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ...analysis import vocabulary
from ...analysis.invariants import invariant as definition
from ...errors import InvestigationError
from ...formats.progress import Progress
from ...study.capture import sdk_version
from ...study.scenario import select_cases
from .environments import default_envs, uv_binary
from .sweep import Judgement as Judgement  # a release's judgement, defined with the sweep
from .sweep import judge_rows as judge_rows
from .sweep import load_results, resolve_releases, run_release

Judge = Callable[[str], Judgement]


class BisectError(InvestigationError):
    """A bisect that cannot start, e.g. a --broken release outside the searched ones."""


@dataclass(frozen=True)
class Span:
    """Consecutive judged releases that share one judgement (unjudged ones are skipped)."""

    holds: bool
    first: str
    last: str
    releases: int

    @property
    def where(self) -> str:
        """The releases it spans as a range: ``0.8.0..0.22.3``, or one release alone."""
        return release_range(self.first, self.last)

    def __str__(self) -> str:
        word = f"{vocabulary.RELEASE_WORDS[self.holds]:<6}"
        return f"{word} {self.where} ({self.releases} release{'s' * (self.releases != 1)})"


def release_range(first: str, last: str) -> str:
    """Releases from ``first`` to ``last`` as a range (``first..last``), or one release alone."""
    return first if first == last else f"{first}..{last}"


def spans(ordered: Sequence[str], known: Mapping[str, Judgement]) -> list[Span]:
    """The judged releases, in release order, grouped into runs of the same judgement."""
    found: list[Span] = []
    for version in ordered:
        holds = known.get(version)
        if holds is None:
            continue
        if found and found[-1].holds == holds:
            last = found[-1]
            found[-1] = Span(holds, last.first, version, last.releases + 1)
        else:
            found.append(Span(holds, version, version, 1))
    return found


def marked_ranges(ordered: Sequence[str], marked: Mapping[str, bool]) -> list[str]:
    """The runs of marked releases, in release order, each as a range (``0.8.0..0.22.3``)."""
    return [span.where for span in spans(ordered, marked) if span.holds]


def broken_spans(ordered: Sequence[str], known: Mapping[str, Judgement]) -> list[Span]:
    return [s for s in spans(ordered, known) if not s.holds]


@dataclass(frozen=True)
class Probe:
    """One release looked at: its judgement, and whether it came from the sweep or a run."""

    version: str
    holds: Judgement
    source: str


@dataclass
class Bisection:
    """What a bisect found: the boundaries, the probes it made, and every result it knows."""

    invariant: str
    versions: list[str]
    probes: list[Probe] = field(default_factory=list)
    known: dict[str, Judgement] = field(default_factory=dict)
    sweep: dict[str, Judgement] = field(default_factory=dict)
    first_broken: str | None = None
    last_holding: str | None = None
    holds_again: str | None = None
    last_broken: str | None = None

    @property
    def results(self) -> dict[str, Judgement]:
        """Every result known: the sweep's for the releases searched, and the probes'."""
        return {**{v: h for v, h in self.sweep.items() if v in self.versions}, **self.known}

    @property
    def contiguous(self) -> bool:
        """Whether every known result fits one broken range (or none at all)."""
        return len(broken_spans(self.versions, self.results)) <= 1

    def _gap(self, lo: str | None, hi: str | None) -> str:
        """A note when releases between two adjacent probes could not be judged."""
        i = self.versions.index(lo) if lo else -1
        j = self.versions.index(hi) if hi else len(self.versions)
        return f"; {j - i - 1} release(s) between could not be judged" if j - i > 1 else ""

    def lines(self) -> list[str]:
        """The outcome in words, one finding per line."""
        n = len(self.versions)
        out = [f"probes ({len(self.probes)} of {n} releases; log2 {n} = {math.log2(n):.1f}):"]
        out += [f"  {p.version:<8} {_word(p.holds):<7} {p.source}" for p in self.probes]
        if not self.contiguous:
            out.append("not one contiguous broken range; the known results, in release order:")
            out += [f"  {span}" for span in spans(self.versions, self.results)]
            return out
        if self.first_broken is None:
            out.append(f"{self.invariant} holds in every release probed: no broken range found")
            out.append("(a release known to be broken can be named with --broken)")
            return out
        gap = self._gap(self.last_holding, self.first_broken)
        before = f"last holding: {self.last_holding}" if self.last_holding else "first searched"
        out.append(f"first broken: {self.first_broken}  ({before}{gap})")
        gap = self._gap(self.last_broken, self.holds_again)
        if self.holds_again is None:
            out.append(f"holds again:  none (still broken in {self.last_broken}{gap})")
        else:
            out.append(f"holds again:  {self.holds_again}  (last broken: {self.last_broken}{gap})")
        return out


def _word(holds: Judgement) -> str:
    return vocabulary.RELEASE_WORDS[holds]


class _Search:
    """Probe releases through the sweep's results first, then the judge; remember each one."""

    def __init__(self, result: Bisection, sweep: Mapping[str, Judgement], judge: Judge) -> None:
        self.result, self.sweep, self.judge = result, sweep, judge

    def look(self, index: int) -> Judgement:
        version = self.result.versions[index]
        if version not in self.result.known:
            source = "sweep" if version in self.sweep else "ran"
            holds = self.sweep[version] if version in self.sweep else self.judge(version)
            self.result.known[version] = holds
            self.result.probes.append(Probe(version, holds, source))
        return self.result.known[version]

    def judged_near(self, lo: int, hi: int) -> int | None:
        """The judged index strictly between lo and hi nearest their middle, if any."""
        middle = (lo + hi) // 2
        for offset in range(hi - lo):
            for index in (middle - offset, middle + offset + 1):
                if lo < index < hi and self.look(index) is not None:
                    return index
        return None

    def boundary(self, lo: int, hi: int, broken_at_hi: bool) -> tuple[int, int]:
        """Narrow (lo, hi) to adjacent judged releases; hi's side is broken iff broken_at_hi."""
        while hi - lo > 1:
            mid = self.judged_near(lo, hi)
            if mid is None:
                break
            if (self.look(mid) is False) == broken_at_hi:
                hi = mid
            else:
                lo = mid
        return lo, hi


def bisect(
    versions: Sequence[str],
    invariant: str,
    judge: Judge,
    *,
    sweep: Mapping[str, Judgement] | None = None,
    start: str | None = None,
) -> Bisection:
    """Find where the invariant breaks and holds again among ``versions`` (in release order).

    ``start`` is a release expected to be broken; if it holds, the ends of the range are probed,
    then any broken release the sweep knows. ``-1`` and ``len(versions)`` stand for the holding
    releases assumed before the first and after the last.
    """
    result = Bisection(invariant, list(versions), sweep=dict(sweep or {}))
    search = _Search(result, result.sweep, judge)
    n = len(versions)
    candidates = ([versions.index(start)] if start in versions else []) + [n - 1, 0]
    broken = next((i for i in candidates if search.look(i) is False), None)
    if broken is None:
        known_broken = [i for i, v in enumerate(versions) if result.sweep.get(v) is False]
        broken = known_broken[len(known_broken) // 2] if known_broken else None
        if broken is not None:
            search.look(broken)
    if broken is None:
        return result
    lo, hi = search.boundary(-1, broken, broken_at_hi=True)
    result.first_broken = versions[hi]
    result.last_holding = versions[lo] if lo >= 0 else None
    lo, hi = search.boundary(broken, n, broken_at_hi=False)
    result.last_broken = versions[lo]
    result.holds_again = versions[hi] if hi < n else None
    return result


def command(args: argparse.Namespace) -> int:
    """``bisect``: find the boundaries of one invariant, reusing the sweep's results."""
    invariant = definition(args.invariant).name
    select_cases(args.case)  # a bad filter fails here, before any release runs
    versions, cutoffs = resolve_releases(args.versions, report=lambda line: None)
    start = args.broken or sdk_version()
    if args.broken and args.broken not in versions:
        raise BisectError(f"--broken {args.broken} is not among the releases searched")
    sweep = judge_rows(load_results(Path(args.sweep)), invariant, args.case)
    envs = Path(args.envs) if args.envs else default_envs()

    progress = Progress("bisect", unit="releases run")

    def judge(version: str) -> Judgement:
        rows = run_release(version, cutoffs[version], envs, uv_binary())
        progress.step(note=f" (last: {version})")
        return judge_rows(rows, invariant, args.case).get(version)

    cases = args.case or "all 16 cases"
    print(f"bisect {invariant} over {versions[0]}..{versions[-1]}, {cases}")
    with progress:
        result = bisect(versions, invariant, judge, sweep=sweep, start=start)
    print("\n".join(result.lines()))
    return 0
