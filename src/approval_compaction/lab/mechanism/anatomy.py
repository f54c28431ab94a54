"""Anatomy's record: which part of 0.24.0's diff is the fix, for each kind of approval, as the
experiment found it (``data/fix-anatomy.json``).

The experiment itself runs the SDK and lives in the Python SDK's folder (its ``anatomy.py``,
over its bench and its driver; ``fix-anatomy`` loads it by name). What it writes is read here,
by the mechanism's views, the headlines and notebook 12, and names no SDK: each configuration's
``Outcome`` (``fixed``, ``bug`` or ``unresolved``, judged from the sweep's records), each hunk's
and each other module's revert, the minimal fix and ddmin's search, the poisoned session's next
turn, and each approval kind's anatomy (``KindAnatomy``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ...formats.records import read_json, write_json
from .. import paths
from ..releases.sweep import ReleaseRecord
from .ddmin import UNRESOLVED

FIXED, BUG = "fixed", "bug"  # an outcome's verdict, with UNRESOLVED


@dataclass(frozen=True)
class Outcome:
    """What one run of the sixteen cases found: ``fixed`` (every invariant holds in every
    case), ``bug`` (some do not: how many cases per invariant, and which cases), or
    ``unresolved`` (it did not import or run: why)."""

    verdict: str
    violated: dict[str, int]
    cases: tuple[str, ...]
    reason: str

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        return cls(**data | {"cases": tuple(data["cases"])})


FILE_IN_PARENTHESES = re.compile(r" \(/[^)]*\)")  # an ImportError's "(/path/to/module.py)"


def plain_reason(detail: str) -> str:
    """Why a run did not run, on one line, without the scratch environment's paths (they are
    temporary, and the record is committed)."""
    return FILE_IN_PARENTHESES.sub("", " ".join(detail.split()))[:300]


def outcome(rows: Sequence[ReleaseRecord]) -> Outcome:
    """The outcome of one run's records."""
    broken = [r for r in rows if r.holds is None]
    if broken:
        return Outcome(UNRESOLVED, {}, (), plain_reason(broken[0].detail))
    violated: dict[str, int] = {}
    cases = set()
    for row in rows:
        if row.holds is False:
            violated[row.invariant] = violated.get(row.invariant, 0) + 1
            cases.add("/".join(row.case_key))
    return Outcome(BUG if violated else FIXED, violated, tuple(sorted(cases)), "")


# ---------------------------------------------------------------------------- the record


def reverts_from_json(data: dict[str, Any]) -> dict[str, Any]:
    """A revert's fields (alone, what it needed, widened) parsed from a record's JSON."""
    return {
        "reverted": Outcome.from_json(data["reverted"]),
        "together": tuple(data["together"]),
        "reverted_together": Outcome.from_json(data["reverted_together"]),
    }


@dataclass(frozen=True)
class HunkRecord:
    """One hunk: where it is, its own patch (the older release plus this hunk alone), what
    reverting it alone from the newer release does and, when that does not run, reverting it
    with the hunks that need it (``together``: their names); whether the minimal fix holds it."""

    name: str
    path: str
    span: str
    first_line: str
    patch: str
    reverted: Outcome
    together: tuple[str, ...]
    reverted_together: Outcome
    in_minimal_fix: bool

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HunkRecord:
        return cls(**data | reverts_from_json(data))


@dataclass(frozen=True)
class ModuleRecord:
    """One of the package's other changed modules (off the bug's path): how many hunks its
    change has, what reverting it whole from the newer release does and, when that does not
    run, reverting it with the hunks that need it (``together``: their names)."""

    path: str
    hunks: int
    reverted: Outcome
    together: tuple[str, ...]
    reverted_together: Outcome

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ModuleRecord:
        return cls(**data | reverts_from_json(data))


@dataclass(frozen=True)
class SearchStep:
    """One set ddmin tried: its hunks (as numbers in the list, ``1-3,7``) and what the cases
    found on 0.23.1 with them: ``fixed``, ``bug`` or ``unresolved``."""

    hunks: str
    verdict: str


@dataclass(frozen=True)
class PoisonedTurn:
    """The next turn on a store the older release poisoned, on one SDK: what compaction got."""

    sdk: str
    compaction_requests: int
    compaction_input_orphans: str
    model_input_orphans: str
    stored_after: str


@dataclass(frozen=True)
class Anatomy:
    """The whole experiment: the releases, the files, each hunk, the minimal fix and how the
    search found it, and the poisoned session's next turn."""

    old: str
    new: str
    files: tuple[str, ...]
    old_outcome: Outcome
    new_outcome: Outcome
    all_on_old: Outcome  # the older release with every hunk applied
    other_files: tuple[str, ...]  # the package's other modules that differ (off the path)
    added_files: tuple[str, ...]  # modules only the newer release has (no revert removes them)
    hunks: tuple[HunkRecord, ...]
    modules: tuple[ModuleRecord, ...]  # the other modules, each reverted whole
    minimal_fix: tuple[str, ...]
    minimal_patch: str
    minimal_outcome: Outcome
    rest_reverted: Outcome  # the newer release with every change but the fix reverted
    one_minimal: bool  # leaving out any one hunk of the fix loses it (checked)
    search: tuple[SearchStep, ...]
    ablation_runs: int  # the patched runs reverting hunks and modules took
    poisoned: tuple[PoisonedTurn, ...]
    kinds: tuple[KindAnatomy, ...] = ()  # each approval kind's anatomy (the function kind's too)

    @property
    def numbers(self) -> dict[str, int]:
        """Each hunk's number in the list of the path's, as the search names its sets."""
        return {hunk.name: index for index, hunk in enumerate(self.hunks, start=1)}

    @property
    def search_runs(self) -> int:
        """The patched runs ddmin needed: one per distinct set it tried."""
        return len(self.search)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Anatomy:
        return cls(
            **data
            | {
                "files": tuple(data["files"]),
                "old_outcome": Outcome.from_json(data["old_outcome"]),
                "new_outcome": Outcome.from_json(data["new_outcome"]),
                "all_on_old": Outcome.from_json(data["all_on_old"]),
                "other_files": tuple(data["other_files"]),
                "added_files": tuple(data["added_files"]),
                "hunks": tuple(HunkRecord.from_json(h) for h in data["hunks"]),
                "modules": tuple(ModuleRecord.from_json(m) for m in data["modules"]),
                "minimal_fix": tuple(data["minimal_fix"]),
                "minimal_outcome": Outcome.from_json(data["minimal_outcome"]),
                "rest_reverted": Outcome.from_json(data["rest_reverted"]),
                "search": tuple(SearchStep(**s) for s in data["search"]),
                "poisoned": tuple(PoisonedTurn(**p) for p in data["poisoned"]),
                "kinds": tuple(KindAnatomy.from_json(k) for k in data.get("kinds", ())),
            }
        )


def ranges(numbers: Sequence[int]) -> str:
    """``1,2,3,7`` as ``1-3,7``."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and runs[-1][-1] == number - 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ",".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


@dataclass(frozen=True)
class KindAnatomy:
    """One approval kind's anatomy: the cases it is judged on; where a release cannot make its
    tool, why; the releases as published; the minimal fix ddmin found for it and how; and, per
    revert of the ablation (the function kind's: alone, and widened where that did not run), its
    verdict for this kind, and the newer release with all but this kind's fix reverted."""

    kind: str
    label: str
    cases: tuple[str, ...]
    absent: dict[str, str]  # release: why it cannot make the kind's tool (none: it can)
    old_outcome: Outcome
    new_outcome: Outcome
    minimal_fix: tuple[str, ...]
    minimal_outcome: Outcome
    with_function_fix: Outcome  # the older release with the function kind's minimal fix alone
    one_minimal: bool
    search: tuple[SearchStep, ...]
    reverted: dict[str, str]  # each path hunk reverted alone from the newer release: verdict
    reverted_together: dict[str, str]  # the widened reverts (by the hunk widened): verdict
    modules_reverted: dict[str, str]  # each other module reverted whole: verdict
    modules_reverted_together: dict[str, str]
    rest_reverted: Outcome  # the newer release with every change but this kind's fix reverted

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> KindAnatomy:
        outcomes = ["old_outcome", "new_outcome", "minimal_outcome", "with_function_fix"]
        outcomes.append("rest_reverted")
        return cls(
            **data
            | {name: Outcome.from_json(data[name]) for name in outcomes}
            | {
                "cases": tuple(data["cases"]),
                "minimal_fix": tuple(data["minimal_fix"]),
                "search": tuple(SearchStep(**s) for s in data["search"]),
            }
        )

    @property
    def bug_back(self) -> tuple[str, ...]:
        """The path's hunks whose revert from the newer release (alone, or widened) brings
        this kind's bug back."""
        both = [self.reverted, self.reverted_together]
        return tuple(n for n in self.reverted if any(d.get(n) == BUG for d in both))


def write_anatomy(found: Anatomy, path: Path = paths.DATA_FILES.fix_anatomy) -> None:
    write_json(path, asdict(found))


def load_anatomy(path: Path = paths.DATA_FILES.fix_anatomy) -> Anatomy:
    """The committed anatomy (``make fix-anatomy``)."""
    return read_json(path, Anatomy.from_json)
