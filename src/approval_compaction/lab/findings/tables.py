"""Tables: the findings the README, the report and the snippets publish, as frames of values.

Each function takes finding records (``load.Findings`` and its parts) and returns a DataFrame;
the publishing modules render it as a GitHub table and write the sentences around it by hand.
A cell holds a value or a short label from one vocabulary defined here (``MEETS`` for what a
user meets, ``SITUATION_WORDS`` for the liveness situations), never a composed sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pandas as pd

from ...study.words import SITUATIONS
from ...wire.rules import ApiError
from ..releases.bisect import marked_ranges, release_range
from ..releases.later_turns import LIVENESS_MODES
from ..releases.versions import PACKAGE, sort_versions
from .doctor import Check, Upgrade
from .fix import Crosscheck
from .liveness import (
    KEEPS,
    LIVENESS_CELLS,
    REFUSED,
    SITUATION_WORDS,
    LivenessEras,
)
from .matrix import Seen, StoreStory
from .mechanism import Mechanism
from .releases import (
    MEETS,
    ErrorMet,
    Releases,
)
from .verdict import (
    BUG,
    CONTRACT,
    STATE_WORDS,
    UNKNOWN,
    LivenessVerdict,
    ModeCases,
    ReleaseVerdict,
    grouped,
)

if TYPE_CHECKING:  # load reads the SDKs' findings, which read these tables
    from .load import Findings

MODE_LABEL: dict[str, str] = {"auto": "auto (default)"}
# The agent's ModelSettings(store=...) by its word: the row labels of the store table.
STORE_LABEL: dict[str, str] = {"default": "not set (default)", "true": "True", "false": "False"}


@dataclass(frozen=True)
class ModeCell:
    """What the user meets in one compaction mode on one range of releases."""

    releases: str
    count: int
    mode: str
    severity: str
    raising: int
    cases: int


def mode_cells(found: Releases) -> tuple[ModeCell, ...]:
    """Each range of releases with one pattern, in each compaction mode, from the sweep."""
    counts = {era.span: era.count for era in found.eras}
    return tuple(
        ModeCell(s.span, counts.get(s.span, 0), s.mode, s.severity, s.raising, s.cases)
        for s in found.stories
    )


def _meets(cell: ModeCell) -> str:
    said = MEETS.get(cell.severity, cell.severity)
    return f"{said} ({cell.raising} of {cell.cases} cases)" if cell.raising else said


def affected_frame(found: Releases) -> pd.DataFrame:
    """Release range by compaction mode: what a user of the Responses API meets."""
    cells = mode_cells(found)
    ranges = list(dict.fromkeys(c.releases for c in cells))
    modes = [m for m in found.modes if any(c.mode == m for c in cells)]
    rows = {
        span: {
            "releases in range": next(c.count for c in cells if c.releases == span),
            **{
                MODE_LABEL.get(m, m): next(
                    (_meets(c) for c in cells if (c.releases, c.mode) == (span, m)), ""
                )
                for m in modes
            },
        }
        for span in ranges
    }
    return _fold_rows(rows, found.versions)


def _fold_rows(rows: dict[str, dict[str, object]], order: Sequence[str]) -> pd.DataFrame:
    """Consecutive ranges whose cells (but their release count) are all the same, as one row
    named by the merged range, their counts added."""
    merged: list[tuple[str, str, dict[str, object]]] = []
    for span, cells in rows.items():
        first, _, last = span.partition("..")
        same = merged and {**merged[-1][2], "releases in range": 0} == {
            **cells,
            "releases in range": 0,
        }
        if same:
            count = int(str(merged[-1][2]["releases in range"])) + int(
                str(cells["releases in range"])
            )
            merged[-1] = (merged[-1][0], last or first, {**cells, "releases in range": count})
        else:
            merged.append((first, last or first, cells))
    folded = {release_range(a, b): cells for a, b, cells in merged}
    return pd.DataFrame.from_dict(folded, orient="index").rename_axis("releases")


def store_frame(stories: Sequence[StoreStory]) -> pd.DataFrame:
    """``auto`` by the agent's ``ModelSettings(store=...)``: where its cases raise, whether the
    human can decide, what the resume and the next question do, and what the user meets."""
    rows = {}
    for s in stories:
        told = s.story
        cell = ModeCell(told.span, 1, told.mode, told.severity, told.raising, told.cases)
        rows[STORE_LABEL.get(s.store, s.store)] = {
            "raised at": told.raises_at.replace("_", " "),
            "can decide after the pause": told.can_decide,
            "resume": told.resume,
            "next question": told.next_turn,
            "what the user meets": _meets(cell),
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("ModelSettings(store=...)")


def errors_frame(errors: Sequence[ErrorMet]) -> pd.DataFrame:
    """Each error text a user can search their logs for, with where and when it is raised."""
    rows = {
        e.api_message: {
            "HTTP": e.http_status,
            "endpoint": e.endpoint,
            "raised at": e.stages.replace("_", " "),
            "modes": e.modes,
            "releases": e.releases,
        }
        for e in errors
    }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("error text")


def fixed_in_cases(found: Releases, release: str) -> tuple[int, int]:
    """(cases violating an invariant, cases) on ``release`` in the sweep."""
    for era in found.eras:
        if release in _members(found, era.span):
            return era.affected, era.cases
    raise LookupError(f"{release} is not in the sweep")


def _members(found: Releases, span: str) -> tuple[str, ...]:
    first, _, last = span.partition("..")
    order = list(found.versions)
    return tuple(order[order.index(first) : order.index(last or first) + 1])


def _situation_cell(found: LivenessEras, situation: str, release: str) -> str:
    modes = {
        verdict: [m for m in LIVENESS_MODES if release in found.judged(situation, m, verdict)]
        for verdict in LIVENESS_CELLS
    }
    shown = [verdict for verdict, found_in in modes.items() if found_in]
    if not shown:
        return "not judged"
    if len(shown) == 1:
        return LIVENESS_CELLS[shown[0]]
    return "; ".join(f"{LIVENESS_CELLS[v]} in {', '.join(modes[v])}" for v in shown if v != KEEPS)


def liveness_frame(found: LivenessEras) -> pd.DataFrame:
    """Situation by release range: is the session refused (a later turn raises), does it stop
    compacting, or does it keep compacting over the later turns (in every compaction mode, or
    which modes do not)? Consecutive releases whose cells are all the same are one column,
    named by its range."""
    columns: list[tuple[list[str], tuple[str, ...]]] = []
    for release in found.releases:
        cells = tuple(_situation_cell(found, s, release) for s in SITUATIONS)
        if columns and columns[-1][1] == cells:
            columns[-1][0].append(release)
        else:
            columns.append(([release], cells))
    data = {
        release_range(names[0], names[-1]): dict(zip(SITUATIONS, cells, strict=True))
        for names, cells in columns
    }
    frame = pd.DataFrame(data)
    frame.insert(0, "what happened", [SITUATION_WORDS.get(s, s) for s in frame.index])
    return frame.rename_axis("situation")


def stuck_on(found: LivenessEras, release: str) -> tuple[str, ...]:
    """The situations that stop compacting on ``release`` in some mode."""
    return tuple(s for s in SITUATIONS if any(release in found.stuck(s, m) for m in LIVENESS_MODES))


def refused_on(found: LivenessEras, release: str) -> tuple[str, ...]:
    """The situations whose later turns raise on ``release`` in some mode."""
    return tuple(
        s for s in SITUATIONS if any(release in found.refused(s, m) for m in LIVENESS_MODES)
    )


def check_frame(checks: Sequence[Check]) -> pd.DataFrame:
    """The doctor's check per release: configuration, pause positions tried and affected."""
    rows = {
        c.release: {
            "compaction_mode": c.config.mode,
            "trigger": c.config.trigger,
            "decision": c.config.decision,
            "pause positions": len(c.rows),
            "affected": len(c.affected_at),
            "affected after prior turns": ", ".join(map(str, c.affected_at)) or "none",
        }
        for c in checks
    }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("release")


def upgrade_frame(found: Upgrade) -> pd.DataFrame:
    """The newest release's next turn on each stored session the pinned release left."""
    records = [
        found.poisoned,
        found.repaired,
        *([found.pause_failed] if found.pause_failed else []),
    ]
    rows = {
        r.store: {
            "release": r.release,
            "next turn": r.next_turn,
            "answer": r.api_answer,
            "compaction requests": r.compaction_requests,
            "stored after": r.stored_after,
        }
        for r in records
    }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("stored session")


def verdicts_frame(before: dict[str, int], after: dict[str, int]) -> pd.DataFrame:
    """Sessions per doctor diagnosis, before and after ``doctor repair --apply``."""
    names = list(dict.fromkeys([*before, *after]))
    rows = {n: {"before repair": before.get(n, 0), "after repair": after.get(n, 0)} for n in names}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("diagnosis")


def error_texts(errors: Sequence[ErrorMet], predicted: Sequence[ApiError] = ()) -> tuple[str, ...]:
    """Every text the user's code raises, verbatim (``openai.BadRequestError: Error code: ...``),
    then each refusal the stand-in's rules predict that no run raised, as the API words it."""
    raised = [f"{e.exception}: {text}" for e in errors for text in e.texts]
    said = {e.api_message for e in errors}
    extra = [f"HTTP {p.status}: {p.message}" for p in predicted if p.message not in said]
    return tuple(dict.fromkeys([*raised, *extra]))


def mechanism_frame(found: Mechanism) -> pd.DataFrame:
    """The function responsible, where its check on open calls sits in each release, and the
    stages at which each release's traced run sent compaction requests."""
    rows = {
        found.old: {
            "function": found.function,
            "drop_orphan_function_calls runs under": found.old_block,
            "line": found.old_line,
            "compacts at": ", ".join(found.old_compacts_at),
        },
        found.new: {
            "function": found.function,
            "drop_orphan_function_calls runs under": found.new_block,
            "line": found.new_line,
            "compacts at": ", ".join(found.new_compacts_at),
        },
    }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(PACKAGE)


def seen_frame(found: Seen) -> pd.DataFrame:
    """The cases over HTTP: each way they ended with an error, and how many did."""
    rows = {
        f.message: {"stage": f.stage, "exception": f.exception, "HTTP": f.http_status}
        for f in found.failures
    }
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=["stage", "exception", "HTTP"])
    return frame.rename_axis("error over HTTP")


def seen_counts(found: Seen) -> pd.DataFrame:
    """How many cases ran over HTTP, ended with an error, and agree with the prediction."""
    rows = {
        "cases run over HTTP": found.cases,
        "cases ending with an error": found.failing,
        "failing cases are exactly the compaction-on ones": found.compaction_on_only,
    }
    if found.agreeing is not None:
        rows["cases where the scripted model's prediction agrees"] = found.agreeing
    return pd.DataFrame({"value": rows}).rename_axis("over HTTP")


def crosscheck_frame(found: Crosscheck) -> pd.DataFrame:
    """The regression test run unpatched in each swept release's environment, and with the
    workaround: the ranges where it fails and passes, and how often it agrees with the sweep."""
    order = sort_versions({*found.failing, *found.passing, *found.wrapped})

    def ranges(releases: Sequence[str]) -> str:
        return ", ".join(marked_ranges(order, {v: v in releases for v in order})) or "none"

    rows = {
        "fails on": ranges(found.failing),
        "passes on": ranges(found.passing),
        "passes with the workaround on": ranges(found.wrapped),
        "the test's cases on every release whose outcome matches the sweep": f"{found.agreed} "
        f"of {found.judged}",
    }
    return pd.DataFrame({"the test, unpatched": rows}).rename_axis("")


def fix_frame(found: Findings) -> pd.DataFrame:
    """The pinned release and the fixing one: how many of the cases violate an invariant."""
    assert found.releases is not None and found.fixed_in is not None
    pinned = found.pinned.releases[0] if found.pinned and found.pinned.releases else ""
    rows = {}
    for release in dict.fromkeys([pinned, found.fixed_in]):
        violating, cases = fixed_in_cases(found.releases, release)
        rows[release] = {"cases": cases, "cases violating an invariant": violating}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(PACKAGE)


ALL_MODES = "all modes"


def _modes(modes: Sequence[str], every: Sequence[str] = LIVENESS_MODES) -> str:
    return ALL_MODES if set(modes) >= set(every) else ", ".join(modes)


def _situations(
    found: Sequence[LivenessVerdict],
    every: Sequence[str] = LIVENESS_MODES,
    merged: bool = False,
    situations: Sequence[str] = (),
) -> str:
    """Each liveness verdict as ``situation state (modes)``, or ``none`` (``every``: the
    modes or settings that read as all of them; ``merged``: the situations in one state and
    the same modes named together, ``abandoned, lost state (modes)``, or ``every situation``
    when they are all of ``situations``)."""
    groups: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for v in found:
        key = (v.state, v.modes) if merged else (v.state, (v.situation, *v.modes))
        groups.setdefault(key, []).append(v.situation)
    said = []
    for (state, modes), names in groups.items():
        shown = modes if merged else modes[1:]
        who = "every situation" if merged and set(names) >= set(situations or "?") else ""
        said.append(f"{who or ', '.join(names)} {STATE_WORDS[state]} ({_modes(shown, every)})")
    return "; ".join(said) or "none"


def _exposure(v: ReleaseVerdict) -> str:
    said = [f"{e.mode} {e.affected} of {e.positions}" for e in v.exposure]
    return ", ".join(said) or "not measured"


def verdict_frame(
    verdicts: Sequence[ReleaseVerdict],
    settings: Mapping[str, str] | None = None,
    word: Callable[[ModeCases], str] | None = None,
    contract: bool = True,
    situations: Sequence[str] = (),
) -> pd.DataFrame:
    """One row per run of releases with the same verdict (``verdict.grouped``): the verdict,
    the sixteen cases with a hook that always says yes, the SDK's default trigger's pause
    positions affected per mode, and the liveness situations by kind. A driver's verdicts
    (``settings``: its settings as columns) show each setting's cases in its SDK's words
    (``word``) instead of the input mode's count and the default trigger."""
    if settings is not None and word is not None:
        return _driver_verdict_frame(verdicts, settings, word, contract, situations)
    rows = {}
    for span, run in grouped(verdicts):
        v = run[0]
        rows[span] = {
            "releases in range": len(run),
            "verdict": v.word,
            "cases violating an invariant (input mode)": f"{v.violating} of {v.cases}",
            "default trigger: pause positions affected": _exposure(v),
            "liveness bugs": _situations(v.of_kind(BUG)),
            "the SDK's documented contract": _situations(v.of_kind(CONTRACT)),
            "only with a compaction answer no public source shows": _situations(v.of_kind(UNKNOWN)),
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(PACKAGE)


def _driver_verdict_frame(
    verdicts: Sequence[ReleaseVerdict],
    settings: Mapping[str, str],
    word: Callable[[ModeCases], str],
    contract: bool = True,
    situations: Sequence[str] = (),
) -> pd.DataFrame:
    """A driver's verdicts: settings that share a label share a column (their words joined
    where they differ); ``contract``: with the SDK's documented contract's column."""
    every = tuple(settings)
    rows = {}
    for span, run in grouped(verdicts):
        v = run[0]
        cases = {m.mode: m for m in v.modes}
        cells: dict[str, list[str]] = {}
        for setting, label in settings.items():
            said = word(cases[setting]) if setting in cases else ""
            if said not in cells.setdefault(label, []):
                cells[label].append(said)
        row: dict[str, object] = {"releases in range": len(run), "verdict": v.word}
        row |= {label: "; ".join(said) for label, said in cells.items()}
        row["liveness bugs"] = _situations(v.of_kind(BUG), every, True, situations)
        if contract:
            row["the SDK's documented contract"] = _situations(
                v.of_kind(CONTRACT), every, True, situations
            )
        rows[span] = row
    sdk = verdicts[0].sdk if verdicts else PACKAGE
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(sdk)


def advice_frame(v: ReleaseVerdict) -> pd.DataFrame:
    """A team on one release, one row per compaction mode: the default trigger's exposure,
    what stops compacting or is refused there by kind, and what to do."""
    rows = {}
    for mode in LIVENESS_MODES:
        mine = [x for x in v.liveness if mode in x.modes]
        bugs = [x for x in mine if x.kind == BUG]
        contract = [x for x in mine if x.kind == CONTRACT]
        exposure = next((e for e in v.exposure if e.mode == mode), None)
        rows[mode] = {
            "default trigger: pause positions affected": f"{exposure.affected} of "
            f"{exposure.positions}"
            if exposure
            else "not measured",
            "bugs": ", ".join(f"{x.situation} {STATE_WORDS[x.state]}" for x in bugs) or "none",
            "documented contract": ", ".join(x.situation for x in contract) or "none",
            "after upgrading": advice(v, mode),
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("compaction_mode")


WRAP = "pass the session to defer_compaction_while_pending"
KEEP = "keep it"  # the table's title names the workaround
REPAIR = "doctor scan and doctor repair stores an affected release wrote"
# On a release no case breaks, the workaround is for sessions left with a call without its output:
# an approval unanswered (``abandoned``, ``mcp_abandoned``), or a worker dead (``lost``).
UNANSWERED = "where {what} can go unanswered ({situations} {verb} compacting without it{why})"
# The SDK documents that this mode never compacts past such a call; the workaround retires it, so
# the session compacts again (notebook 06's later turns).
DOCUMENTED = ", as the SDK documents for this mode"
# The situations that leave a function call without its output: an approval left unanswered, a
# worker dead. Where they do not stop compacting, the workaround gains nothing there.
FUNCTION_CALLS = ("abandoned", "lost")
STILL_COMPACTS = "else drop it: {situations} {verb} compacting without it"


def _unanswered(stops: Sequence[str]) -> str:
    """What can go unanswered for the workaround to be worth keeping, by the situations that
    stop compacting without it: any call once a dead worker's does, else an approval, and a
    hosted MCP approval request when that is all."""
    if "lost" in stops:
        return "any call"
    if set(stops) <= {"mcp_abandoned"}:
        return "a hosted MCP approval request"
    return "an approval"


def _stopping(v: ReleaseVerdict, mode: str) -> list[str]:
    """The situations that stop compacting (a bug or the documented contract) in one mode, each
    once, in the record's order: what ``advice`` and ``keep_where`` both read."""
    mine = [x for x in v.liveness if mode in x.modes]
    stops = [x.situation for x in mine if x.state != REFUSED and x.kind in (BUG, CONTRACT)]
    return list(dict.fromkeys(stops))


def keep_where(v: ReleaseVerdict) -> dict[str, list[str]]:
    """Where a team keeps the workaround on a release no case breaks, as ``advice`` words it per
    mode: what can go unanswered (``_unanswered``), with the modes where it stops compacting
    without the workaround; empty where nothing stops (or a case breaks: the workaround is for
    every session there)."""
    if v.violating:
        return {}
    where: dict[str, list[str]] = {}
    for mode in LIVENESS_MODES:
        if named := _stopping(v, mode):
            where.setdefault(_unanswered(named), []).append(mode)
    return where


def advice(v: ReleaseVerdict, mode: str) -> str:
    """What a team on the release does in one mode, by the kinds its record holds there: pass
    the session to the workaround on a release a case breaks; on one none breaks, keep it where
    a call can be left unanswered, naming the situations that stop compacting without it and
    the unanswered function calls that keep compacting without it."""
    mine = [x for x in v.liveness if mode in x.modes]
    contract = any(x.kind == CONTRACT for x in mine)
    named = _stopping(v, mode)
    said = [WRAP] if v.violating else []
    if named and not v.violating:
        where = UNANSWERED.format(
            what=_unanswered(named),
            situations=", ".join(named),
            verb="stop" if len(named) > 1 else "stops",
            why=DOCUMENTED if contract else "",
        )
        said = [f"{KEEP} {where}"]
        keeps = [s for s in FUNCTION_CALLS if s not in named]
        if keeps:
            verb = "keep" if len(keeps) > 1 else "keeps"
            said.append(STILL_COMPACTS.format(situations=", ".join(keeps), verb=verb))
    said += [REPAIR] if any(x.state == REFUSED for x in mine) else []
    return "; ".join(said) or "nothing"
