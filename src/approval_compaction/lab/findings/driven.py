"""Driven: the findings every driver's sweep shares, whatever its SDK: the finding's common
part (``DriverFinding``: every release's records and the pinned release's, read from files that
may not be there yet, ``stored``), where the user's code raised, by the stage a record names
(``RAISED``, ``WHERE``), where a setting's result moves between two releases and the change
named for it (``Change``, ``Moved``, ``moved``, ``changes_frame``), and the liveness table of a
driver's situations by package and setting (``liveness_frame``). An SDK's folder passes its
own words; nothing here names an SDK.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pandas as pd

from ...analysis.liveness import LivenessRecord
from ...formats.records import read_records
from ...study.words import AUTO_STORE_FALSE
from ..releases.driven import SweepRecord
from .liveness import KEEPS, LIVENESS_CELLS, SITUATION_WORDS
from .releases import NEXT_TURN_FAILS, PAUSE_FAILS, RESUME_FAILS

R = TypeVar("R")


def stored(path: Path, schema: type[R]) -> tuple[R, ...]:
    """The records of ``path``, or none when the file is not there (a study not yet run)."""
    return tuple(read_records(path, schema)) if path.is_file() else ()


@dataclass(frozen=True)
class DriverFinding:
    """What every driver's finding holds first: every release's records (when swept) and the
    pinned release's; an SDK's finding adds its own after these."""

    sweep: tuple[SweepRecord, ...]
    pinned: tuple[SweepRecord, ...]

    @property
    def version(self) -> str:
        """The pinned release ("" when its records are not there)."""
        return self.pinned[0].sdk_version if self.pinned else ""

    @property
    def releases(self) -> list[str]:
        """The swept releases, in the sweep's order."""
        return list(dict.fromkeys(r.sdk_version for r in self.sweep))

    def affected(self) -> list[str]:
        """The swept releases on which some setting breaks an invariant."""
        return list(dict.fromkeys(r.sdk_version for r in self.sweep if r.violating))


@dataclass(frozen=True)
class Change:
    """The first release with a change, what changed, and the public record of it."""

    release: str
    what: str
    source: str

    @property
    def said(self) -> tuple[str, str]:
        """What changed and its public record ("" each when no change is named)."""
        return self.what, self.source


@dataclass(frozen=True)
class Moved:
    """Where one setting's result changes between two consecutive releases of a sweep: what it
    read before and after, and the change named for the later release (what and source empty
    when none is). An SDK's folder writes it as its own record (its column names)."""

    release: str
    previous: str
    setting: str
    before: str
    after: str
    change: Change


def moved(
    results: Mapping[str, Mapping[str, str]], settings: Sequence[str], changes: Sequence[Change]
) -> list[Moved]:
    """Each setting whose result (``results``: each release's, releases in order, each
    setting's in words) differs from the release before, in release order, with the change
    named for that release."""
    named = {c.release: c for c in changes}
    found = []
    versions = list(results)
    for previous, release in zip(versions, versions[1:], strict=False):
        for setting in settings:
            old, new = results[previous].get(setting), results[release].get(setting)
            if old is None or new is None or old == new:
                continue
            change = named.get(release, Change(release, "", ""))
            found.append(Moved(release, previous, setting, old, new, change))
    return found


def changes_frame(found: Sequence[Moved], settings: str, package: str) -> pd.DataFrame:
    """One row per release (named ``package``) where a setting's result changes: the settings
    (the column ``settings``), what the sweep saw after, the change that moved it and its
    public record."""
    by: dict[str, list[Moved]] = {}
    for m in found:
        by.setdefault(m.release, []).append(m)
    table = {
        release: {
            settings: ", ".join(m.setting for m in here),
            "the sweep after": "; ".join(dict.fromkeys(m.after for m in here)),
            "what changed": here[0].change.what,
            "public record": here[0].change.source,
        }
        for release, here in by.items()
    }
    return pd.DataFrame.from_dict(table, orient="index").rename_axis(package)


RAISED = {"pause": PAUSE_FAILS, "resume": RESUME_FAILS, "next_turn": NEXT_TURN_FAILS}
WHERE = {
    "pause": "run() at the pause",
    "resume": "run() at the resume",
    "next_turn": "run() on the next question",
}

# A plan's mode in a cell, by the name the Python tables use.
MODE_NAMES = {"auto-store-false": AUTO_STORE_FALSE}


def release_or_patched(record: LivenessRecord) -> str:
    """The column a record's package is shown in: its release, or ``patched``."""
    return "patched" if "+" in record.sdk_version else record.sdk_version


def liveness_frame(
    rows: Sequence[LivenessRecord],
    plans: Sequence[str],
    package: Callable[[LivenessRecord], str] = release_or_patched,
) -> pd.DataFrame:
    """Situation by package (the pinned release, with the workaround, patched): whether the
    session keeps compacting over the later turns in every plan, or in which plans a later turn
    is refused or compaction stops (the Python liveness table's words)."""
    from .liveness import cell_key, release_state

    grouped: dict[tuple[str, str, str], list[LivenessRecord]] = {}
    for row in rows:
        grouped.setdefault((row.scenario, package(row), row.mode), []).append(row)
    situations = list(dict.fromkeys(r.scenario for r in rows))
    packages = list(dict.fromkeys(package(r) for r in rows))
    table: dict[str, dict[str, str]] = {}
    for column in packages:
        for situation in situations:
            modes: dict[str, list[str]] = {}
            for mode in plans:
                state = release_state(grouped.get((situation, column, mode), []))
                modes.setdefault(cell_key(state), []).append(mode)
            shown = [v for v in LIVENESS_CELLS if v in modes]
            if len(shown) == 1 and len(modes) == 1:
                cell_text = LIVENESS_CELLS[shown[0]]
            else:
                cell_text = "; ".join(
                    f"{LIVENESS_CELLS.get(v, v)} in {', '.join(MODE_NAMES.get(m, m) for m in ms)}"
                    for v, ms in modes.items()
                    if v != KEEPS
                )
            table.setdefault(column, {})[situation] = cell_text
    frame = pd.DataFrame(table).reindex(situations)
    frame.insert(0, "what happened", [SITUATION_WORDS.get(s, s) for s in frame.index])
    return frame.rename_axis("situation")
