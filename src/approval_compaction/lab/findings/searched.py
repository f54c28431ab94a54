"""Searched: what the state-space search found on a driver's releases, one record per finding.

``make explore-drivers`` writes each search on a driver (``data/explore-<sdk>-*.json``) and
each finding's minimal sequence (``data/counterexamples/``). Here each finding becomes one
``SearchedCase``: the package it ran on (a release, or a patched package ``V+FILE``), what it
breaks, whether a hand-picked situation or case has its shape (``known``, and which) or none does
(``new``), its steps and settings in words, and the command that replays it. The report, the
notebooks and the README read these records.
"""

from __future__ import annotations

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


def fix_words(cases: list[SearchedCase]) -> list[str]:
    """For each patched package searched (``V+FILE``): what the search finds there, and how
    many of the new findings on its release break none of the same invariants, with the same
    kind of call, on it."""
    said = []
    for patched in dict.fromkeys(c.package for c in cases if "+" in c.package):
        base = patched.partition("+")[0]
        new = [c for c in cases if c.package == base and c.label == "new"]
        after = [c for c in cases if c.package == patched]
        left = {pair for c in after for pair in c.pairs}
        gone = [c for c in new if not set(c.pairs) & left]
        shapes = ", ".join(sorted({c.known_as or "new" for c in after}))
        said.append(
            f"On {patched}, the search finds {len(after)} ({shapes or 'none'}); "
            f"{len(gone)} of the {len(new)} new findings on {base} break none of the same "
            "invariants there."
        )
    return said


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
