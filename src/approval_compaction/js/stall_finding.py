"""Finding: the JS session stops compacting after its first compaction (the stall), as data.

Read from the stall's files: every release's plain conversations (``js-stall-sweep.json``), the
pinned release with the workaround and each patch and the Python SDK's newest release
(``js-stall.json``), and the regression tests around the boundary (``js-stall-sdk-test.json``).
``stall_boundary`` names the first release that stalls and the last one before it that does
not, from the sweep alone; the frames are what the report and notebook 11 show, each computed
here once: the packages side by side turn by turn (``turns_frame``, and ``stall_figure`` drawing
the same numbers), their totals (``summary_frame``), runs of releases that read the same
(``ranges_frame``), the two answer shapes side by side (``shapes_frame``) and the tests.
A conversation's words come from ``findings.liveness`` (``keeps compacting``,
``stops compacting``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from ..errors import InvestigationError
from ..formats.records import read_records
from ..lab import paths
from ..lab.findings.liveness import KEEPS_CELL, STOPS_CELL
from ..wire.rules import KEEPS_USERS, SUMMARY_ONLY
from .files import data_file
from .packages import PACKAGE, pinned
from .stall import ALWAYS_TURNS, DEFAULT_TURNS, StallRecord, StallTestRecord

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# The conversation the report's figure and turn table follow: input mode, run(), the SDK's
# default trigger, the compaction endpoint answering as documented.
HEADLINE = {"mode": "input", "runner": "run", "trigger": "default", "shape": KEEPS_USERS}
WORKAROUND = "workaround"
STALL_PATCH = "agents-openai-0.20.0-stall.diff"
BOTH_PATCH = "agents-openai-0.20.0-both.diff"
PENDING_PATCH = "agents-openai-0.20.0.diff"
VARIANT_WORDS = {
    WORKAROUND: "with js/workaround.mjs",
    STALL_PATCH: "patched (the stall's fix)",
    BOTH_PATCH: "patched (both fixes)",
    PENDING_PATCH: "patched (the pending call's fix only)",
}


class StallDataError(InvestigationError):
    """The stall's files are missing, or say nothing of a release the report needs."""


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


@dataclass(frozen=True)
class StallBoundary:
    """Where the sweep puts the stall: the first release that stalls, the last one before it
    that keeps compacting, every release that stalls, and whether they run on to the newest
    (``contiguous``)."""

    last_good: str
    first_bad: str
    newest: str
    stalling: tuple[str, ...]
    judged: int  # releases with a judged conversation
    contiguous: bool

    @property
    def span(self) -> str:
        """The stalling releases as a range: ``0.19.0..0.20.0`` (or the one release)."""
        if self.first_bad == self.newest:
            return self.first_bad
        return f"{self.first_bad}..{self.newest}"


def stalls(records: Sequence[StallRecord]) -> bool | None:
    """Whether a release stalls: a conversation answered as documented stops compacting
    (None: none was judged)."""
    judged = [r for r in records if r.shape == KEEPS_USERS and r.compaction_runs is not None]
    return any(r.stalls for r in judged) if judged else None


def stall_boundary(sweep: Sequence[StallRecord]) -> StallBoundary:
    """The boundary from the sweep's records alone."""
    by_release: dict[str, list[StallRecord]] = {}
    for record in sweep:
        by_release.setdefault(record.release, []).append(record)
    ordered = sorted(by_release, key=_key)
    verdicts = {v: stalls(by_release[v]) for v in ordered}
    stalling = tuple(v for v in ordered if verdicts[v])
    if not stalling:
        raise StallDataError("no release stalls in the stall's sweep")
    first = stalling[0]
    before = [v for v in ordered[: ordered.index(first)] if verdicts[v] is False]
    if not before:
        raise StallDataError(f"no release before {first} keeps compacting in the sweep")
    tail = tuple(v for v in ordered[ordered.index(first) :] if verdicts[v] is not None)
    return StallBoundary(
        last_good=before[-1],
        first_bad=first,
        newest=ordered[-1],
        stalling=stalling,
        judged=sum(1 for v in ordered if verdicts[v] is not None),
        contiguous=tail == stalling,
    )


@dataclass(frozen=True)
class StallFinding:
    """The stall's files, read: the sweep, the pinned release's variants and the Python row,
    the tests, and the boundary."""

    sweep: tuple[StallRecord, ...]
    variants: tuple[StallRecord, ...]
    tests: tuple[StallTestRecord, ...]
    boundary: StallBoundary

    def conversation(
        self, release: str, variant: str = "", sdk: str = PACKAGE, **plan: str
    ) -> StallRecord:
        """The one conversation of a package and plan (the headline plan by default)."""
        wanted = {**HEADLINE, **plan}
        pool = self.sweep if (variant == "" and sdk == PACKAGE) else self.variants
        for record in pool:
            mine = (record.sdk, record.release, record.variant) == (sdk, release, variant)
            if mine and all(getattr(record, k) == v for k, v in wanted.items()):
                return record
        raise StallDataError(f"no conversation of {sdk} {release} {variant} {wanted}")

    def packages(self) -> dict[str, tuple[str, str]]:
        """The figure's packages by label: the last good release, the first bad one, the
        newest, then the pinned release with the workaround and patched."""
        found = self.boundary
        return {
            f"{found.last_good} (last good)": (found.last_good, ""),
            f"{found.first_bad} (first bad)": (found.first_bad, ""),
            f"{found.newest} (newest)": (found.newest, ""),
            f"{pinned()} {VARIANT_WORDS[WORKAROUND]}": (pinned(), WORKAROUND),
            f"{pinned()} {VARIANT_WORDS[STALL_PATCH]}": (pinned(), STALL_PATCH),
        }

    @property
    def python(self) -> tuple[StallRecord, ...]:
        return tuple(r for r in self.variants if r.sdk != PACKAGE)


def load_stall(folder: Path = paths.DATA) -> StallFinding | None:
    """The stall's finding, when its three files are there."""
    if not all(
        p.is_file()
        for p in (
            data_file("stall_sweep", folder),
            data_file("stall", folder),
            data_file("stall_sdk_test", folder),
        )
    ):
        return None
    sweep = tuple(read_records(data_file("stall_sweep", folder), StallRecord))
    return StallFinding(
        sweep=sweep,
        variants=tuple(read_records(data_file("stall", folder), StallRecord)),
        tests=tuple(read_records(data_file("stall_sdk_test", folder), StallTestRecord)),
        boundary=stall_boundary(sweep),
    )


def turns_frame(finding: StallFinding, **plan: str) -> pd.DataFrame:
    """Stored items after each turn, one column per package of ``packages`` (the headline
    plan by default): the figure's numbers."""
    columns = {
        label: finding.conversation(release, variant, **plan).stored_counts()
        for label, (release, variant) in finding.packages().items()
    }
    frame = pd.DataFrame(columns)
    frame.index = pd.RangeIndex(1, len(frame) + 1, name="turn")
    return frame


def _compactions(record: StallRecord) -> str:
    """A conversation in words: keeps or stops compacting, and where it compacted."""
    if record.error:  # the release is the row's: its name is left out
        return f"not run: {record.error.removeprefix(f'{record.sdk} {record.release} has ')}"
    turns = record.compacted_turns()
    where = (
        f"{record.compactions} of {record.turns} turns"
        if record.trigger == "always"
        else f"at turn{'s' if len(turns) > 1 else ''} {', '.join(map(str, turns)) or 'none'}"
    )
    return f"{STOPS_CELL if record.stalls else KEEPS_CELL} ({where})"


def summary_frame(finding: StallFinding) -> pd.DataFrame:
    """Each package in input mode with run(): compactions with the hook always saying yes
    (``ALWAYS_TURNS`` turns) and with the default trigger (``DEFAULT_TURNS`` turns), what is
    stored and what the model is sent at the last turn; the Python SDK's newest release last."""
    rows = []
    packages = dict(finding.packages())
    packages[f"{pinned()} {VARIANT_WORDS[BOTH_PATCH]}"] = (pinned(), BOTH_PATCH)
    packages[f"{pinned()} {VARIANT_WORDS[PENDING_PATCH]}"] = (pinned(), PENDING_PATCH)
    for label, (release, variant) in packages.items():
        yes = finding.conversation(release, variant, trigger="always")
        default = finding.conversation(release, variant)
        rows.append(_summary_row(label, yes, default))
    python = {(r.mode, r.trigger): r for r in finding.python}
    if ("input", "default") in python and ("input", "always") in python:
        default = python[("input", "default")]
        label = f"{default.sdk} {default.release} (Python)"
        rows.append(_summary_row(label, python[("input", "always")], default))
    return pd.DataFrame(rows).set_index("package")


def _summary_row(label: str, yes: StallRecord, default: StallRecord) -> dict[str, object]:
    return {
        "package": label,
        f"hook always yes, {ALWAYS_TURNS} turns": _compactions(yes),
        f"default trigger, {DEFAULT_TURNS} turns": _compactions(default),
        f"stored after turn {DEFAULT_TURNS}": default.stored_counts()[-1],
        f"sent to the model at turn {DEFAULT_TURNS}": default.input_counts()[-1],
    }


# The sweep's columns: each trigger with each answer shape.
RANGE_COLUMNS: dict[tuple[str, str], str] = {
    ("always", KEEPS_USERS): f"hook always yes, {KEEPS_USERS}",
    ("default", KEEPS_USERS): f"default trigger, {KEEPS_USERS}",
    ("always", SUMMARY_ONLY): f"hook always yes, {SUMMARY_ONLY}",
    ("default", SUMMARY_ONLY): f"default trigger, {SUMMARY_ONLY}",
}


def _cell(records: Sequence[StallRecord]) -> str:
    """Every mode and runner of one trigger and shape on one release, in one cell: their
    words when they agree, else each mode's."""
    if not records:
        return ""
    said = {r.mode: _compactions(r) for r in records}
    if len(set(said.values())) == 1:
        return next(iter(said.values()))
    return "; ".join(f"{mode}: {words}" for mode, words in said.items())


def ranges_frame(sweep: Sequence[StallRecord]) -> pd.DataFrame:
    """One row per run of consecutive releases whose every column reads the same."""
    by_release: dict[str, dict[str, str]] = {}
    for (trigger, shape), label in RANGE_COLUMNS.items():
        for release in {r.release for r in sweep}:
            mine = [
                r for r in sweep if (r.release, r.trigger, r.shape) == (release, trigger, shape)
            ]
            by_release.setdefault(release, {})[label] = _cell(mine)
    spans: list[tuple[list[str], dict[str, str]]] = []
    for version in sorted(by_release, key=_key):
        if spans and spans[-1][1] == by_release[version]:
            spans[-1][0].append(version)
        else:
            spans.append(([version], by_release[version]))
    rows = [
        {
            "releases": vs[0] if len(vs) == 1 else f"{vs[0]}..{vs[-1]}",
            "releases in range": len(vs),
            **cells,
        }
        for vs, cells in spans
    ]
    return pd.DataFrame(rows).set_index("releases")


def shapes_frame(finding: StallFinding, release: str | None = None) -> pd.DataFrame:
    """One release (the newest by default) with each answer shape, turn by turn under the
    default trigger: what is stored, and whether the turn compacted."""
    chosen = release or finding.boundary.newest
    columns: dict[str, list[object]] = {}
    for shape in (KEEPS_USERS, SUMMARY_ONLY):
        record = finding.conversation(chosen, shape=shape)
        compacted = set(record.compacted_turns())
        columns[f"{shape}: stored"] = list(record.stored_counts())
        columns[f"{shape}: compacted"] = [
            "yes" if n in compacted else "" for n in range(1, record.turns + 1)
        ]
    frame = pd.DataFrame(columns)
    frame.index = pd.RangeIndex(1, len(frame) + 1, name="turn")
    return frame


def vitest_frame(finding: StallFinding) -> pd.DataFrame:
    """Each test file's passes and failures on each package."""
    rows = [
        {"package": t.package, "test": t.test, "passed": t.passed, "failed": t.failed}
        for t in finding.tests
    ]
    return pd.DataFrame(rows).set_index("package")


def stall_figure(frame: pd.DataFrame) -> Figure:
    """Stored items per turn, one line per package (``turns_frame``): each drawn thinner than
    the one before, so packages with the same numbers show as one line inside another."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7.5, 3.8), dpi=100)
    axes = figure.subplots()
    count = len(frame.columns)
    for n, column in enumerate(frame.columns):
        width = 1.2 + 1.6 * (count - 1 - n)
        axes.plot(
            frame.index,
            frame[column],
            linewidth=width,
            alpha=0.45 + 0.55 * n / max(count - 1, 1),
            label=column,
        )
    axes.set_xlabel("turn")
    axes.set_ylabel("items stored after the turn")
    axes.set_title(  # r22: the scope the prose gives, in the title too
        f"{PACKAGE}: a plain conversation, the SDK's default trigger, input mode,\n"
        "over HTTP, the compaction endpoint answering as documented",
        fontsize="medium",
    )
    axes.legend(fontsize="small", frameon=False)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    return figure
