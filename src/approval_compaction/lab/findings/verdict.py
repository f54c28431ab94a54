"""Verdict: one record per release, the status every published page renders.

A release's ``ReleaseVerdict`` holds, from the committed data: the sixteen cases (how many
violate an invariant, and what the user meets in each compaction mode) with the trigger they
use, a compaction hook that always says yes (``ALWAYS``); the doctor's check with the SDK's
default trigger per mode (``Exposure``), where it was measured; and each liveness situation
that stops compacting or that the API refuses, sorted by ``kind_of`` into a bug, the SDK's
documented contract (with the source that documents it), or a shape no public source shows
(``UNKNOWN``), which is never counted as a failure.

``word`` is the release's verdict in one of five words (``VERDICTS``): a release whose cases
never compact (its path runs no compaction step) is neither affected nor fixed, and says so;
nor is an SDK none of whose releases lost the pending call (``KEPT_LIVENESS_LEFT``). ``claims``
reads the verdict a published text states about each release, and ``disagreements`` says where
it differs from the record: the test that keeps every page saying the same thing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ...analysis.liveness import LIVENESS_NAMES, LivenessRecord
from ...formats.records import read_json
from ...study.words import AUTO_STORE_FALSE, SITUATIONS
from .. import paths
from ..releases.bisect import release_range
from ..releases.driven import NEVER_COMPACTED, SweepRecord
from ..releases.later_turns import LIVENESS_MODES
from ..releases.later_turns_patch import DOCUMENTED_LIMIT, DOCUMENTED_TEST
from .doctor import Check
from .liveness import GROWS_CELL, REFUSED, STUCK, LivenessEras, cell_key, release_state
from .releases import COMPACTION_ONLY, UNAFFECTED, Releases

ALWAYS = "a compaction hook that always says yes"
DEFAULT_TRIGGER = "the SDK's default trigger"
CONTRACT_MODE = "previous_response_id"

BUG = "bug"
CONTRACT = "documented"
UNKNOWN = "unknown"

AFFECTED = "affected"
NEVER_RUNS = "never compacts"
LIVENESS_LEFT = "pending call fixed, liveness bugs left"
# The same, for an SDK none of whose swept releases ever lost the pending call: nothing was fixed.
KEPT_LIVENESS_LEFT = "pending call kept, liveness bugs left"
NOT_AFFECTED = "not affected"
VERDICTS = (AFFECTED, NEVER_RUNS, LIVENESS_LEFT, KEPT_LIVENESS_LEFT, NOT_AFFECTED)

# Where the SDK documents that explicit previous_response_id mode never compacts a partial
# suffix: its class docstring and the test that pins it.
CONTRACT_SOURCE = f'SDK class docstring: "{DOCUMENTED_LIMIT}"; test `{DOCUMENTED_TEST}`'
# The compaction endpoint's answer with a summary alone: the SDK's own test fakes answer so.
SUMMARY_ONLY = "summary_only"
SUMMARY_ONLY_WHY = (
    "a compaction answer holding a summary alone (the SDK's test fakes); no public source "
    "shows responses.compact answering so"
)
# The README's name for the column of those situations: the answer, and the runs (the liveness
# test in the SDK's suite form, on its fakes) its cells come from.
SUMMARY_ONLY_COLUMN = "only under a summary_only compaction answer (the SDK's fakes, no HTTP)"
# A driver's situations also grow while compacting, or split a call and its late answer (either
# side may be the one left alone).
GROWS = "grows"  # compaction runs every turn and the history still grows (``GROWS_CELL``)
UNPAIRED = "unpaired"  # a late answer and its call stored, sent or summarised apart
STATE_WORDS = {
    STUCK: "stops compacting",
    REFUSED: "refused",
    GROWS: "grows while compacting",
    UNPAIRED: "splits its call and late answer",
}


@dataclass(frozen=True)
class ModeCases:
    """The sixteen cases in one compaction mode: what the user meets, and in how many cases
    the user's code raises (a hook that always says yes)."""

    mode: str
    severity: str
    raising: int
    cases: int
    configured: str = ""  # what the driver added for the release to run the setting


@dataclass(frozen=True)
class Exposure:
    """The doctor's check with the SDK's default trigger in one mode: the pause positions
    where the user meets the bug, of those tried."""

    mode: str
    affected: int
    positions: int


@dataclass(frozen=True)
class LivenessVerdict:
    """One situation that stops compacting or is refused, in some modes, and of which kind:
    a bug, the SDK's documented contract, or a shape no public source shows; ``source`` says
    what documents a contract or why a shape is unknown."""

    situation: str
    state: str
    modes: tuple[str, ...]
    kind: str
    source: str = ""


@dataclass(frozen=True)
class ReleaseVerdict:
    """One release's status: the cases, the default trigger's exposure, and liveness."""

    release: str
    cases: int
    violating: int
    modes: tuple[ModeCases, ...]
    exposure: tuple[Exposure, ...]
    liveness: tuple[LivenessVerdict, ...]
    sdk: str = "openai-agents"
    ever_lost: bool = True  # whether any swept release of the SDK breaks an invariant in a case

    def of_kind(self, kind: str) -> tuple[LivenessVerdict, ...]:
        return tuple(v for v in self.liveness if v.kind == kind)

    @property
    def never_compacts(self) -> bool:
        """No setting of the release compacted: one never ran compaction in a case that turns
        it on, and none ran its cases with compaction and no error."""
        severities = {m.severity for m in self.modes}
        return NEVER_COMPACTED in severities and UNAFFECTED not in severities

    @property
    def word(self) -> str:
        """``affected`` when a case violates an invariant; else ``never compacts`` when no
        setting compacted (the cases pass without testing the pending call);
        else ``pending call fixed, liveness bugs left`` when a liveness bug remains (``pending
        call kept, ...`` when no release of the SDK ever lost it: nothing was fixed); else
        ``not affected``."""
        if self.violating:
            return AFFECTED
        if self.never_compacts:
            return NEVER_RUNS
        if self.of_kind(BUG):
            return LIVENESS_LEFT if self.ever_lost else KEPT_LIVENESS_LEFT
        return NOT_AFFECTED

    def row(self) -> tuple[object, ...]:
        """Everything but the release's name: releases with equal rows read the same."""
        return (self.word, self.violating, self.cases, self.modes, self.exposure, self.liveness)


def kind_of(mode: str, state: str, shape: str = "") -> str:
    """A liveness failure's kind: a compaction answer no public source shows is ``unknown``;
    a session that stops compacting in explicit ``previous_response_id`` mode is the SDK's
    documented contract; anything else is a bug."""
    if shape == SUMMARY_ONLY:
        return UNKNOWN
    if mode == CONTRACT_MODE and state == STUCK:
        return CONTRACT
    return BUG


# A kind in a table's cell, as the glossary names it.
KIND_WORDS = {BUG: "bug", CONTRACT: "documented contract", UNKNOWN: "unknown"}
KIND_COUNTED = {
    BUG: ("bug", "bugs"),
    CONTRACT: ("the SDK's documented contract",) * 2,
    UNKNOWN: (
        "that fails only under a compaction answer no public source shows",
        "that fail only under a compaction answer no public source shows",
    ),
}


def breach_kind(mode: str, invariants: Iterable[str]) -> str:
    """The kind of a conversation that breaks ``invariants`` in a compaction mode: one that
    breaks only the liveness invariants is a session that stops compacting (``kind_of``);
    breaking any other invariant is a bug."""
    return kind_of(mode, STUCK) if set(invariants) <= set(LIVENESS_NAMES) else BUG


def kind_tally(kinds: Iterable[str]) -> str:
    """``14 bugs, 5 the SDK's documented contract``: how many of each kind, bugs first."""
    kinds = list(kinds)
    order = [BUG, CONTRACT, UNKNOWN]
    counted = []
    for kind in order:
        n = kinds.count(kind)
        if n:
            one, many = KIND_COUNTED.get(kind, (kind, kind))
            counted.append(f"{n} {one if n == 1 else many}")
    return ", ".join(counted)


def _liveness(found: LivenessEras, release: str) -> list[LivenessVerdict]:
    verdicts = []
    for situation in SITUATIONS:
        by: dict[tuple[str, str], list[str]] = {}
        for mode in LIVENESS_MODES:
            for state in (REFUSED, STUCK):
                if release in found.judged(situation, mode, state):
                    by.setdefault((state, kind_of(mode, state)), []).append(mode)
        for (state, kind), modes in by.items():
            source = CONTRACT_SOURCE if kind == CONTRACT else ""
            verdicts.append(LivenessVerdict(situation, state, tuple(modes), kind, source))
    return verdicts


def _failing(outcomes: Sequence[Mapping[str, Any]], sdk: str) -> list[tuple[str, str]]:
    """Each failing case of the liveness test on ``sdk`` as (situation, compaction shape)."""
    failing = []
    for o in outcomes:
        found = re.search(r"\[(\w+)-(\w+)-", str(o.get("test", "")))
        if o["sdk"] == sdk and found and o["outcome"] != "passed":
            failing.append((found.group(1), found.group(2)))
    return failing


def _only_summary(outcomes: Sequence[Mapping[str, Any]], sdk: str) -> set[str]:
    """The situations that fail on ``sdk`` only under a summary-only compaction answer."""
    shapes: dict[str, set[str]] = {}
    for situation, shape in _failing(outcomes, sdk):
        shapes.setdefault(situation, set()).add(shape)
    return {s for s, found in shapes.items() if found == {SUMMARY_ONLY}}


def unknown_shapes(outcomes: Sequence[Mapping[str, Any]], release: str) -> list[LivenessVerdict]:
    """The situations the liveness test fails on the release only with a summary-only
    compaction answer (``data/liveness-patch-test.json``), in ``input`` mode."""
    only = _only_summary(outcomes, "released")
    return [
        LivenessVerdict(s, STUCK, ("input",), UNKNOWN, SUMMARY_ONLY_WHY)
        for s in SITUATIONS
        if s in only
    ]


def failure_kinds(outcomes: Sequence[Mapping[str, Any]], sdk: str) -> list[str]:
    """The kind of each failing case of the liveness test on ``sdk``: unknown where its
    situation fails only under a summary-only answer, a bug otherwise."""
    only = _only_summary(outcomes, sdk)
    return [UNKNOWN if situation in only else BUG for situation, _ in _failing(outcomes, sdk)]


def release_verdicts(
    releases: Releases,
    liveness: LivenessEras,
    exposure: Sequence[Check] = (),
    folder: Path = paths.DATA,
) -> tuple[ReleaseVerdict, ...]:
    """Every swept release's verdict, oldest first, from the sweep, its meetings, its
    liveness runs, the default trigger's checks and the liveness test's outcomes."""
    test = paths.data(folder).liveness_patch_test
    outcomes = read_json(test, dict) if test.exists() else {}
    eras = {v: era for era in releases.eras for v in _members(releases, era.span)}
    stories = {(s.span, s.mode): s for s in releases.stories}
    verdicts = []
    for release in releases.versions:
        era = eras[release]
        modes = tuple(
            ModeCases(m, s.severity, s.raising, s.cases)
            for m in releases.modes
            if (s := stories.get((era.span, m))) is not None
        )
        checked = tuple(
            Exposure(c.config.mode, len(c.affected_at), len(c.rows))
            for c in exposure
            if c.release == release
        )
        found = _liveness(liveness, release)
        if outcomes and outcomes.get("base") == release:
            found += unknown_shapes(outcomes["outcomes"], release)
        verdicts.append(
            ReleaseVerdict(release, era.cases, era.affected, modes, checked, tuple(found))
        )
    return tuple(verdicts)


@dataclass(frozen=True)
class DriverWords:
    """How one driver's sweep reads as verdicts: its package, its settings in order (the
    compaction kinds or modes), what a setting's first refusal is called (``raised``: the stage
    where the user's code raised, as ``findings.driven.RAISED``), and the state the control
    situation shares by the SDK's design, with the public source that documents it."""

    sdk: str
    settings: tuple[str, ...]
    raised: Mapping[str, str]
    designed: str = ""  # a liveness state the SDK documents (``GROWS``), or none
    designed_source: str = ""
    control: str = "clean"


def driver_verdicts(
    rows: Sequence[SweepRecord], liveness: Sequence[LivenessRecord], words: DriverWords
) -> tuple[ReleaseVerdict, ...]:
    """Every release of a driver's sweep (the records ``releases.driven.record`` writes for any
    driver, and its liveness situations judged per setting) as the one verdict record: a
    setting per mode (what the user meets, how many cases raise), the most cases any setting
    breaks, and each situation's state per setting. A state the control situation shows in the
    same setting is the SDK's design when ``words`` cites a source for it; any other is a bug."""
    verdicts = []
    for release in dict.fromkeys(r.sdk_version for r in rows):
        mine = {r.plan: r for r in rows if r.sdk_version == release}
        modes = tuple(_setting(mine[s], words) for s in words.settings if s in mine)
        live = [r for r in liveness if r.sdk_version == release]
        violating = max((r.violating for r in mine.values()), default=0)
        cases = max((r.cases for r in mine.values()), default=0)
        found = tuple(_driver_liveness(live, words))
        verdicts.append(ReleaseVerdict(release, cases, violating, modes, (), found, words.sdk))
    lost = any(v.violating for v in verdicts)
    return tuple(replace(v, ever_lost=lost) for v in verdicts)


def _setting(row: SweepRecord, words: DriverWords) -> ModeCases:
    """A setting's cases: what the user meets (``findings.releases``' words), or why the
    setting could not run or never compacted."""
    if row.not_applicable:
        return ModeCases(row.plan, row.not_applicable, 0, row.cases)
    met = words.raised.get(row.raised_at, COMPACTION_ONLY) if row.violating else UNAFFECTED
    return ModeCases(row.plan, met, row.violating, row.cases, row.configured)


def setting_states(rows: Sequence[LivenessRecord]) -> list[str]:
    """A situation's states in one setting: refused, stuck or growing while compacting, and a
    late answer left unpaired (a session can grow by design and still leave one); none when
    it keeps compacting, paired (or was not judged)."""
    key = cell_key(release_state(rows))
    found = [key] if key in (REFUSED, STUCK) else [GROWS] if key == GROWS_CELL else []
    return found + ([UNPAIRED] if any(r.resume_paired is False for r in rows) else [])


def _driver_liveness(rows: Sequence[LivenessRecord], words: DriverWords) -> list[LivenessVerdict]:
    by: dict[tuple[str, str], list[LivenessRecord]] = {}
    for r in rows:
        by.setdefault((r.scenario, r.mode), []).append(r)
    situations = list(dict.fromkeys(r.scenario for r in rows))
    found = []
    for situation in situations:
        states: dict[tuple[str, str], list[str]] = {}
        for setting in words.settings:
            control = setting_states(by.get((words.control, setting), []))
            for state in setting_states(by.get((situation, setting), [])):
                designed = state == words.designed and state in control
                kind = CONTRACT if designed else BUG
                states.setdefault((state, kind), []).append(setting)
        for (state, kind), settings in states.items():
            source = words.designed_source if kind == CONTRACT else ""
            found.append(LivenessVerdict(situation, state, tuple(settings), kind, source))
    return found


def _members(releases: Releases, span: str) -> list[str]:
    first, _, last = span.partition("..")
    order = list(releases.versions)
    return order[order.index(first) : order.index(last or first) + 1]


def grouped(verdicts: Sequence[ReleaseVerdict]) -> list[tuple[str, list[ReleaseVerdict]]]:
    """Consecutive releases whose verdicts read the same, each run named by its range."""
    runs: list[list[ReleaseVerdict]] = []
    for v in verdicts:
        if runs and runs[-1][-1].row() == v.row():
            runs[-1].append(v)
        else:
            runs.append([v])
    return [(release_range(run[0].release, run[-1].release), run) for run in runs]


def of(verdicts: Sequence[ReleaseVerdict], release: str) -> ReleaseVerdict:
    """The verdict of one release."""
    for v in verdicts:
        if v.release == release:
            return v
    raise LookupError(f"{release} is not in the sweep")


# What a published text may say about a release's verdict, and what it then claims: the three
# verdict words, and the phrases that claim one. Longest first, so "not affected" is not read
# as "affected".
CLAIMS: dict[str, tuple[str, ...]] = {
    NEVER_RUNS: (NEVER_RUNS,),
    LIVENESS_LEFT: (LIVENESS_LEFT,),
    KEPT_LIVENESS_LEFT: (KEPT_LIVENESS_LEFT,),
    NOT_AFFECTED: (NOT_AFFECTED,),
    "unaffected": (NOT_AFFECTED,),
    "fixes these cases": (LIVENESS_LEFT, NOT_AFFECTED),
    "fixes the cases": (LIVENESS_LEFT, NOT_AFFECTED),
    "is fixed": (LIVENESS_LEFT, NOT_AFFECTED),
    AFFECTED: (AFFECTED,),
}
VERSION = re.compile(r"(?<![\w.@/-])(\d+\.\d+\.\d+)(?:\.\.(\d+\.\d+\.\d+))?(?![\w-])")


@functools.cache
def package_named() -> dict[str, re.Pattern[str]]:
    """Each driver's package, by the pattern of a statement naming it (its plugin's
    ``mentions``): the statements about its releases."""
    from ...sdks import words
    from ..plugins import plugins

    found = {}
    for plugin in plugins():
        own = words(plugin.name)
        if plugin.mentions and own:
            found[own.package] = re.compile(plugin.mentions)
    return found


def _about(statement: str, sdk: str) -> bool:
    """Whether a statement speaks of ``sdk``'s releases: one naming a driver's package for
    that driver, one naming none of them for ``openai-agents``."""
    named = package_named()
    if sdk in named:
        return bool(named[sdk].search(statement))
    return not any(pattern.search(statement) for pattern in named.values())


def statements(text: str) -> list[str]:
    """A text's table rows, and its other lines split into sentences and clauses."""
    found: list[str] = []
    for line in text.splitlines():
        if line.lstrip().startswith("|"):
            found.append(line)
        else:
            found += [s for s in re.split(r"(?<=[.;!?])\s+", line) if s.strip()]
    return found


def _named(statement: str, order: Sequence[str]) -> list[str]:
    named: list[str] = []
    for first, last in VERSION.findall(statement):
        if first in order and (not last or last in order):
            named += order[order.index(first) : order.index(last or first) + 1]
    return named


def claims(
    text: str, order: Sequence[str], sdk: str = "openai-agents"
) -> list[tuple[str, str, str]]:
    """Each (release, phrase, statement) where a statement about ``sdk`` names one release or
    range of its releases ``order`` and a verdict phrase (statements about another package
    are left out: their releases have verdicts of their own)."""
    found = []
    for statement in statements(text):
        if not _about(statement, sdk):
            continue
        ranges = VERSION.findall(statement)
        named = _named(statement, order)
        if len(ranges) != 1 or not named:
            continue
        rest = statement.lower()
        for phrase in CLAIMS:
            if phrase in rest:
                rest = rest.replace(phrase, " ")
                found += [(release, phrase, statement.strip()) for release in named]
    return found


def disagreements(
    text: str, verdicts: Sequence[ReleaseVerdict]
) -> dict[str, list[tuple[str, str]]]:
    """Per release, the (phrase, statement) pairs of ``text`` that claim a verdict other than
    the record's."""
    order = [v.release for v in verdicts]
    words = {v.release: v.word for v in verdicts}
    sdk = verdicts[0].sdk if verdicts else "openai-agents"
    wrong: dict[str, list[tuple[str, str]]] = {}
    for release, phrase, statement in claims(text, order, sdk):
        if words[release] not in CLAIMS[phrase]:
            wrong.setdefault(release, []).append((phrase, statement))
    return wrong


# A count a published text may state about one release, and the record's value it states: the
# cases that break an invariant (of all), and the situations the record sorts as bugs.
CASES_BREAK = re.compile(r"(\d+) of (\d+) cases (?:violate|break)")
BUGS = re.compile(r"(\d+) bugs?\b")


def count_disagreements(
    text: str, verdicts: Sequence[ReleaseVerdict]
) -> list[tuple[str, str, str]]:
    """Each (release, the count said, the record's) where a statement naming one release or
    range of ``openai-agents`` releases states how many cases break an invariant, or how many
    bugs it has, and the record says otherwise."""
    order = [v.release for v in verdicts]
    by = {v.release: v for v in verdicts}
    sdk = verdicts[0].sdk if verdicts else "openai-agents"
    wrong = []
    for statement in statements(text):
        if not _about(statement, sdk) or len(VERSION.findall(statement)) != 1:
            continue
        for release in _named(statement, order):
            record = by[release]
            for said, of_all in CASES_BREAK.findall(statement):
                if (int(said), int(of_all)) != (record.violating, record.cases):
                    wrong.append((release, f"{said} of {of_all}", f"{record.violating}"))
            for said in BUGS.findall(statement):
                if int(said) != len(record.of_kind(BUG)):
                    wrong.append((release, f"{said} bugs", f"{len(record.of_kind(BUG))}"))
    return wrong


# Names a published text may not use: each setting has one name (``AUTO_STORE_FALSE``), and the
# a driver's word for a compaction mode (a plan) stays inside its folder.
STORE_FALSE_NAMED = re.compile(r"auto\W{1,3}store\W{0,2}(?:false|False)\)?", re.I)
PLAN = re.compile(r"\bplans?\b")
FENCE = re.compile(r"^ {0,3}```.*?^ {0,3}```", re.S | re.M)


def term_disagreements(text: str) -> list[str]:
    """Each name in ``text`` that the vocabulary spells otherwise: ``auto`` with the store set
    false by any name but ``AUTO_STORE_FALSE``, and a compaction mode called a plan."""
    prose = FENCE.sub("", text)  # code quotes the SDK's own spelling
    other = [m for m in STORE_FALSE_NAMED.findall(prose) if m != AUTO_STORE_FALSE]
    return other + PLAN.findall(prose)


def published(root: Path = paths.ROOT) -> dict[str, str]:
    """Every published text by its path: the README, the generated comments and report, the
    pages under ``docs/`` and the notebooks' answer lines."""
    texts = {
        name: (root / name).read_text()
        for name in (
            "README.md",
            "data/report.md",
            "data/upstream-snippet.md",
            "data/upstream-liveness.md",
        )
        if (root / name).exists()
    }
    for page in sorted((root / "docs").glob("*.md")):
        texts[page.relative_to(root).as_posix()] = page.read_text()
    for notebook in sorted((root / "notebooks").glob("[01][0-9]-*.ipynb")):
        texts[notebook.relative_to(root).as_posix()] = answer_lines(notebook)
    return texts


ANSWER = re.compile(r"\*\*Answers?\.\*\*.*?(?=<!--|\Z)", re.S)


def answer_lines(notebook: Path) -> str:
    """A notebook's answer: the text after ``**Answer.**`` in its first markdown cells."""
    cells: Iterable[Mapping[str, Any]] = read_json(notebook, dict).get("cells", [])
    for cell in cells:
        if cell.get("cell_type") == "markdown":
            source = "".join(cell.get("source", []))
            found = ANSWER.search(source)
            if found:
                return found.group(0)
    return ""


# What a published text may say of a situation's later turns on a release: the state it names,
# in which modes, and for which answers of the compaction endpoint (its scope: the documented
# answer, so a bug or the SDK's contract; or an answer no public source shows).
DOCUMENTED_SCOPE = (BUG, CONTRACT)
UNKNOWN_SCOPE = (UNKNOWN,)
_STATE_OF = {"stops compacting": STUCK, "refused": REFUSED}
_SAID = re.compile(
    r"(?P<who>\w+(?:, \w+)*) (?P<state>stops compacting|refused) \((?P<modes>[^)]+)\)"
)
_CELL_PART = re.compile(r"(?P<state>stops compacting|refused)(?: in (?P<modes>[\w, ]+))?")
# A verdict table's columns: the kinds of liveness failure each one lists.
_COLUMN_SCOPE = {
    "liveness bugs": (BUG,),
    "the SDK's documented contract": (CONTRACT,),
    "only with a compaction answer no public source shows": UNKNOWN_SCOPE,
    SUMMARY_ONLY_COLUMN: UNKNOWN_SCOPE,
}


@dataclass(frozen=True)
class LivenessClaim:
    """One thing a text says of a situation on some releases: in which modes it reaches a
    state (none: it keeps compacting and is never refused), under which answers."""

    releases: tuple[str, ...]
    situation: str
    state: str  # STUCK or REFUSED
    modes: tuple[str, ...]
    scope: tuple[str, ...]  # the kinds of failure the statement speaks of
    statement: str


def _mode_list(said: str | None) -> tuple[str, ...]:
    if not said or said.strip() == "all modes":
        return tuple(LIVENESS_MODES)
    return tuple(m.strip() for m in said.split(",") if m.strip())


def _tables(text: str) -> list[list[list[str]]]:
    """Each markdown table of a text: its rows (the header first) as stripped cells."""
    found: list[list[list[str]]] = []
    rows: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        if line.lstrip().startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= set("-: ") for c in cells):
                rows.append(cells)
        elif rows:
            found.append(rows)
            rows = []
    return found


def _verdict_table_claims(rows: list[list[str]], order: Sequence[str]) -> list[LivenessClaim]:
    header, claims = rows[0], []
    for row in rows[1:]:
        named = _named(row[0], order)
        for column, cell in zip(header, row, strict=False):
            scope = _COLUMN_SCOPE.get(column, DOCUMENTED_SCOPE)  # unnamed: the documented one
            if column == header[0] or not named:
                continue
            for m in _SAID.finditer(cell):
                for who in m.group("who").split(", "):
                    claims.append(
                        LivenessClaim(tuple(named), who, _STATE_OF[m.group("state")],
                                      _mode_list(m.group("modes")), scope, "| ".join(row))
                    )  # fmt: skip
    return claims


def _situation_table_claims(rows: list[list[str]], order: Sequence[str]) -> list[LivenessClaim]:
    header, claims = rows[0], []
    for row in rows[1:]:
        situation = row[0]
        if situation not in SITUATIONS:
            continue
        for column, cell in zip(header, row, strict=False):
            named = _named(column, order)
            if not named or cell == "not judged":
                continue
            said = {STUCK: (), REFUSED: ()} | {
                _STATE_OF[m.group("state")]: _mode_list(m.group("modes"))
                for m in _CELL_PART.finditer(cell)
            }
            claims += [
                LivenessClaim(tuple(named), situation, state, modes, DOCUMENTED_SCOPE,
                              f"{situation} | {column} | {cell}")
                for state, modes in said.items()
            ]  # fmt: skip
    return claims


def liveness_claims(text: str, order: Sequence[str]) -> list[LivenessClaim]:
    """What a text says of the situations on ``openai-agents`` releases ``order``: in a verdict
    table (a release range per row, the kinds per column), in a situation table (a situation per
    row, a release range per column) and in a sentence naming one release or range."""
    claims: list[LivenessClaim] = []
    for rows in _tables(text):
        header = rows[0]
        if header and header[0] == "openai-agents":
            claims += _verdict_table_claims(rows, order)
        elif header and header[0] == "situation":
            claims += _situation_table_claims(rows, order)
    prose = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("|"))
    for statement in statements(prose):
        if not _about(statement, "openai-agents") or len(VERSION.findall(statement)) != 1:
            continue
        named = _named(statement, order)
        scope = UNKNOWN_SCOPE if "no public source" in statement else DOCUMENTED_SCOPE
        for m in _SAID.finditer(statement) if named else ():
            for who in m.group("who").split(", "):
                if who in SITUATIONS:
                    claims.append(
                        LivenessClaim(tuple(named), who, _STATE_OF[m.group("state")],
                                      _mode_list(m.group("modes")), scope, statement.strip())
                    )  # fmt: skip
    return claims


def liveness_disagreements(
    text: str, verdicts: Sequence[ReleaseVerdict]
) -> list[tuple[str, LivenessClaim, tuple[str, ...]]]:
    """Each (release, claim, the record's modes) where a text says a situation reaches a state
    in other modes than the record holds for it under the same answers: a table cell, a row of
    the verdict table or a sentence."""
    by = {v.release: v for v in verdicts}
    wrong = []
    for claim in liveness_claims(text, [v.release for v in verdicts]):
        for release in claim.releases:
            held = {
                m
                for v in by[release].liveness
                if (v.situation, v.state) == (claim.situation, claim.state)
                and v.kind in claim.scope
                for m in v.modes
            }
            if held != set(claim.modes):
                wrong.append((release, claim, tuple(sorted(held))))
    return wrong
