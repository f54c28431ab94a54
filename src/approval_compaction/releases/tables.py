"""Releases: the sweep's records as frames and a figure, and each invariant's boundaries.

The cases of one release are aggregated per invariant the way ``bisect`` judges a release:
``VIOLATED`` if any case violates it, ``holds`` if every judged case keeps it, ``n/a`` if no
case could be judged (``unavailable`` when the release could not be installed or imported).
The boundaries are computed from the same judgements, so the notebook and ``bisect`` agree.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..analysis import vocabulary
from ..analysis.invariants import INVARIANTS
from ..analysis.table import pivot, to_frame
from ..study.capture import sdk_version
from .bisect import bisect, broken_spans, judge_rows, spans
from .sweep import UNAVAILABLE, ReleaseRecord, load_results
from .versions import sort_versions

NOT_RUN = "not run"
BOUNDARY_COLUMNS = ("last_holding", "first_broken", "last_broken", "holds_again", "spans")


def sweep_frame(path: Path | str) -> pd.DataFrame:
    """The sweep's records as a DataFrame with the schema's columns in order."""
    return to_frame(load_results(Path(path)), ReleaseRecord)


def frame_records(frame: pd.DataFrame) -> list[ReleaseRecord]:
    """A frame of sweep records back as typed records (a missing verdict is ``None``)."""
    plain = frame.astype(object).where(frame.notna(), None)
    return [
        ReleaseRecord(**{str(k): v for k, v in row.items()}) for row in plain.to_dict("records")
    ]


def release_order(frame: pd.DataFrame) -> list[str]:
    return sort_versions(frame["sdk_version"])


def release_grid(frame: pd.DataFrame) -> pd.DataFrame:
    """Invariants by releases, a word in each cell: VIOLATED, holds, n/a or unavailable."""
    rows = frame_records(frame)
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


def release_boundaries(frame: pd.DataFrame) -> pd.DataFrame:
    """Per invariant: where it breaks, where it holds again, and the dependencies at each."""
    order, rows = release_order(frame), frame_records(frame)
    deps = frame.drop_duplicates("sdk_version").set_index("sdk_version")[["openai", "pydantic"]]
    out = []
    for name in INVARIANTS:
        judged = judge_rows(rows, name)
        broken = broken_spans(order, judged)
        row: dict[str, object] = {"invariant": name, "broken_ranges": len(broken)}
        row.update(dict.fromkeys(BOUNDARY_COLUMNS, ""), broken_releases=0)
        if len(broken) == 1:
            span = broken[0]
            after = [v for v in order[order.index(span.last) + 1 :] if judged.get(v) is not None]
            before = [v for v in order[: order.index(span.first)] if judged.get(v) is not None]
            row.update(
                last_holding=before[-1] if before else "",
                first_broken=span.first,
                last_broken=span.last,
                holds_again=after[0] if after else "",
                broken_releases=span.releases,
            )
        elif broken:
            row.update(spans="; ".join(str(s) for s in spans(order, judged)))
        out.append(row)
    table = pd.DataFrame(out).set_index("invariant")
    for edge in ("first_broken", "holds_again"):
        table[f"{edge}_deps"] = table[edge].map(lambda v: _deps(deps, v))
    return table


def _deps(deps: pd.DataFrame, version: object) -> str:
    if not version or version not in deps.index:
        return ""
    openai, pydantic = (str(deps.at[version, name]) for name in ("openai", "pydantic"))
    return f"openai {openai}, pydantic {pydantic}"


def release_answer(frame: pd.DataFrame) -> str:
    """The notebook's one-line answer, stated from the boundaries."""
    table, order = release_boundaries(frame), release_order(frame)
    parts = []
    for name, row in table.astype(str).iterrows():
        if row["broken_ranges"] == "0":
            continue
        if row["broken_ranges"] != "1":
            parts.append(f"{name} breaks in {row['broken_ranges']} separate ranges")
            continue
        again = f"holds again in {row['holds_again']}" if row["holds_again"] else "still broken"
        parts.append(f"{name} is broken {row['first_broken']}..{row['last_broken']} ({again})")
    span = f"{len(order)} releases, {order[0]}..{order[-1]}"
    return f"Of {span}: " + ("; ".join(parts) if parts else "every invariant holds") + "."


def release_coverage(frame: pd.DataFrame) -> pd.DataFrame:
    """Per release: its resolved dependencies and how its case-invariant records came out."""
    counts = frame.pivot_table(
        index="sdk_version", columns="status", values="invariant", aggfunc="count", fill_value=0
    )
    deps = frame.drop_duplicates("sdk_version").set_index("sdk_version")[["openai", "pydantic"]]
    table = deps.join(counts).reindex(release_order(frame))
    return table.rename_axis("release")


def release_table(frame: pd.DataFrame, release: str) -> pd.DataFrame:
    """One release's cases by invariants, in words, as ``matrix`` shows the pinned release."""
    return pivot(frame[frame["sdk_version"] == release].reset_index(drop=True))


def release_bisections(frame: pd.DataFrame, start: str | None = None) -> pd.DataFrame:
    """``bisect`` on the sweep's results for each invariant: its boundaries and its probes.

    As on the command line, the search starts from ``start`` (the pinned release by default).
    """
    order, rows, table = release_order(frame), frame_records(frame), []
    start = start or sdk_version()
    for name in INVARIANTS:
        judged = judge_rows(rows, name)
        found = bisect(order, name, _no_runs, sweep=judged, start=start)
        table.append(
            {
                "invariant": name,
                "first_broken": found.first_broken or "" if found.contiguous else "not contiguous",
                "holds_again": found.holds_again or "",
                "probes": len(found.probes),
                "probed": ", ".join(p.version for p in found.probes),
            }
        )
    found_table = pd.DataFrame(table).set_index("invariant")
    sweep_table = release_boundaries(frame)
    same = [
        found_table[edge].eq(sweep_table[edge]) | ~sweep_table["broken_ranges"].eq(1)
        for edge in ("first_broken", "holds_again")
    ]
    return found_table.assign(agrees_with_sweep=same[0] & same[1])


def _no_runs(version: str) -> bool | None:
    raise LookupError(f"{version} is not in the sweep's results")


def release_changes(frame: pd.DataFrame, before: str, after: str) -> pd.DataFrame:
    """The cases and invariants whose verdict differs between two releases.

    A case or invariant that only one of the two releases has reads ``not run`` on the other.
    """
    left, right = release_table(frame, before), release_table(frame, after)
    a, b = left.astype(str).to_dict("index"), right.astype(str).to_dict("index")
    cases = list(dict.fromkeys([*a, *b]))
    names = list(dict.fromkeys([*left.columns, *right.columns]))
    rows = []
    for case in cases:
        for name in names:
            old = a.get(case, {}).get(name, NOT_RUN)
            new = b.get(case, {}).get(name, NOT_RUN)
            if old != new:
                rows.append({"case": case, "invariant": name, before: old, after: new})
    return pd.DataFrame(rows, columns=["case", "invariant", before, after])
