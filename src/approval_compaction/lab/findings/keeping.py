"""Keeping: what the workaround changes on the fixing release, over the later turns.

The fixing release keeps the pending call on its own; whether a team keeps the workaround after
upgrading rests on what it still changes there. ``liveness`` (``data/liveness.json``) continued
each situation ten turns on the newest release as it is and with the workaround, over HTTP to
the stand-in; ``keeping_frame`` keeps the situations and modes where the two differ: how many
later turns compacted, and what the store holds unpaired after the last.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...analysis.liveness import LivenessRun
from .liveness import SITUATION_WORDS

if TYPE_CHECKING:  # pandas only for the frame
    import pandas as pd

AS_RELEASED, WRAPPED = "as released", "with the workaround"


def _unpaired(run: LivenessRun) -> str:
    last = run.turns[-1] if run.turns else None
    return ", ".join(f"{p.problem} {p.key}" for p in last.unpaired) if last else ""


def keeping_frame(runs: Sequence[LivenessRun], release: str) -> pd.DataFrame:
    """Per situation and mode where the workaround changes the later turns on ``release``: the
    turns that compacted, of how many, and the unpaired items stored after the last turn."""
    import pandas as pd

    rows: dict[tuple[str, str], dict[str, str]] = {}
    for run in runs:
        if run.sdk_version != release or run.error or not run.turns:
            continue
        variant = WRAPPED if run.workaround else AS_RELEASED
        compacted = sum(t.compacted for t in run.turns)
        row = rows.setdefault((run.scenario, run.mode), {})
        row[f"compacted, {variant}"] = f"{compacted} of {len(run.turns)} turns"
        row[f"left unpaired, {variant}"] = _unpaired(run) or "nothing"
    changed = {
        key: row
        for key, row in rows.items()
        if len(row) == 4
        and any(
            row[f"{c}, {AS_RELEASED}"] != row[f"{c}, {WRAPPED}"]
            for c in ("compacted", "left unpaired")
        )
    }
    order = [f"{c}, {v}" for c in ("compacted", "left unpaired") for v in (AS_RELEASED, WRAPPED)]
    index = pd.MultiIndex.from_tuples(
        [(SITUATION_WORDS.get(s, s), m) for s, m in changed] or [("", "")],
        names=["situation", "mode"],
    )[: len(changed)]
    return pd.DataFrame(list(changed.values()), index=index, columns=order)


def keeping_turns(runs: Sequence[LivenessRun], release: str) -> pd.DataFrame:
    """06's table: per situation (its words; r24: the README's names in brackets brought in a
    glossary term whose other names 06 never uses) and mode, the
    turns that compacted, ``as released → with the workaround`` (``10 of 10 → 10 of 10``), the
    situations ``keeping_frame`` keeps, the modes in the runs' order as columns, the rows in the
    README's order (``SITUATION_WORDS``; r22: unstack's alphabetical order matched neither)."""
    kept = keeping_frame(runs, release)
    turns = kept[f"compacted, {AS_RELEASED}"].str.removesuffix(" turns")
    turns += " → " + kept[f"compacted, {WRAPPED}"].str.removesuffix(" turns")
    modes = list(dict.fromkeys(kept.index.get_level_values("mode")))
    table = turns.unstack("mode")[modes]
    table = table.reindex([w for w in SITUATION_WORDS.values() if w in table.index])
    return table.rename_axis("after the pause")
