"""Finding: what the ADK study says, read from ``data/``: the pinned release's kinds, every
release's, and the liveness situations. Its tables are the JS study's functions with ADK's
words as data (``lab.findings.driven``: ranges of releases, liveness by situation), so both drivers
read alike and no table is written twice.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import pandas as pd

from ..analysis.liveness import LivenessRecord
from ..lab import paths
from ..lab.findings.driven import (
    RAISED,
    Change,
    DriverFinding,
    Moved,
    changes_frame,
    liveness_frame,
    moved,
    stored,
)
from ..lab.findings.liveness import REFUSED, SITUATION_WORDS, STUCK
from ..lab.findings.releases import (
    COMPACTION_ONLY,
    NEXT_TURN_FAILS,
    PAUSE_FAILS,
    RESUME_FAILS,
    UNAFFECTED,
)
from ..lab.findings.searched import SearchedCase, searched_cases
from ..lab.findings.verdict import (
    BUG,
    GROWS,
    UNPAIRED,
    DriverWords,
    LivenessVerdict,
    ModeCases,
    ReleaseVerdict,
    driver_verdicts,
    setting_states,
)
from ..lab.releases.driven import NEVER_COMPACTED, SweepRecord
from .changes import CHANGES
from .files import Name, data_file
from .late import LateAnswer
from .moves import WINDOW_SOURCE
from .words import KINDS as ADK_KINDS

PACKAGE = "google-adk"
SEARCHED = "found by the search"  # a liveness bug the search found, after how many sequences
# The kinds as columns: EventsCompactionConfig's sliding window and token threshold.
COLUMNS: dict[str, str] = {
    "window-0": "window, overlap 0",
    "window-1": "window, overlap 1",
    "tokens-0": "tokens, retention 0",
    "tokens-2": "tokens, retention 2",
}
ENTRY = "Runner.run_async raises"  # where an ADK user meets an error
# What the user meets, by where ADK first raises (nothing goes over HTTP: ADK raises itself).
MEETS: dict[str, str] = {
    PAUSE_FAILS: f"{ENTRY} at the pause, nothing to confirm",
    RESUME_FAILS: f"{ENTRY} at the resume",
    NEXT_TURN_FAILS: f"{ENTRY} on the next question",
    COMPACTION_ONLY: "no error (the summariser is given an unpaired item)",
    UNAFFECTED: "no error in these cases",
}


# Why a kind could not run, by what EventsCompactionConfig rejected (the driver's words), and
# a kind whose compaction never ran: a cell's words.
NOT_RUN: dict[str, str] = {
    "token_threshold: Extra inputs are not permitted": "no token threshold in this release",
    NEVER_COMPACTED: "compaction never runs",
}
# A kind the release runs only with fields the driver added (the window's, beside a token
# threshold on 1.25.0 to 2.5.0): a cell says so after its words.
BESIDE = "beside a window no run reaches"
# ADK's sliding window grows the history by design, the control too (``adk.moves``).
WORDS = DriverWords(PACKAGE, ADK_KINDS, RAISED, GROWS, WINDOW_SOURCE)


def setting_word(cases: ModeCases) -> str:
    """One kind's cases on a release, in the table's words (a kind run with fields the driver
    added says so: ``BESIDE``)."""
    if cases.severity in MEETS:
        said = MEETS[cases.severity]
        said = f"{said} ({cases.raising} of {cases.cases} cases)" if cases.raising else said
        return f"{said}, {BESIDE}" if cases.configured else said
    return next((w for key, w in NOT_RUN.items() if key in cases.severity), cases.severity)


@dataclass(frozen=True)
class AdkFinding(DriverFinding):
    """The ADK study's results: every release's kinds (when swept), the pinned release's kinds
    (``DriverFinding``), and the liveness situations on it."""

    liveness: tuple[LivenessRecord, ...]
    verdicts: tuple[ReleaseVerdict, ...] = ()  # one per swept release (``verdict``'s record)
    # The pinned release with ADK's OpenAIResponsesLlm, its model requests judged over HTTP.
    over_http: tuple[SweepRecord, ...] = ()
    over_http_liveness: tuple[LivenessRecord, ...] = ()
    sweep_over_http: tuple[SweepRecord, ...] = ()  # each release with OpenAIResponsesLlm, its cases


def load_adk(folder: Path = paths.DATA) -> AdkFinding | None:
    """The ADK study's finding, when the pinned release's kinds are there."""
    if not data_file("kinds", folder).is_file():
        return None

    def read(name: Name) -> tuple[SweepRecord, ...]:
        return stored(data_file(name, folder), SweepRecord)

    def live(name: Name) -> tuple[LivenessRecord, ...]:
        return stored(data_file(name, folder), LivenessRecord)

    sweep = read("sweep")
    verdicts = searched_verdicts(
        driver_verdicts(sweep, live("sweep_liveness"), WORDS), searched_cases("adk", folder)
    )
    return AdkFinding(
        sweep,
        read("kinds"),
        live("liveness"),
        verdicts,
        read("responses"),
        live("responses_liveness"),
        read("sweep_responses"),
    )


def searched_verdicts(
    verdicts: Sequence[ReleaseVerdict], cases: Sequence[SearchedCase]
) -> tuple[ReleaseVerdict, ...]:
    """Each release's verdict with what the state-space search found there that no hand-picked
    situation has and that stops compaction for good: one bug per kind the findings were shrunk
    to, named by how many minimal sequences (``searched_frame`` shows them)."""
    found = []
    for verdict in verdicts:
        modes: dict[str, list[str]] = {}  # each kind's stalls, by what they do before it
        for c in cases:
            if c.package == verdict.release and c.label == "new" and c.stops_compacting:
                modes.setdefault(c.mode, []).append(c.steps.rsplit(" → ", 1)[0])
        stalls = tuple(
            LivenessVerdict(f"{len(steps)} {SEARCHED}", STUCK, (mode,), BUG)
            for mode, steps in modes.items()
        )
        found.append(replace(verdict, liveness=(*verdict.liveness, *stalls)))
    return tuple(found)


# The kinds by trigger: the README's columns (a kind's words shown once where both agree).
TRIGGERS: dict[str, str] = {
    "window-0": "sliding window (overlap 0; 1)",
    "window-1": "sliding window (overlap 0; 1)",
    "tokens-0": "token threshold (retention 0; 2)",
    "tokens-2": "token threshold (retention 0; 2)",
}


def adk_verdict_frame(
    verdicts: Sequence[ReleaseVerdict], columns: dict[str, str] = COLUMNS, contract: bool = True
) -> pd.DataFrame:
    """The verdict per run of releases, each kind's cases in ADK's words as columns (kinds
    sharing a column label share a column), the liveness situations by kind."""
    from ..lab.findings.tables import verdict_frame
    from .harness import SITUATIONS

    frame = verdict_frame(verdicts, columns, setting_word, contract, SITUATIONS)
    bugs = frame["liveness bugs"].str.replace("all modes", "every setting")  # ADK's word
    return frame.assign(**{"liveness bugs": bugs})


# Where the sliding window never runs (2.0.0, 2.1.0), what "stops compacting" there never began:
# the verdict's *never compacts* (issue 61, r18: "stops compacting" beside "compaction never runs").
NEVER_STARTED = {
    "stops compacting (every setting)": "stops compacting (tokens-0, tokens-2), never compacts "
    "(window-0, window-1)",
    "stops compacting (window-0, window-1)": "never compact (window-0, window-1)",
}


def adk_releases_frame(verdicts: Sequence[ReleaseVerdict]) -> pd.DataFrame:
    """Notebook 13's verdict table: every release, each setting by its name (the two windows in
    one column when they read alike), the 8 cases said in the title, the search's findings left
    to its own table (it ran on the pinned release only), a refusal on the scripted model said
    as the stand-in's rules' ("would be refused": the model still answers, r18), and where the
    window never runs, its never-started compaction called so (``NEVER_STARTED``)."""
    frame = adk_verdict_frame(verdicts, contract=False)
    frame.columns = [
        c.replace("window, overlap ", "window-").replace("tokens, retention ", "tokens-")
        for c in frame.columns
    ]
    if frame["window-0"].equals(frame["window-1"]):
        frame = frame.drop(columns="window-1").rename(columns={"window-0": "window-0, window-1"})
    frame = frame.replace(r", beside a window no run reaches", "", regex=True)
    frame = frame.replace(r" \(8 of 16 cases\)", "", regex=True)
    bugs = frame["liveness bugs"].str.replace(r"; \d+ found by the search[^;]*", "", regex=True)
    bugs = bugs.str.replace(f" {REFUSED} (", f" would be {REFUSED} (", regex=False)
    window = frame["window-0, window-1" if "window-1" not in frame else "window-0"]
    idle = window.eq(NOT_RUN[NEVER_COMPACTED])
    for stopped, never in NEVER_STARTED.items():
        bugs[idle] = bugs[idle].str.replace(stopped, never, regex=False)
    # r22: "abandoned, lost stops compacting": two situations take the plural verb
    frame["liveness bugs"] = bugs.str.replace(
        r"(\w+, \w+) stops compacting", r"\1 stop compacting", regex=True
    )
    return _merge_alike(frame)


def _merge_alike(frame: pd.DataFrame) -> pd.DataFrame:
    """Neighbouring runs of releases that read alike once the words above are trimmed share one
    row (r21: 2.5.0 and 2.6.0..2.9.2 differed only in a cut clause); the last row, the pinned
    release, keeps its own."""
    said = [c for c in frame.columns if c != "releases in range"]
    rows: list[tuple[str, pd.Series]] = []
    for n, (name, row) in enumerate(frame.iterrows()):
        last = n == len(frame) - 1
        if rows and not last and rows[-1][1][said].equals(row[said]):
            first, kept = rows[-1]
            merged = kept.copy()
            merged["releases in range"] = kept["releases in range"] + row["releases in range"]
            rows[-1] = (f"{str(first).split('..')[0]}..{str(name).split('..')[-1]}", merged)
        else:
            rows.append((str(name), row))
    merged_frame = pd.DataFrame([r for _, r in rows], index=[n for n, _ in rows])
    merged_frame.index.name = frame.index.name
    return merged_frame.astype(frame.dtypes.to_dict())


def adk_liveness_frame(rows: Sequence[LivenessRecord]) -> pd.DataFrame:
    """Situation by release: whether compaction keeps running and the history stays bounded
    in every kind, or in which kinds not."""
    return liveness_frame(rows, ADK_KINDS)


@dataclass(frozen=True)
class Boundary:
    """Where one kind's result changes between two consecutive releases of the sweep: what it
    read before and after, and the change that moved it (``adk.changes``)."""

    release: str
    previous: str
    kind: str
    before: str
    after: str
    what: str
    source: str


def result(row: SweepRecord) -> str:
    """One kind's result on one release: why it did not run, or the cases that break an
    invariant, which invariants, and where the user's code raised."""
    if row.not_applicable:
        return next((w for key, w in NOT_RUN.items() if key in row.not_applicable), "not run")
    beside = f" ({BESIDE}: {row.configured})" if row.configured else ""
    if not row.violating:
        return f"no case breaks an invariant{beside}"
    raised = f", raised at {row.raised_at}" if row.raised_at else ""
    return f"{row.violating} of {row.cases} break {row.invariants}{raised}{beside}"


def adk_moved(rows: Sequence[SweepRecord], changes: Sequence[Change] = CHANGES) -> list[Moved]:
    """Each kind whose result differs from the release before, in release order, with the
    change named for that release (``lab.findings.driven.moved``)."""
    results: dict[str, dict[str, str]] = {}
    for row in rows:
        results.setdefault(row.sdk_version, {})[row.plan] = result(row)
    return moved(results, ADK_KINDS, changes)


def adk_boundaries(
    rows: Sequence[SweepRecord], changes: Sequence[Change] = CHANGES
) -> list[Boundary]:
    """Each kind whose result differs from the release before, as ``adk-boundaries.json``'s
    records."""
    return [
        Boundary(
            m.release, m.previous, m.setting, m.before, m.after, m.change.what, m.change.source
        )
        for m in adk_moved(rows, changes)
    ]


# A change table's words for a setting's result from a release on (13's "setting: then").
THEN_WORDS = {
    "compaction never runs": "never compacts",
    "no case breaks an invariant": "keeps the call",
}


def adk_changes_by_release(rows: Sequence[SweepRecord], releases: Sequence[str]) -> pd.DataFrame:
    """Where a setting's result changes on the verdict table's ``releases`` (each a range's
    first), one row per release: each changed setting with its result from there on (without
    the "beside a window" note), and the change that explains it."""
    changes = pd.DataFrame(adk_boundaries(rows))
    changes = changes[changes.release.isin([r.split("..")[0] for r in releases])]
    then = changes.after.str.replace(r" \(beside.*", "", regex=True)
    changes["then"] = [
        THEN_WORDS.get(a, "loses the call" + (", resume raises" if "resume" in a else ""))
        for a in then
    ]
    kinds = changes.groupby(["release", "what", "then"], sort=False)["kind"].agg(", ".join)
    by = pd.DataFrame(kinds.reset_index())
    by["setting: then"] = by["kind"] + ": " + by["then"]
    joined = by.groupby(["release", "what"], sort=False)["setting: then"].agg("; ".join)
    table: pd.DataFrame = joined.reset_index().set_index("release")[["setting: then", "what"]]
    return table


SCRIPTED_PATH = "scripted model: the rules' prediction"
HTTP_PATH = "OpenAIResponsesLlm: the stand-in's answer over HTTP"


def adk_paths_frame(
    scripted: Sequence[SweepRecord], over_http: Sequence[SweepRecord]
) -> pd.DataFrame:
    """Each kind's cases on one release by both model paths: the driver's scripted model (its
    requests judged by the Responses API's rules in process) and ADK's ``OpenAIResponsesLlm``
    (each request sent to the stand-in and answered there), and whether the two read alike."""
    table: dict[str, dict[str, str]] = {}
    for kind, label in COLUMNS.items():
        mine = next((result(r) for r in scripted if r.mode == kind), "not run")
        sent = next((result(r) for r in over_http if r.mode == kind), "not run")
        same = "yes" if mine == sent else "no"
        table[label] = {SCRIPTED_PATH: mine, HTTP_PATH: sent, "the same": same}
    return pd.DataFrame.from_dict(table, orient="index").rename_axis("kind")


STANDIN_CALL = re.compile(r"call_standin_(\d+)")  # the stand-in's call ids (wire.standin)


def over_http_agreement(found: AdkFinding) -> str:
    """How many of the pinned release's liveness records read the same with
    ``OpenAIResponsesLlm`` over HTTP as with the scripted model, in one sentence (the call ids
    aside: the stand-in numbers its own, ``call_standin_N`` for the scripted ``call-N``)."""

    def key(row: LivenessRecord) -> tuple[str, str, str]:
        return row.scenario, row.mode, row.invariant

    def text(row: LivenessRecord) -> str:
        fields = {k: v for k, v in asdict(row).items() if k not in ("sdk_version", "model")}
        return STANDIN_CALL.sub(r"call-\1", json.dumps(fields, sort_keys=True))

    mine = {key(r): text(r) for r in found.liveness if r.sdk_version == found.version}
    sent = {key(r): text(r) for r in found.over_http_liveness}
    same = sum(1 for k, v in mine.items() if sent.get(k) == v)
    return (
        f"{same} of {len(mine)} liveness records on {found.version} read the same over HTTP "
        f"({len(sent)} written), call ids aside"
    )


def over_http_sweep_agreement(found: AdkFinding) -> str:
    """Whether each swept release with ``OpenAIResponsesLlm`` reads the same over HTTP as the
    scripted sweep predicted, kind by kind, in one sentence naming any that differ."""
    predicted = {(r.sdk_version, r.mode): result(r) for r in found.sweep}
    releases = list(dict.fromkeys(r.sdk_version for r in found.sweep_over_http))
    if not releases:
        return "no release was swept over HTTP: run `make adk-sweep`"
    differ = [
        r for r in found.sweep_over_http if predicted.get((r.sdk_version, r.mode)) != result(r)
    ]
    span = f"{releases[0]}..{releases[-1]}" if len(releases) > 1 else releases[0]
    same = len(set(releases) - {r.sdk_version for r in differ})
    said = f"{same} of {len(releases)} releases with OpenAIResponsesLlm ({span}) read the same "
    said += "over HTTP as predicted, in every kind"
    named = [
        f"{r.sdk_version} {r.mode}: predicted {predicted.get((r.sdk_version, r.mode), 'not run')}"
        f", over HTTP {result(r)}"
        for r in differ
    ]
    return said + ("; " + "; ".join(named) if named else "")


def adk_changes_frame(rows: Sequence[SweepRecord]) -> pd.DataFrame:
    """One row per release where a kind's result changes: the kinds, what the sweep saw
    after, the change that moved it and its public record."""
    return changes_frame(adk_moved(rows), "kinds", PACKAGE)


def late_split_frame(rows: Sequence[LateAnswer], released: str, patched: str) -> pd.DataFrame:
    """The late answers (``adk-late.json``) by situation and kind: what the fix changes (the
    late answer given to the summariser without its call, before and patched), and what it
    leaves, the same before and patched (a column that differs names both)."""

    def cell(row: LateAnswer, field: str) -> str:
        return str(getattr(row, field)) or "nothing"

    found = {(r.package, r.situation, r.kind): r for r in rows}
    table = []
    for (package, situation, kind), row in found.items():
        if package != released:
            continue
        after = found[(patched, situation, kind)]
        line = {
            "situation": situation,
            "kind": COLUMNS.get(kind, kind),
            f"late answer summarised without its call, {released}": cell(row, "late"),
            "patched": cell(after, "late"),
        }
        for field, label in (
            ("waiting", "call summarised while it waits"),
            ("to_model", "sent to the model without its call"),
            ("read_back", "read back after the summary of its call"),
        ):
            same = cell(row, field) == cell(after, field)
            line[label] = cell(row, field) if same else f"{cell(row, field)} → {cell(after, field)}"
        table.append(line)
    return pd.DataFrame(table).set_index(["situation", "kind"])


# A situation's state, as a cell of the table of what is left says it.
LEFT_WORDS = {
    GROWS: "the history grows while compacting",
    UNPAIRED: "its late answer reaches the summariser without its call",
    STUCK: "compaction stops",
    REFUSED: "later turns are refused",
}
SAME_AS_CONTROL = "as the control"


def _package_name(record: LivenessRecord) -> str:
    """The column a liveness record belongs to: the release, patched, or over HTTP."""
    if "+" in record.sdk_version:
        return "patched (adk/fix)"
    return record.sdk_version


def adk_left_frame(rows: Sequence[LivenessRecord], control: str = "clean") -> pd.DataFrame:
    """What each situation leaves after the later turns that the control (``clean``) does not
    leave in the same compaction kind, per package (the release, patched, over HTTP): each
    state with the kinds it is in, or ``as the control``. The control's row says what every
    situation shares (the sliding window's growth, ADK's design)."""
    by: dict[tuple[str, str, str], list[LivenessRecord]] = {}
    for row in rows:
        by.setdefault((_package_name(row), row.scenario, row.mode), []).append(row)
    packages = list(dict.fromkeys(_package_name(r) for r in rows))
    situations = [s for s in dict.fromkeys(r.scenario for r in rows) if s != control] + [control]
    table: dict[str, dict[str, str]] = {}
    for package in packages:
        for situation in situations:
            kinds: dict[str, list[str]] = {}
            for kind in ADK_KINDS:
                shared = set(setting_states(by.get((package, control, kind), [])))
                states = setting_states(by.get((package, situation, kind), []))
                for state in (
                    states if situation == control else [s for s in states if s not in shared]
                ):
                    kinds.setdefault(state, []).append(kind)
            said = "; ".join(f"{LEFT_WORDS.get(s, s)} ({', '.join(k)})" for s, k in kinds.items())
            table.setdefault(package, {})[situation] = said or (
                "nothing" if situation == control else SAME_AS_CONTROL
            )
    frame = pd.DataFrame(table).reindex(situations)
    frame.insert(0, "what happened", [SITUATION_WORDS.get(s, s) for s in frame.index])
    return frame.rename_axis("situation")
