"""Tables: the sweep's records as frames for a figure and a drill-down.

The cases of one release are aggregated per invariant the way ``bisect`` judges a release:
``VIOLATED`` if any case violates it, ``holds`` if every judged case keeps it, ``n/a`` if no
case could be judged (``unavailable`` when the release could not be installed or imported).
``findings.releases`` computes the boundaries, severities and eras from the same judgements.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ...analysis import vocabulary
from ...analysis.invariants import INVARIANTS
from ...analysis.table import from_frame, pivot, to_frame
from ...display.views import MODEL_WORDS
from ...study.words import STUDY_MODE
from .bisect import judge_rows
from .heatmap import MatrixScope
from .sweep import UNAVAILABLE, ReleaseRecord, load_results
from .versions import sort_versions


def sweep_frame(path: Path | str) -> pd.DataFrame:
    """The sweep's records as a DataFrame with the schema's columns in order."""
    return to_frame(load_results(Path(path)), ReleaseRecord)


def release_order(frame: pd.DataFrame) -> list[str]:
    return sort_versions(frame["sdk_version"])


def sweep_scope(frame: pd.DataFrame) -> MatrixScope:
    """What the sweep's cases ran under: its releases, the study's mode, and each model with
    the invariants it judged (the acceptance invariants over HTTP where a release can)."""
    order = release_order(frame)
    judged = frame.groupby("model")["invariant"].unique()
    main = max(judged.index, key=lambda m: (len(judged[m]), str(m)))  # the one judging most
    models = [MODEL_WORDS.get(str(main), str(main))] + [
        f"{', '.join(sorted(judged[m]))} on the {MODEL_WORDS.get(str(m), str(m))}"
        for m in sorted(judged.index)
        if m != main
    ]
    releases = f"{order[0]}..{order[-1]}" if len(order) > 1 else order[0]
    return MatrixScope(f"openai-agents {releases}", STUDY_MODE, "; ".join(models))


def release_grid(frame: pd.DataFrame) -> pd.DataFrame:
    """Invariants by releases, a word in each cell: VIOLATED, holds, n/a or unavailable."""
    rows = from_frame(frame, ReleaseRecord)
    down = set(frame.loc[frame["status"].eq(UNAVAILABLE), "sdk_version"])
    grid = {
        name: {
            v: UNAVAILABLE if v in down else vocabulary.word(j)
            for v, j in judge_rows(rows, name).items()
        }
        for name in INVARIANTS
    }
    table = pd.DataFrame(grid).T
    return table.reindex(index=list(INVARIANTS), columns=release_order(frame)).rename_axis(
        index="invariant", columns="release"
    )


def release_violations(frame: pd.DataFrame) -> pd.DataFrame:
    """Invariants by releases: how many of the cases violate the invariant."""
    broken = frame.assign(violated=frame["holds"].eq(False))
    table = broken.pivot_table(
        index="invariant", columns="sdk_version", values="violated", aggfunc="sum"
    )
    return table.reindex(index=list(INVARIANTS), columns=release_order(frame)).astype(int)


def release_table(frame: pd.DataFrame, release: str) -> pd.DataFrame:
    """One release's cases by invariants, in words, as ``matrix`` shows the pinned release."""
    return pivot(frame[frame["sdk_version"] == release].reset_index(drop=True))
