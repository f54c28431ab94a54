"""Finding: what the JS sweep says, as tables: each run of releases that read the same, what
the user meets in each compaction mode there, and the error texts with where ``run()`` raises them;
and where the JS workaround (``js/workaround.mjs``) is proven, from its sweep (``JsWorkaround``).

The harness runs one *plan* per compaction mode (``auto-store-false`` is ``auto`` with the agent's
store set false); a published table names each by ``COLUMNS``, the one name both SDKs' pages use
(``auto, store=False``), and a cell uses the Python tables' words (``findings.releases.MEETS``),
so both SDKs read alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..analysis.liveness import LivenessRecord
from ..formats.records import read_records
from ..lab import paths
from ..lab.findings.driven import MODE_NAMES, RAISED, WHERE, DriverFinding, liveness_frame
from ..lab.findings.releases import (
    COMPACTION_ONLY,
    MEETS,
    UNAFFECTED,
)
from ..lab.releases.bisect import marked_ranges
from ..lab.releases.driven import SweepRecord
from ..lab.releases.versions import sort_versions
from ..study.words import AUTO_STORE_FALSE
from .files import data_file
from .sweep import JsExposure

# The sweep's plans as the compaction modes a page names, in the Python table's order.
COLUMNS: dict[str, str] = {
    "input": "input",
    "auto": "auto (default)",
    "auto-store-false": AUTO_STORE_FALSE,
    "previous_response_id": "previous_response_id",
}


@dataclass(frozen=True)
class JsWorkaround:
    """Where the JS workaround is proven: the releases on which its sweep ran and no case of
    any plan broke an invariant (a plan the release cannot express, such as a
    ``compactionMode`` before the option existed, is not run there), and, for each release
    where one did, the plans that broke one (or could not be installed), in release order."""

    proven: tuple[str, ...]
    unproven: tuple[tuple[str, tuple[str, ...]], ...]
    swept: tuple[str, ...]  # every release of its sweep, in release order

    def ranges(self) -> list[str]:
        """The proven releases as ranges of the sweep's order (``0.4.1..0.20.0``)."""
        return marked_ranges(self.swept, {v: v in self.proven for v in self.swept})

    def unproven_ranges(self) -> list[tuple[str, tuple[str, ...]]]:
        """Each run of unproven releases whose plans read the same, with those plans."""
        plans = dict(self.unproven)
        found: list[tuple[str, tuple[str, ...]]] = []
        for key in dict.fromkeys(plans.values()):
            marked = {v: plans.get(v) == key for v in self.swept}
            found += [(where, key) for where in marked_ranges(self.swept, marked)]
        return found


def js_workaround(rows: Sequence[SweepRecord]) -> JsWorkaround:
    """The workaround's sweep (``data/js-workaround-sweep.json``) as where it is proven."""
    swept = sort_versions(r.sdk_version for r in rows)
    failing: dict[str, list[str]] = {}
    ran = {r.sdk_version for r in rows if r.cases and not r.not_applicable}
    for row in rows:
        if row.violating or not row.cases:  # broke an invariant, or could not be installed
            failing.setdefault(row.sdk_version, []).append(row.plan.removesuffix("-workaround"))
    return JsWorkaround(
        proven=tuple(v for v in swept if v in ran and v not in failing),
        unproven=tuple((v, tuple(failing[v])) for v in swept if v in failing),
        swept=tuple(swept),
    )


@dataclass(frozen=True)
class JsFinding(DriverFinding):
    """The JS study's results: every release's plans, the pinned release's plans (the process
    boundary too: ``DriverFinding``), and the pinned release under the SDK's default trigger at
    each position; where the workaround is proven, when its sweep is there."""

    exposure: tuple[JsExposure, ...]
    workaround: JsWorkaround | None = None

    def plan(self, label: str) -> SweepRecord:
        return next(r for r in self.pinned if r.plan == label)

    def exposed(self, label: str) -> list[int]:
        """The pause positions at which the plan's default trigger breaks an invariant."""
        return [e.position for e in self.exposure if e.plan == label and e.violating]


def load_js(folder: Path = paths.DATA) -> JsFinding | None:
    """The JS study's finding, when its three files are there."""
    sweep, modes, exposure = (
        data_file("sweep", folder),
        data_file("modes", folder),
        data_file("exposure", folder),
    )
    if not all(path.exists() for path in (sweep, modes, exposure)):
        return None
    fixed = data_file("workaround_sweep", folder)
    return JsFinding(
        tuple(read_records(sweep, SweepRecord)),
        tuple(read_records(modes, SweepRecord)),
        tuple(read_records(exposure, JsExposure)),
        js_workaround(read_records(fixed, SweepRecord)) if fixed.exists() else None,
    )


# Before 0.4.1 the session has no compactionMode option and compacts by previous_response_id
# only: a previous_response_id plan runs with the option left out (a cell says so after its
# words), and an input plan has no equivalent and is not run.
LEFT_OUT = "no compactionMode option: its only mode"
NOT_RUN = "not run: no compactionMode option"
AS_PREVIOUS = "as previous_response_id (no compactionMode option): "  # `auto` there


def _auto_as_previous(frame: pd.DataFrame, old: pd.Series[bool]) -> None:
    """On the releases ``old`` (no compactionMode option) `auto` sends the id, as
    previous_response_id: its cell says so with what the user meets there, that column's (r22:
    the mechanism alone left the reader to look across), in the README and on 11 alike."""
    same = frame.loc[old, "previous_response_id"].str.replace(f", {LEFT_OUT}", "")
    frame.loc[old, "auto (default)"] = AS_PREVIOUS + same


def cell(record: SweepRecord) -> str:
    """What the user meets in one plan on one release, in the Python tables' words."""

    if record.not_applicable:
        return NOT_RUN
    left_out = f", {LEFT_OUT}" if record.configured else ""  # the release's only mode
    if record.violating == 0:
        return MEETS[UNAFFECTED] + left_out
    severity = RAISED.get(record.raised_at, COMPACTION_ONLY)
    if severity == COMPACTION_ONLY:  # no 400 to count: the Python tables' cell has no count
        return MEETS[COMPACTION_ONLY] + left_out
    words = MEETS[severity].replace("Runner.run raises", "run() throws")  # the JS entry point
    return f"{words} ({record.violating} of {record.cases} cases){left_out}"


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def js_ranges_frame(rows: Sequence[SweepRecord], columns: dict[str, str] = COLUMNS) -> pd.DataFrame:
    """One row per run of consecutive releases whose every plan (of ``columns``) reads the
    same."""
    by_release: dict[str, dict[str, str]] = {}
    for row in rows:
        if row.plan in columns:
            by_release.setdefault(row.sdk_version, {})[row.plan] = cell(row)
    spans: list[tuple[list[str], dict[str, str]]] = []
    for version in sorted(by_release, key=_key):
        cells = by_release[version]
        if spans and spans[-1][1] == cells:
            spans[-1][0].append(version)
        else:
            spans.append(([version], cells))
    table = [
        {
            "releases": vs[0] if len(vs) == 1 else f"{vs[0]}..{vs[-1]}",
            "releases in range": len(vs),
            **{label: cells.get(plan, "") for plan, label in columns.items()},
        }
        for vs, cells in spans
    ]
    return pd.DataFrame(table).set_index("releases")


def as_released_modes(frame: pd.DataFrame) -> pd.DataFrame:
    """A per-range table of the modes (``js_ranges_frame``, ``report.js_workaround_ranges``)
    with the releases that have no compactionMode option said plainly (issue 61, r18: "auto
    (default)" read as a mode those releases have): `input` not run, `auto` runs as
    previous_response_id there (its column names the release it is the default from), the
    `store: false` refusal names its own cause, and no cell repeats "its only mode"."""
    frame = frame.copy()
    old = frame["input"].eq(NOT_RUN)
    if not old.any():
        return frame
    for column in frame.select_dtypes(exclude="number").columns:
        frame.loc[old, column] = frame.loc[old, column].str.replace(f", {LEFT_OUT}", "")
    # r20: "auto does not exist" beside a `store: false` result of its own read as a
    # contradiction: each cell of those releases says the one thing they do, the id sent
    frame.loc[old, "input"] = "not run (no compactionMode option)"
    _auto_as_previous(frame, old)
    store = frame.loc[old, "auto, store=False"]  # no response was stored for its id to name
    named = store.str.replace(r"^(400 at the \w+)", r"\1 (response id not found)", regex=True)
    frame.loc[old, "auto, store=False"] = "no compactionMode option, store: false: " + named
    first = str(frame.index[~old][0]).split("..")[0] if (~old).any() else ""
    return frame.rename(columns={"auto (default)": f"auto (default from {first})"})


# The plans that match the Python table's columns: ``auto`` with the agent's store unset, as
# the Python sweep runs it.
PYTHON_COLUMNS: dict[str, str] = {
    "input": "input",
    "auto": "auto (default)",
    "previous_response_id": "previous_response_id",
}
PYTHON_SDK, JS_SDK = "openai-agents", "@openai/agents"


def both_releases(python: pd.DataFrame, rows: Sequence[SweepRecord]) -> pd.DataFrame:
    """The Python table of release ranges with the JS ranges below it, each range named with
    its package."""
    js = js_ranges_frame(rows, PYTHON_COLUMNS)
    _auto_as_previous(js, js["input"].eq(NOT_RUN))  # r20: no `auto` there
    named = [python.rename(index=lambda r: f"{PYTHON_SDK} {r}")]
    named.append(js.rename(index=lambda r: f"{JS_SDK} {r}"))
    return pd.concat(named).rename_axis("releases")


def both_errors(python: pd.DataFrame, rows: Sequence[SweepRecord]) -> pd.DataFrame:
    """The Python error texts with the JS ones below, each with where its SDK raises it."""
    js = js_errors_frame(rows).set_index("error text")
    js["releases"] = JS_SDK + " " + js["releases"]
    py = python.assign(releases=PYTHON_SDK + " " + python["releases"])
    py["raised at"] = "Runner.run at the " + py["raised at"]
    return pd.concat([py, js[py.columns]])


def js_errors_frame(rows: Sequence[SweepRecord]) -> pd.DataFrame:
    """Each refusal the user meets: its text (the call id is the user's own), where ``run()``
    raises it, in which compaction modes and releases."""
    seen: dict[tuple[str, str, str], tuple[set[str], list[str]]] = {}
    for row in rows:
        if not row.raised_at or row.not_applicable:
            continue
        text = row.api_message  # each conversation's ids are numbered from 1: the same in all
        plans, versions = seen.setdefault((text, row.endpoint, row.raised_at), (set(), []))
        plans.add(row.plan)
        versions.append(row.sdk_version)
    table = [
        {
            "error text": text,
            "HTTP": 400,
            "endpoint": endpoint,
            "raised at": WHERE[at],
            "modes": ", ".join(MODE_NAMES.get(p, p) for p in COLUMNS if p in plans),
            "releases": _span(versions),
        }
        for (text, endpoint, at), (plans, versions) in seen.items()
    ]
    return pd.DataFrame(table)


def _span(versions: list[str]) -> str:
    ordered = sorted(set(versions), key=_key)
    return ordered[0] if len(ordered) == 1 else f"{ordered[0]}..{ordered[-1]}"


# The JS liveness file's packages, as columns: the pinned release, with the workaround, patched.
LIVENESS_MODES_JS: tuple[str, ...] = tuple(COLUMNS)


def load_js_liveness(folder: Path = paths.DATA) -> list[LivenessRecord]:
    """The JS liveness records (``js-liveness``), or none when the file is not there."""
    path = data_file("liveness", folder)
    return read_records(path, LivenessRecord) if path.is_file() else []


def _package(record: LivenessRecord) -> str:
    """The column a JS record's package is shown in: the release, with the workaround, or a
    patch by what it fixes, as the stall's tables name it."""
    from .stall_finding import VARIANT_WORDS

    if record.workaround:
        return "with js/workaround.mjs"
    release, plus, patch = record.sdk_version.partition("+")
    return VARIANT_WORDS.get(patch, "patched") if plus else release


def js_liveness_frame(
    rows: Sequence[LivenessRecord], plans: Sequence[str] = LIVENESS_MODES_JS
) -> pd.DataFrame:
    """The JS liveness table (``driven.liveness_frame``), its packages named by ``_package``."""
    return liveness_frame(rows, plans, _package)


def mode_name(mode: str, response_store: bool | None) -> str:
    """A plan's compaction mode as the Python tables name it (``auto, store=False``)."""
    return AUTO_STORE_FALSE if (mode, response_store) == ("auto", False) else mode


def js_modes_frame(pinned: Sequence[SweepRecord]) -> pd.DataFrame:
    """The pinned release's sixteen cases per compaction mode and session (a second Node
    process reading the session back too): how many break an invariant, and where the user
    met the API's refusal."""
    rows = [
        {
            "mode": mode_name(r.mode, r.response_store),
            "session": "a second process" if r.session == "process" else r.session,
            "cases": r.cases,
            "violating": r.violating,
            "raised at": WHERE.get(r.raised_at, r.raised_at or "never"),
            "endpoint": r.endpoint,
            "API message": r.api_message,
        }
        for r in pinned
    ]
    return pd.DataFrame(rows)


def js_exposure_frame(exposure: Sequence[JsExposure]) -> pd.DataFrame:
    """Per compaction mode under the SDK's default trigger: the pause positions tried, those
    where compaction ran at the pause, and those whose conversation broke an invariant."""
    rows: dict[str, dict[str, Any]] = {}
    for e in exposure:
        row = rows.setdefault(
            mode_name(e.mode, e.response_store), {"positions": 0, "compacted": [], "broken": []}
        )
        row["positions"] += 1
        row["compacted"] += [e.position] if e.compacted_at_pause else []
        row["broken"] += [e.position] if e.violating else []

    def named(positions: list[int], tried: int) -> str:
        listed = ", ".join(map(str, positions)) or "none"
        return f"{listed} ({len(positions)} of {tried})"

    return pd.DataFrame(
        {
            "positions tried": {m: f"0..{r['positions'] - 1}" for m, r in rows.items()},
            "positions compacted at the pause": {
                m: named(r["compacted"], r["positions"]) for m, r in rows.items()
            },
            "positions breaking an invariant": {
                m: named(r["broken"], r["positions"]) for m, r in rows.items()
            },
        }
    ).rename_axis("mode")
