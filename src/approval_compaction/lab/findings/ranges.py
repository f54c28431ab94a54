"""Ranges: consecutive releases alike in every column a page shows, as one row.

A sweep's eras split releases by everything their records hold; a page shows some of it. Two
eras alike in every column shown read as one range a reader cannot tell apart (r24: 05 showed
0.22.1..0.22.3 and 0.23.1 as two rows, equal in every cell, split by what the page left out).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..releases.bisect import release_range


def join_alike(frame: pd.DataFrame, shown: Sequence[str], count: str = "count") -> pd.DataFrame:
    """``frame``'s rows (indexed by release ranges, ``first..last`` or one release, in order)
    with each run of consecutive rows alike in every ``shown`` column joined into one: its
    range from the first's first release to the last's last, its ``count`` summed."""
    spans: list[str] = []
    rows: list[pd.Series] = []
    for span, row in frame.iterrows():
        if rows and rows[-1][list(shown)].equals(row[list(shown)]):
            spans[-1] = release_range(spans[-1].partition("..")[0], str(span).rpartition("..")[2])
            rows[-1] = rows[-1].copy()
            rows[-1][count] = rows[-1][count] + row[count]
        else:
            spans.append(str(span))
            rows.append(row)
    joined = pd.DataFrame(rows, index=pd.Index(spans, name=frame.index.name))
    return joined.astype(frame.dtypes.to_dict())
