"""Severity: per release, how the bug reaches the user, read from the sweep's verdicts.

Two severities separate the affected releases. On some, the user's next turn fails: the
``openai`` client raises the API's 400 (``next_turn_accepted`` is violated, observed over HTTP
where the release ran the responses model). On others the user sees nothing go wrong, and only
the compaction request carries the pending call without its output
(``compaction_input_complete`` is violated). A release where neither happens is unaffected.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from .bisect import judge_rows, spans
from .sweep import ReleaseRecord
from .tables import frame_records, release_order

NEXT_TURN_FAILS = "the next turn fails with HTTP 400"
COMPACTION_ONLY = "only the compaction request carries an open call"
UNAFFECTED = "neither"
SEVERITIES: tuple[str, ...] = (NEXT_TURN_FAILS, COMPACTION_ONLY, UNAFFECTED)


def _severity(accepted: bool | None, complete: bool | None) -> str | None:
    if accepted is False:
        return NEXT_TURN_FAILS
    if complete is False:
        return COMPACTION_ONLY
    if accepted is None and complete is None:
        return None
    return UNAFFECTED


def release_severities(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per release: its severity, and which model observed ``next_turn_accepted``."""
    rows: Sequence[ReleaseRecord] = frame_records(frame)
    accepted = judge_rows(rows, "next_turn_accepted")
    complete = judge_rows(rows, "compaction_input_complete")
    models = (
        frame[frame["invariant"] == "next_turn_accepted"]
        .groupby("sdk_version")["model"]
        .agg(lambda m: ", ".join(sorted(set(m) - {""})))
    )
    table = pd.DataFrame(
        {
            "severity": {v: _severity(accepted.get(v), complete.get(v)) for v in models.index},
            "next_turn_seen_by": models,
        }
    )
    return table.reindex(release_order(frame)).rename_axis("release")


def severity_answer(frame: pd.DataFrame) -> str:
    """Each severity with the ranges of releases it covers, in release order."""
    table = release_severities(frame)
    known = {str(v): s for v, s in table["severity"].items() if isinstance(s, str)}
    parts = []
    for severity in SEVERITIES:
        marks = {v: s == severity for v, s in known.items()}
        ranges = [
            f"{span.first}..{span.last}" if span.first != span.last else span.first
            for span in spans(list(table.index), marks)
            if span.holds
        ]
        count = sum(marks.values())
        if count:
            plural = "release" if count == 1 else "releases"
            parts.append(f"{severity} on {', '.join(ranges)} ({count} {plural})")
    observed = sorted(set(table["next_turn_seen_by"].dropna()) - {""})
    seen = f" (next turn observed with the {' / '.join(observed)} model)" if observed else ""
    return "; ".join(parts) + seen + "."
