"""Finding: what the ADK study says, read from ``data/``: the pinned release's kinds, every
release's, and the liveness situations. Its tables are the JS study's functions with ADK's
words as data (``findings.js``: ranges of releases, liveness by situation), so both drivers
read alike and no table is written twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ...analysis.liveness import LivenessRecord
from ...formats.records import read_records
from ...study.words import ADK_KINDS
from .. import paths
from ..js.sweep import JsRecord
from .js import js_liveness_frame, js_ranges_frame
from .releases import (
    COMPACTION_ONLY,
    NEXT_TURN_FAILS,
    PAUSE_FAILS,
    RESUME_FAILS,
    UNAFFECTED,
)

PACKAGE = "google-adk"
# The kinds as columns: EventsCompactionConfig's sliding window and token threshold.
COLUMNS: dict[str, str] = {
    "window-0": "window, overlap 0",
    "window-1": "window, overlap 1",
    "tokens-0": "tokens, retention 0",
    "tokens-2": "tokens, retention 2",
}
ENTRY = "Runner.run_async raises"  # where an ADK user meets an error
MISSING = "no such trigger in this release"  # a token threshold before it existed
# What the user meets, by where ADK first raises (nothing goes over HTTP: ADK raises itself).
MEETS: dict[str, str] = {
    PAUSE_FAILS: f"{ENTRY} at the pause, nothing to confirm",
    RESUME_FAILS: f"{ENTRY} at the resume",
    NEXT_TURN_FAILS: f"{ENTRY} on the next question",
    COMPACTION_ONLY: "no error (the summariser is given an unpaired item)",
    UNAFFECTED: "no error in these cases",
}


@dataclass(frozen=True)
class AdkFinding:
    """The ADK study's results: every release's kinds (when swept), the pinned release's kinds,
    and the liveness situations on it."""

    sweep: tuple[JsRecord, ...]
    pinned: tuple[JsRecord, ...]
    liveness: tuple[LivenessRecord, ...]

    @property
    def version(self) -> str:
        return self.pinned[0].sdk_version if self.pinned else ""

    @property
    def releases(self) -> list[str]:
        return list(dict.fromkeys(r.sdk_version for r in self.sweep))

    def affected(self) -> list[str]:
        """The swept releases on which some kind breaks an invariant."""
        return list(dict.fromkeys(r.sdk_version for r in self.sweep if r.violating))


def load_adk(folder: Path = paths.DATA) -> AdkFinding | None:
    """The ADK study's finding, when the pinned release's kinds are there."""
    files = paths.data(folder)
    if not files.adk_kinds.is_file():
        return None

    def read(path: Path) -> tuple[JsRecord, ...]:
        return tuple(read_records(path, JsRecord)) if path.is_file() else ()

    live = files.adk_liveness
    return AdkFinding(
        read(files.adk_sweep),
        read(files.adk_kinds),
        tuple(read_records(live, LivenessRecord)) if live.is_file() else (),
    )


def adk_ranges_frame(rows: Sequence[JsRecord]) -> pd.DataFrame:
    """One row per run of releases whose every kind reads the same."""
    return js_ranges_frame(rows, COLUMNS, ENTRY, MISSING, MEETS)


def adk_liveness_frame(rows: Sequence[LivenessRecord]) -> pd.DataFrame:
    """Situation by release: whether compaction keeps running and the history stays bounded
    in every kind, or in which kinds not."""
    return js_liveness_frame(rows, ADK_KINDS)
