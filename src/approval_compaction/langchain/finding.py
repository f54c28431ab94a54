"""Finding: what the LangChain study says, read from ``data/``: the pinned release's settings,
every release's, and the liveness situations. Its tables are the shared ones (``lab.findings``:
the one verdict record, the verdict frame, the liveness frame) with LangChain's words as data,
so every driver reads alike and no table is written twice here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd

from ..analysis.liveness import LivenessRecord
from ..lab import paths
from ..lab.findings.driven import RAISED, Change, DriverFinding, Moved, moved, stored
from ..lab.findings.driven import changes_frame as driven_changes_frame
from ..lab.findings.driven import liveness_frame as driven_liveness_frame
from ..lab.findings.liveness import STUCK
from ..lab.findings.releases import (
    COMPACTION_ONLY,
    NEXT_TURN_FAILS,
    PAUSE_FAILS,
    RESUME_FAILS,
    UNAFFECTED,
)
from ..lab.findings.verdict import GROWS, DriverWords, ModeCases, ReleaseVerdict, driver_verdicts
from ..lab.releases.driven import SweepRecord
from .changes import CHANGES
from .files import Name, data_file
from .sweep import CONTROLS, SETTINGS, SITUATIONS

PACKAGE = "langchain"
# The settings as columns: the compaction step, by the API ChatOpenAI speaks.
COLUMNS: dict[str, str] = {
    "keep-1 chat": "summarise, keep 1 (Chat Completions)",
    "keep-2 chat": "summarise, keep 2 (Chat Completions)",
    "trim chat": "docs' trim step (Chat Completions)",
    "keep-1 responses": "summarise, keep 1 (Responses)",
    "keep-2 responses": "summarise, keep 2 (Responses)",
    "trim responses": "docs' trim step (Responses)",
}
# The README's one column: every setting's cases, the words shown once where they agree.
CASES: dict[str, str] = dict.fromkeys(SETTINGS, "the 16 cases")
ENTRY = "agent.invoke raises"  # where a LangChain user meets the API's refusal
MEETS: dict[str, str] = {
    PAUSE_FAILS: f"{ENTRY} at the pause, nothing to decide",
    RESUME_FAILS: f"{ENTRY} at the resume",
    NEXT_TURN_FAILS: f"{ENTRY} on the next question",
    COMPACTION_ONLY: "no error (the compaction step is given an unpaired item)",
    UNAFFECTED: "no error in these cases",
}
# The docs' trim step keeps the first message and the last three or four, by the count's
# parity: the history swings between two lengths in every session, the control too.
TRIM_SOURCE = (
    "LangChain's short-term memory page, its `trim_messages` step: "
    '"recent_messages = messages[-3:] if len(messages) % 2 == 0 else messages[-4:]"'
)
WORDS = DriverWords(PACKAGE, SETTINGS, RAISED, GROWS, TRIM_SOURCE)


def setting_word(cases: ModeCases) -> str:
    """One setting's cases on a release, in the table's words."""
    if cases.severity in MEETS:
        said = MEETS[cases.severity]
        return f"{said} ({cases.raising} of {cases.cases} cases)" if cases.raising else said
    return cases.severity


@dataclass(frozen=True)
class LangchainFinding(DriverFinding):
    """The LangChain study's results: every release's settings (when swept), the pinned
    release's (``DriverFinding``), the liveness situations on it and on every release, and the
    verdicts."""

    liveness: tuple[LivenessRecord, ...]
    sweep_liveness: tuple[LivenessRecord, ...] = ()
    verdicts: tuple[ReleaseVerdict, ...] = ()
    patched: tuple[LivenessRecord, ...] = ()  # the situations on the patched package


def load(folder: Path = paths.DATA) -> LangchainFinding | None:
    """The LangChain study's finding, when the pinned release's settings are there."""
    if not data_file("settings", folder).is_file():
        return None

    def read(name: Name) -> tuple[SweepRecord, ...]:
        return stored(data_file(name, folder), SweepRecord)

    def live(name: Name) -> tuple[LivenessRecord, ...]:
        return stored(data_file(name, folder), LivenessRecord)

    sweep, sweep_live = read("sweep"), live("sweep_liveness")
    verdicts = driver_verdicts(sweep, sweep_live, WORDS)
    return LangchainFinding(
        sweep, read("settings"), live("liveness"), sweep_live, verdicts, live("patched")
    )


def verdict_frame(
    verdicts: Sequence[ReleaseVerdict], columns: dict[str, str] = COLUMNS, contract: bool = True
) -> pd.DataFrame:
    """The verdict per run of releases, each setting's cases in LangChain's words as columns
    (settings sharing a label share a column), the liveness situations by setting."""
    from ..lab.findings.tables import verdict_frame as shared

    return shared(verdicts, columns, setting_word, contract, SITUATIONS)


def control_bugs(found: LangchainFinding) -> str:
    """The liveness bugs with no compaction step (the ``none`` control, which runs on the pinned
    release only, not in the sweep), in the verdict table's words: what a decision that never
    comes leaves without any step. Stopped compaction is left out: with no step nothing ever
    compacts, in the control situation too."""
    controls = tuple(plan.label for plan in CONTROLS)
    words = replace(WORDS, settings=controls)
    verdicts = tuple(
        replace(v, liveness=tuple(x for x in v.liveness if x.state != STUCK))
        for v in driver_verdicts(found.pinned, found.liveness, words)
    )
    frame = verdict_frame(verdicts, dict.fromkeys(controls, "none"), contract=False)
    said: str = frame["liveness bugs"].iloc[0] if len(frame) else "not run"
    return said.replace("all modes", ", ".join(controls))


def with_control(frame: pd.DataFrame, found: LangchainFinding) -> pd.DataFrame:
    """The verdict table (``verdict_frame``) with what no compaction step leaves beside what
    the steps leave: the sweep's column named for the steps, the control's added, on the run of
    releases that ends at the pinned release (the only one the control runs on)."""
    frame = frame.copy()
    # r18: "every setting" in the steps' column read as if it took in ``none`` too
    steps = frame.pop("liveness bugs").str.replace("all modes", "every setting with a step")
    frame["liveness bugs, with a compaction step"] = steps
    column = f"liveness bugs, no step (none, run on {found.version} only)"
    said = f"on {found.version}: {control_bugs(found)}"  # r18: the row spans more releases
    frame[column] = [
        said if s.rpartition("..")[2] == found.version else "not run" for s in frame.index
    ]
    return frame


def liveness_frame(rows: Sequence[LivenessRecord]) -> pd.DataFrame:
    """Situation by release: whether compaction keeps running and the history stays bounded
    in every setting, or in which not."""
    return driven_liveness_frame(rows, SETTINGS)


@dataclass(frozen=True)
class Boundary:
    """Where one setting's result changes between two consecutive releases of the sweep: what
    it read before and after, and the change that moved it (``changes``)."""

    release: str
    previous: str
    setting: str
    before: str
    after: str
    what: str
    source: str


def result(row: SweepRecord) -> str:
    """One setting's result on one release: why it did not run, or the cases that break an
    invariant, which invariants, and where the user's code raised."""
    if row.not_applicable:
        return f"not run: {row.not_applicable}"
    if not row.violating:
        return "no case breaks an invariant"
    raised = f", raised at {row.raised_at}" if row.raised_at else ""
    return f"{row.violating} of {row.cases} break {row.invariants}{raised}"


def live_result(rows: Sequence[LivenessRecord]) -> str:
    """One setting's situations on one release, in words: those that fail an invariant or
    raise, or none."""
    failing = sorted(
        {f"{r.scenario}: {r.invariant}" for r in rows if r.holds is False}
        | {f"{r.scenario}: raises" for r in rows if r.session_usable is False}
    )
    return "; ".join(failing) or "every situation keeps its invariants"


def _moved(
    rows: Sequence[SweepRecord], live: Sequence[LivenessRecord], changes: Sequence[Change]
) -> list[Moved]:
    """Each setting whose cases or situations read differently from the release before."""
    by: dict[str, dict[str, str]] = {}
    for row in rows:
        by.setdefault(row.sdk_version, {})[row.plan] = result(row)
    lives: dict[tuple[str, str], list[LivenessRecord]] = {}
    for r in live:
        lives.setdefault((r.sdk_version, r.mode), []).append(r)
    for (release, setting), found in lives.items():
        if release in by:
            by[release][setting] = f"{by[release].get(setting, '')} | {live_result(found)}"
    return moved(by, SETTINGS, changes)


def boundaries(
    rows: Sequence[SweepRecord],
    live: Sequence[LivenessRecord] = (),
    changes: Sequence[Change] = CHANGES,
) -> list[Boundary]:
    """Each setting whose cases or situations read differently from the release before, in
    release order, with the change named for that release (empty when none is)."""
    return [
        Boundary(*(m.release, m.previous, m.setting, m.before, m.after), *m.change.said)
        for m in _moved(rows, live, changes)
    ]


def changes_frame(found: LangchainFinding) -> pd.DataFrame:
    """One row per release where a setting's result changes: the settings, what the sweep saw
    after, the change that moved it and its public record."""
    moves = _moved(found.sweep, found.sweep_liveness, CHANGES)
    return driven_changes_frame(moves, "settings", PACKAGE)


def _went(sent_detail: str, stored_open: bool = False, setting: str = "") -> str:
    """Where an open call went, in words, from a record's ``... to the model; ... to compaction``
    detail (``stored_open``: the history stored after the resume still holds it open). The trim
    step calls no summariser: what it is given is what it cuts (``setting`` names the step)."""
    given = "cut by the trim step" if setting.startswith("trim") else "sent to the summariser"
    to = dict.fromkeys(
        part.split(" to ", 1)[1] for part in sent_detail.split("; ") if " to " in part
    )
    went = [given if t == "compaction" else f"sent to {t}" for t in to]
    return ", ".join((["stored open"] if stored_open else []) + went) or "nowhere"


def late_call_frame(found: LangchainFinding, situation: str = "resumed") -> pd.DataFrame:
    """Where a late-answered situation's call went without its answer, by setting: on the
    release before the late decision (the pause, the questions asked while it waits, the
    resume) and in the later questions (the history stored after the resume too), and with the
    patch (both, as one column: the patched package sends it nowhere in either)."""
    table: dict[str, dict[str, str]] = {}
    before = f"{found.version}: until the late decision"
    after = f"{found.version}: the later questions"
    for r in found.liveness:
        if r.scenario == situation:
            row = table.setdefault(r.mode, {})
            row[before] = _went(r.own_sent_detail, setting=r.mode)
            row[after] = _went(r.sent_detail, r.resume_unpaired.startswith("stored"), r.mode)
    for r in found.patched:
        if r.scenario == situation and r.mode in table:
            both = _went(
                f"{r.own_sent_detail}; {r.sent_detail}",
                r.resume_unpaired.startswith("stored"),
                r.mode,
            )
            table[r.mode]["patched: throughout"] = both
    return pd.DataFrame.from_dict(table, orient="index").rename_axis("setting")
