"""Searched: what the state-space search found on a driver's releases, one record per finding.

``make explore-drivers`` writes each search on a driver (``data/explore-<sdk>-*.json``) and
each finding's minimal sequence (``data/counterexamples/``). Here each finding becomes one
``SearchedCase``: the package it ran on (a release, or a patched package ``V+FILE``), what it
breaks, whether a hand-picked situation or case has its shape (``known``, and which) or none does
(``new``), its steps and settings in words, and the command that replays it. The report, the
notebooks and the README read these records.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ...formats.records import read_json
from .. import paths
from ..explore.conversation import Conversation
from ..releases.versions import version_key

LIVENESS = ("compaction_runs", "history_bounded")
REPLAY = "python -m approval_compaction explore replay data/counterexamples/{name}.json"


@dataclass(frozen=True)
class SearchedCase:
    """One finding of a driver's search, in words."""

    sdk: str
    package: str
    name: str
    label: str  # known or new
    known_as: str  # the hand-picked shape ("" when new)
    breaks: str  # each invariant broken, with the kind of call that broke it
    steps: str
    settings: str
    stops_compacting: bool  # it breaks compaction_runs: compaction stops for good
    mode: str = ""  # the compaction mode (a driver's setting) it was shrunk to
    pairs: tuple[tuple[str, str], ...] = ()  # each invariant broken, with its kind of call

    @property
    def replay(self) -> str:
        return REPLAY.format(name=self.name)

    @classmethod
    def of(cls, sdk: str, finding: dict[str, Any]) -> SearchedCase:
        """A finding as ``Finding.to_json`` wrote it (read as JSON: no SDK, no hypothesis)."""
        trace = finding["trace"]
        conversation = Conversation.from_json(trace["conversation"])
        pairs = [(str(i), str(k)) for i, k in finding["pairs"]]
        return cls(
            sdk=sdk,
            package=str(trace["sdk_version"]),
            name=str(finding["name"]),
            label=str(finding["label"]),
            known_as=str(finding["known_as"]),
            breaks=", ".join(f"{i} ({k})" for i, k in pairs),
            steps=" → ".join(step.label() for step in conversation.steps),
            settings=", ".join(f"{k} {v}" for k, v in conversation.options.items()),
            stops_compacting=any(i == "compaction_runs" for i, _ in pairs),
            mode=str(conversation.mode),
            pairs=tuple(pairs),
        )


def load_searches(sdk: str, folder: Path = paths.DATA) -> list[dict[str, Any]]:
    """Every committed search on the driver ``sdk`` (its registry name), as written
    (``SearchResult.to_json``), releases in order."""
    found = [read_json(path, dict) for path in paths.data(folder).explore_results(sdk)]
    return sorted(found, key=lambda r: version_key(str(r["sdk_version"]).partition("+")[0]))


def searched_cases(sdk: str, folder: Path = paths.DATA) -> list[SearchedCase]:
    return [SearchedCase.of(sdk, f) for r in load_searches(sdk, folder) for f in r["findings"]]


@dataclass(frozen=True)
class FixLeft:
    """What the search leaves on one patched package (``V+FILE``), beside what it found on the
    release under it: every finding on the patched package, the release's new findings (no
    hand-picked shape has them), and how many of those break none of the same invariants, with
    the same kind of call, on the patched package (the ones the fix takes away). Each SDK's
    report words it."""

    patched: str
    release: str
    found: tuple[SearchedCase, ...]
    new_on_release: int
    gone: int

    @property
    def shapes(self) -> tuple[str, ...]:
        """The hand-picked shapes the findings on the patched package reduce to ("new": none)."""
        return tuple(sorted({c.known_as or "new" for c in self.found}))

    @property
    def broken(self) -> tuple[str, ...]:
        """Each invariant a finding on the patched package breaks, by name."""
        return tuple(sorted({name for c in self.found for name, _ in c.pairs}))

    @property
    def new(self) -> tuple[SearchedCase, ...]:
        """The findings on the patched package no hand-picked shape has."""
        return tuple(c for c in self.found if c.label == "new")

    @property
    def stops_compacting(self) -> bool:
        """Whether a session on the patched package still stops compacting for good."""
        return any(c.stops_compacting for c in self.found)


def fixes_left(cases: Sequence[SearchedCase]) -> list[FixLeft]:
    """One ``FixLeft`` for each patched package with findings, in the findings' order."""
    found = []
    for patched in dict.fromkeys(c.package for c in cases if "+" in c.package):
        base = patched.partition("+")[0]
        new = [c for c in cases if c.package == base and c.label == "new"]
        after = tuple(c for c in cases if c.package == patched)
        left = {pair for c in after for pair in c.pairs}
        gone = sum(1 for c in new if not set(c.pairs) & left)
        found.append(FixLeft(patched, base, after, len(new), gone))
    return found


def fix_words(cases: list[SearchedCase]) -> list[str]:
    """For each patched package searched (``FixLeft``): what the search finds there, and how
    many of the new findings on its release break none of the same invariants, with the same
    kind of call, on it."""
    return [
        f"On {f.patched}, the search finds {len(f.found)} ({', '.join(f.shapes) or 'none'}); "
        f"{f.gone} of the {f.new_on_release} new findings on {f.release} break none of the same "
        "invariants there."
        for f in fixes_left(cases)
    ]


def searched_frame(cases: list[SearchedCase], new_only: bool = False) -> pd.DataFrame:
    """One row per finding: the package, known as which hand-picked shape or new, what it
    breaks, its steps and settings."""
    rows = [
        {
            "package": c.package,
            "finding": c.name,
            "hand-picked": c.known_as or "new",
            "breaks": c.breaks,
            "minimal sequence": c.steps,
            "settings": c.settings,
        }
        for c in cases
        if c.label == "new" or not new_only
    ]
    columns = ["package", "finding", "hand-picked", "breaks", "minimal sequence", "settings"]
    return pd.DataFrame(rows, columns=columns).set_index(["package", "finding"])


def search_coverage(sdk: str, folder: Path = paths.DATA) -> pd.DataFrame:
    """Per search: the examples and steps it ran, its rounds, whether its last round found
    nothing new, and its findings, new ones apart."""
    rows = [
        {
            "package": r["sdk_version"],
            "examples": r["tally"].get("examples", 0),
            "steps": r["tally"].get("steps", 0),
            "rounds": r["rounds"],
            "ran dry": r["exhausted"],
            "findings": len(r["findings"]),
            "new": sum(1 for f in r["findings"] if f["label"] == "new"),
        }
        for r in load_searches(sdk, folder)
    ]
    return pd.DataFrame(rows).set_index("package")
