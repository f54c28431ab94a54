"""Replay: a saved counterexample rerun and shown step by step with the study's tables.

A counterexample file holds a ``Finding``: the shrunk conversation, the release and workaround
it was found on, whether it is the original report's case, and the run as found. ``replay``
runs the conversation again on the installed release; the tables are the ones the notebooks
use for a case's stages (``display.views.stage_summary``, ``display.frames.items_frame``), one
stage per step.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ...formats.records import read_json, write_json
from ...study.capture import CaseRun
from ...study.scenario import Case
from .. import paths
from ..releases.patched import one_label
from .conversation import MODES as MODES  # re-exported: the order shrinking tries (notebook 08)
from .conversation import Trace, pending_of
from .search import Finding, SearchResult

if TYPE_CHECKING:  # the tables need pandas; a search that only saves its findings does not
    import pandas as pd

LIVENESS_NAMES = ("compaction_runs", "history_bounded")  # ``analysis.properties.LIVENESS``
DIGEST = "[0-9a-f]{12}"  # ``Conversation.digest``: twelve hex digits


def package_of(sdk: str) -> str:
    """The package a driver's short name stands for (``openai-agents``: the Python search's)."""
    from .sdks import registry

    lines = registry()
    return lines[sdk]().moves.package if sdk in lines else "openai-agents"


def load(path: Path) -> Finding:
    """A counterexample file, or one line saying why it cannot be read."""
    return read_json(path, Finding.from_json)


def save(finding: Finding, folder: Path) -> Path:
    """Write a finding as ``counterexamples/<release>[-fix]-<digest>.json`` under the data
    folder: one name for the same steps."""
    path = paths.data(folder).counterexample(finding.name)
    write_json(path, finding.to_json(), indent=1, sort_keys=True)
    return path


def save_result(result: SearchResult, folder: Path) -> list[Path]:
    """The search's summary as ``explore-<release>[-fix].json``, and each counterexample; the
    counterexamples an earlier search of the same release and variant saved and this one did not
    find are removed (the summary names every file of its search)."""
    layout = paths.data(folder)
    summary = layout.explore(result.sdk_version, result.fix, result.sdk)
    write_json(summary, result.to_json(), indent=1, sort_keys=True)
    written = [summary, *(save(f, folder) for f in result.findings)]
    sdk = f"{result.sdk}-" if result.sdk else ""
    fix = "-fix" if result.fix else ""
    stem = re.compile(re.escape(f"{sdk}{result.sdk_version}{fix}-") + DIGEST)
    for old in layout.counterexamples.glob("*.json"):
        if stem.fullmatch(old.stem) and old not in written:
            old.unlink()
    return written


def load_result(path: Path) -> SearchResult:
    return read_json(path, SearchResult.from_json)


def as_case_run(trace: Trace) -> CaseRun:
    """The trace in the shape the study's views read: one stage per step, named by its role."""
    return CaseRun(Case(), trace.sdk_version, [r.stage for r in trace.records], 0, 0)


def step_label(index: int, trace: Trace) -> str:
    return f"{index}: {trace.records[index].step.label()}"


BRIEF = [  # the summary columns that tell a counterexample's story
    "outcome",
    "compaction_requests",
    "tool_dispatches",
    "to compaction: open calls",
    "stored: orphan outputs",
    "to model: orphan outputs",
    "violated",
]


def summary(trace: Trace, brief: bool = False) -> pd.DataFrame:
    """Per step: what it did, what it sent and stored, and the invariants it broke."""
    from ...display.views import stage_summary

    frame = stage_summary(as_case_run(trace)).reset_index(drop=True)
    frame.insert(0, "step", [step_label(r.index, trace) for r in trace.records])
    frame.insert(1, "outcome", [r.outcome for r in trace.records])
    frame["violated"] = [", ".join(j.invariant for j in r.violations) for r in trace.records]
    frame = frame.set_index("step")
    return frame[BRIEF] if brief else frame


def tables(trace: Trace) -> Iterator[tuple[str, pd.DataFrame]]:
    """Each step's item tables: every compaction input, the last model input, the history."""
    from ...display.frames import items_frame

    pending = [str(i.get("call_id") or i.get("id")) for i in pending_of(trace.records)]
    for record in trace.records:
        label = step_label(record.index, trace)
        stage = record.stage
        for n, sent in enumerate(stage.compaction_inputs):
            yield f"{label}: compaction request {n + 1}", items_frame(sent, pending)
        if stage.model_inputs:
            yield f"{label}: last model input", items_frame(stage.model_inputs[-1], pending)
        yield f"{label}: stored history", items_frame(stage.stored, pending)


def same_violations(found: Trace, again: Trace) -> bool:
    """Whether a rerun breaks the same invariants at the same steps as the saved run."""

    def key(trace: Trace) -> list[tuple[int, str]]:
        return sorted((index, j.invariant) for index, j in trace.violations)

    return key(found) == key(again)


def text(finding: Finding, again: Trace | None = None) -> str:
    """The counterexample as plain text: its label, steps, summary and item tables."""
    trace = again or finding.trace
    pairs = ", ".join(f"{i} ({k})" for i, k in finding.pairs)
    conversation = trace.conversation
    lines = [f"counterexample {finding.name}: {pairs}"]
    if conversation.sdk:  # a driver's: known as one of its hand-picked situations, or new
        known = f"known: the hand-picked {finding.known_as}"
        new = "NEW: no hand-picked situation or case has its shape"
    else:
        known = f"known: the original report's case ({finding.known_as})"
        new = "NEW: not the original report's case"
    lines.append(known if finding.label == "known" else new)
    package = package_of(conversation.sdk)
    lines.append(f"found on {package} {finding.trace.sdk_version}; shown on {trace.sdk_version}")
    if again is not None:
        same = same_violations(finding.trace, again)
        lines.append("rerun: " + ("same violations" if same else "DIFFERENT violations"))
    if conversation.sdk:
        lines += [", ".join(f"{k} {v}" for k, v in conversation.options.items())]
    else:
        lines += [f"mode {conversation.mode}, workaround {'on' if conversation.fix else 'off'}"]
    lines += ["", summary(trace).to_string(), ""]
    for title, frame in tables(trace):
        lines += [title, frame.to_string() if len(frame) else "(empty)", ""]
    return "\n".join(lines)


def load_results(folder: Path) -> dict[str, SearchResult]:
    """Every ``explore-*.json`` under ``folder``, keyed by release and variant; a one-line error
    when they mix a patched SDK's results with a release's."""

    found = {}
    for path in paths.data(folder).explore_results():
        result = load_result(path)
        found[f"{result.sdk_version}{' + workaround' if result.fix else ''}"] = result
    one_label((r.patch for r in found.values()), f"the explore results in {folder}")
    return found


def coverage(results: dict[str, SearchResult]) -> pd.DataFrame:
    """What each search covered: its tally of rules, choices and outcomes, one column each."""
    import pandas as pd

    frame = pd.DataFrame({name: r.tally for name, r in results.items()}).fillna(0).astype(int)
    return frame.sort_index()


def rounds_frame(results: dict[str, SearchResult]) -> pd.DataFrame:
    """How each search ran: its budget per round, the rounds it ran and whether the last one ran
    dry, then the conversations it started in each mode (its tally: a round may start more than
    its budget, hypothesis counting only those it draws whole, and a round that broke re-runs
    conversations to shrink its counterexample)."""
    import pandas as pd

    rows = {
        "budget per round": {n: str(r.examples) for n, r in results.items()},
        "rounds run": {n: str(r.rounds) for n, r in results.items()},
        "last round ran dry": {n: "yes" if r.exhausted else "no" for n, r in results.items()},
    }
    ran = coverage(results)
    for mode in [m for m in ran.index if m.startswith("mode: ")]:
        rows[f"conversations started, {mode[6:]} mode"] = ran.loc[mode].astype(str).to_dict()
    return pd.DataFrame(rows).T[list(results)]


def findings_table(results: dict[str, SearchResult]) -> pd.DataFrame:
    """One row per shrunk counterexample: where, what it breaks (with the kinds of approval
    whose items broke it; a refusal, which names no item, with the kinds its conversation
    asked), known or new, its steps."""
    rows = [
        {
            "search": name,
            "counterexample": f.name,
            "mode": f.trace.conversation.mode,
            "breaks": ", ".join(f"{i} ({k})" for i, k in attributed(f)),
            "label": f.label,
            "known as": f.known_as,
            "steps": " → ".join(s.label() for s in f.trace.conversation.steps),
        }
        for name, result in results.items()
        for f in result.findings
    ]
    columns = ["search", "counterexample", "mode", "breaks", "label", "known as", "steps"]
    import pandas as pd

    return pd.DataFrame(rows, columns=columns)


def refusals_table(results: dict[str, SearchResult], invariant: str) -> pd.DataFrame:
    """One row per step of a conversation kept for breaking ``invariant`` (one of the two
    ``*_accepted``) that broke it: where, the step, and the judge's detail (the refused request's
    status, endpoint and the API's words)."""
    rows = [
        {
            "search": name,
            "counterexample": f.name,
            "mode": f.trace.conversation.mode,
            "step": r.step.label(),
            "refused": j.detail,
        }
        for name, result in results.items()
        for f in result.findings
        if invariant in f.invariants
        for r in f.trace.records
        for j in r.violations
        if j.invariant == invariant
    ]
    import pandas as pd

    return pd.DataFrame(rows, columns=["search", "counterexample", "mode", "step", "refused"])


def attributed(finding: Finding) -> list[tuple[str, str]]:
    """Each (invariant, kind) pair of a finding, its kind as the findings table names it
    (``_kind``: every kind left open for a liveness break, the kinds asked for a refusal)."""
    return [(i, _kind(finding, k, i)) for i, k in finding.pairs]


def _kind(finding: Finding, kind: str, invariant: str = "") -> str:
    """The kind a pair names, or for ``-`` (a refused request names no offending item) the
    kinds of approval the conversation's ``ask`` steps called. A liveness pair names the one
    open call the judge says pins the history (the earliest); when the history the conversation
    ends on holds open calls of other kinds too, any of them may be what stops compaction, so
    the pair names them all, joined by ``+`` (``mcp_approval + function_approval``)."""
    if invariant in LIVENESS_NAMES and finding.trace.records:
        from ...analysis.liveness import pins
        from .kinds import kind_of

        stored = finding.trace.records[-1].stage.stored
        held = [kind_of(p.key) for p in pins(stored) if p.problem == "open call"]
        if kind in held and len(set(held)) > 1:
            return " + ".join(dict.fromkeys([kind, *held]))
    if kind != "-":
        return kind
    asked = {c for s in finding.trace.conversation.steps if s.action == "ask" for c in s.calls}
    return ", ".join(sorted(asked)) or kind


def holds_table(results: dict[str, SearchResult]) -> pd.DataFrame:
    """Per search: whether its last round ran dry, each invariant it broke, each no example
    broke, each no step was judged on, and each of the study's twelve it did not search for (so
    every row accounts for all twelve)."""
    from ...analysis.invariants import INVARIANTS

    rows = [
        {
            "search": name,
            "rounds": r.rounds,
            "ran dry": "yes" if r.exhausted else "no",
            "broke": ", ".join(n for n in r.invariants if n in _broken(r)),
            "holds": ", ".join(r.holds) if r.exhausted else "(budget ran out first)",
            "never judged": ", ".join(r.never_judged),
            "not searched for": ", ".join(n for n in INVARIANTS if n not in r.invariants),
            "skipped kinds": ", ".join(f"{k}: {why}" for k, why in r.skipped.items()),
        }
        for name, r in results.items()
    ]
    import pandas as pd

    frame = pd.DataFrame(rows).set_index("search")
    return frame.loc[:, (frame != "").any()]  # a column empty for every search says nothing


def invariants_table(results: dict[str, SearchResult]) -> pd.DataFrame:
    """One row per invariant of the study's twelve: its rule, and per search what the search
    says of it: ``broke`` (a kept conversation broke it), ``holds`` (judged, never broken, and
    the search ran dry), ``not judged`` (no step played its stage), ``not searched for``, or
    ``budget ran out`` (judged and never broken, by a search that did not run dry)."""
    import pandas as pd

    from ...analysis.properties import DEFINITIONS, LIVENESS

    def said(result: SearchResult, name: str) -> str:
        if name not in result.invariants:
            return "not searched for"
        if name in _broken(result):
            return "broke"
        if name in result.never_judged:
            return "not judged"
        return "holds" if result.exhausted else "budget ran out"

    rows = [
        {"invariant": i.name, "requires": i.meaning}
        | {search: said(r, i.name) for search, r in results.items()}
        for i in (*DEFINITIONS, *LIVENESS)
    ]
    return pd.DataFrame(rows).set_index("invariant")


CONTRACT_MODE = "previous_response_id"  # the mode the SDK documents stops compacting


def break_kind(mode: str, invariants: Iterable[str]) -> str:
    """``documented`` when a conversation breaks only the liveness invariants in
    ``previous_response_id`` mode (the SDK documents that this mode stops compacting while a
    call has no output: "explicit previous_response_id mode requires complete coverage"),
    else ``bug``."""
    return (
        "documented" if mode == CONTRACT_MODE and set(invariants) <= set(LIVENESS_NAMES) else "bug"
    )


def marked_invariants(results: dict[str, SearchResult]) -> pd.DataFrame:
    """``invariants_table`` with each ``broke`` saying what broke it: ``broke (bug)``,
    ``broke (documented)``, or both when a bug and the documented contract each did."""
    table = invariants_table(results)
    for search, result in results.items():
        kinds: dict[str, set[str]] = {}
        for f in result.findings:
            kind = break_kind(f.trace.conversation.mode, f.invariants)
            for invariant in f.invariants:
                kinds.setdefault(invariant, set()).add(kind)
        for invariant, said in kinds.items():
            table.loc[invariant, search] = f"broke ({' and '.join(sorted(said))})"
    return table


def _broken(result: SearchResult) -> set[str]:
    """The invariants some kept conversation of a search broke."""
    return {invariant for f in result.findings for invariant, _ in f.pairs}


CASE_CHOICES = ("runner", "decision", "compaction", "state_boundary")  # a case label's order


def case_label(settings: str) -> str:
    """``runner=run,compaction=on`` as the case label ``run/*/on/*`` (``*``: any choice)."""
    said = dict(part.split("=") for part in settings.split(",") if "=" in part)
    return "/".join(said.get(choice, "*") for choice in CASE_CHOICES) if said else ""


def counterexamples(results: dict[str, SearchResult]) -> dict[str, pd.DataFrame]:
    """Notebook 08's tables: each shrunk conversation once, with the searches that kept it, per
    mode: ``search``, ``is`` (``break_kind``), ``breaks``, ``steps`` and ``known`` (the case of
    the sixteen it is or starts as, ``the pause refusal`` for a compaction refused at the pause,
    else ``new``). A refusal at the pause (one ``ask`` step, filed under ``next_turn_accepted``)
    reads as ``the pause refused (filed as next_turn_accepted)``."""
    found = findings_table(results).drop(columns="counterexample")  # one row per conversation
    modes = [
        (f.trace.conversation.mode, f.invariants) for r in results.values() for f in r.findings
    ]
    found.insert(2, "is", [break_kind(mode, broken) for mode, broken in modes])
    at_pause = found["mode"].eq(CONTRACT_MODE) & ~found["steps"].str.contains("→")
    if not found.loc[at_pause, "breaks"].str.startswith("next_turn_accepted").all():
        raise ValueError("a one-step conversation broke more than the refusal at the pause")
    found.loc[at_pause, "breaks"] = "the pause refused (filed as next_turn_accepted)"
    known = found["known as"].map(case_label).where(found["label"].eq("known"), "new")
    found["known"] = known.mask(at_pause, "the pause refusal")
    found = found.drop(columns=["label", "known as"])
    same = [col for col in found.columns if col != "search"]  # one row per conversation kept
    found = found.groupby(same, sort=False)["search"].agg(", ".join).reset_index()[found.columns]
    return {str(mode): rows.drop(columns="mode") for mode, rows in found.groupby("mode")}
