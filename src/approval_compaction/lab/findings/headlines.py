"""Headlines: each notebook's answer, in a line or two, from the committed findings.

A notebook's first cell states its answer before any evidence. The cell cannot compute, so the
answer is written into it, between two markers, by ``share.headlines`` when ``make run``
executes the notebooks: each function here reads the finding records (``load.Findings``, the
explore searches) and returns one short markdown answer whose values all come from them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...analysis.liveness import LIVENESS_NAMES
from ...errors import InvestigationError
from ...formats.markdown import code
from .. import paths
from ..releases.later_turns_patch import DOCUMENTED_LIMIT
from .liveness import REFUSED
from .load import Findings
from .releases import Era
from .tables import fixed_in_cases
from .verdict import (
    BUG,
    CONTRACT,
    CONTRACT_MODE,
    STATE_WORDS,
    UNKNOWN,
    breach_kind,
    kind_tally,
    of,
)

if TYPE_CHECKING:
    from ..explore.search import SearchResult


class HeadlineError(InvestigationError):
    """The findings a notebook's answer needs are missing from ``data/``."""


def _pinned(found: Findings) -> str:
    if not (found.pinned and found.pinned.releases):
        raise HeadlineError("the answers need data/matrix.json")
    return found.pinned.releases[0]


def _error(found: Findings, mode: str) -> tuple[str, str]:
    """The API's refusal a user meets in ``mode``, and where it is met."""
    for error in found.errors_met:
        if mode in error.modes.split(", "):
            return error.api_message, error.stages.replace("_", " ")
    raise HeadlineError(f"no refusal met in {mode} mode")


CALL_ID = re.compile(r"(call(?:_id)? )[\w-]+\.$")


def any_call(message: str) -> str:
    """The API's message with the call id it names left to the reader's own (``<call id>``):
    the id is the user's, and each run of a notebook numbers its own."""
    return CALL_ID.sub(r"\1<call id>.", message)


def _action(found: Findings) -> str:
    """What a team does: upgrade to the fixing release, or wrap the session until then."""
    fixed = f"Upgrade to {found.fixed_in} or, until then, wrap" if found.fixed_in else "Wrap"
    return (
        f"**What to do.** {fixed} the session in `defer_compaction_while_pending` (notebook 06); "
        "`doctor scan` finds stored sessions the bug already broke (notebook 07)."
    )


def walkthrough(found: Findings) -> str:
    """01: where the user meets the bug in the default mode and in the report's mode."""
    auto, at = _error(found, "auto")
    report, then = _error(found, "input")
    return (
        f"**Answer.** On {_pinned(found)}, in the default `auto` mode the run cannot pause: the "
        f"compaction request at the {at} is refused with HTTP 400 ({code(any_call(auto))}), "
        "`Runner.run` raises, and there is nothing to approve. In `input` mode the pending call "
        f"is compacted away, the approval and the resume work, and the {then} is refused "
        f"({code(any_call(report))}).\n\n{_action(found)}"
    )


def stored_vs_sent(found: Findings) -> str:
    """02: where the orphan output is first stored and first sent."""
    era = _era_of(found, _pinned(found))
    return (
        f"**Answer.** With compaction on, the output without its call is first stored at "
        f"`{era.orphan_stored}` and first sent to the model at `{era.orphan_to_model}`; with "
        "compaction off, nothing unpaired is stored or sent."
    )


def _era_of(found: Findings, release: str) -> Era:
    if found.releases is None:
        raise HeadlineError("the answers need data/sweep.json")
    for era in found.releases.eras:
        first, _, last = era.span.partition("..")
        order = list(found.releases.versions)
        if order.index(first) <= order.index(release) <= order.index(last or first):
            return era
    raise HeadlineError(f"{release} is not in the sweep")


def inside_the_sdk(found: Findings) -> str:
    """03: the function and the check that moved."""
    m = found.mechanism
    if m is None:
        raise HeadlineError("the answers need data/mechanism.json")
    return (
        f"**Answer.** In {m.old}, `{m.function}` drops unpaired calls only under "
        f"{code(m.old_block)} (line {m.old_line}), so it compacts at the "
        f"{', '.join(m.old_compacts_at)}; {m.new} runs that check under {code(m.new_block)}."
    )


def violation_matrix(found: Findings) -> str:
    """04: how many cases break an invariant, and the one choice they share."""
    pinned = found.pinned
    if pinned is None:
        raise HeadlineError("the answers need data/matrix.json")
    shared = f": exactly those with `{pinned.violating_choice}`" if pinned.violating_choice else ""
    return (
        f"**Answer.** On {_pinned(found)}, {pinned.violating} of {pinned.cases} cases violate an "
        f"invariant{shared}."
    )


def releases(found: Findings) -> str:
    """05: the ranges of releases, and the fix."""
    if found.releases is None or found.fixed_in is None:
        raise HeadlineError("the answers need data/sweep.json and data/fix-releases.json")
    spans = ", ".join(f"`{era.span}`" for era in found.releases.eras)
    violating, cases = fixed_in_cases(found.releases, found.fixed_in)
    return (
        f"**Answer.** Every release from {found.releases.versions[0]} loses the pending call, "
        "but what the user meets changes, so the releases fall into ranges that read the same: "
        f"{spans}. {found.fixed_in} is the first where {violating} of {cases} cases break an "
        f"invariant.\n\n{_action(found)}"
    )


def workaround(found: Findings) -> str:
    """06: the workaround's verdicts and compactions."""
    fixed = found.fixed
    if fixed is None:
        raise HeadlineError("the answers need data/fix-matrix.json")
    return (
        f"**Answer.** Yes: with the workaround on {', '.join(fixed.releases)}, "
        f"{fixed.violated} of {fixed.verdicts} checks (each invariant on each case) fail, and "
        f"{fixed.compacting} of {fixed.compaction_on} cases with compaction on still compact: "
        "compaction waits for the call's output instead of being switched off. "
        f"{found.fixed_in or 'The fixing release'} does the same on its own.\n\n"
        "**What to do.** Wrap the session in `defer_compaction_while_pending` on an affected "
        "release; on the fixing release, keep it if your users can leave an approval unanswered."
    )


def am_i_affected(found: Findings) -> str:
    """07: the doctor's four answers, one short item each."""
    if not (found.affected and found.upgrade and found.worker and found.heal):
        raise HeadlineError("the answers need data/doctor-*.json")
    pinned, newest = found.affected
    up, heal = found.upgrade, found.heal
    return "\n".join(
        [
            "**Answers.**",
            "",
            f"1. With the defaults, {pinned.release} is affected at {len(pinned.affected_at)} of "
            f"{len(pinned.rows)} pause positions; {newest.release} at "
            f"{len(newest.affected_at)}.",
            f"2. Upgrading {'heals' if up.heals else 'does not heal'} a poisoned store: "
            f"{up.newest}'s next turn on it is "
            f"{up.poisoned.next_turn}; after `doctor repair` it is {up.repaired.next_turn}.",
            f"3. Another worker resumes exactly as the process does: "
            f"{'yes' if found.worker.same else 'no'}.",
            f"4. `doctor scan` finds {heal.before.get('poisoned', 0)} of {heal.sessions} test "
            f"sessions poisoned; after `doctor repair --apply`, "
            f"{heal.after.get('poisoned', 0)}.",
        ]
    )


def exploration(found: Findings, folder: Path = paths.DATA) -> str:
    """08: how many counterexamples each search kept."""
    from ..explore.replay import load_results

    results = load_results(folder)
    if not results:
        raise HeadlineError("the answers need data/explore-*.json")
    unfixed = sorted((r for r in results.values() if not r.fix), key=lambda r: _key(r.sdk_version))
    fixed = [r for r in results.values() if r.fix]
    if not unfixed:
        raise HeadlineError("the answers need a search without the workaround")
    old, new = unfixed[0], unfixed[-1]
    lost = _kinds(f for f in old.findings if not set(f.invariants) <= set(LIVENESS_NAMES))
    bugs = [f for f in new.findings if _breach(f) == BUG]
    said = [
        f"**Answer.** On {old.sdk_version}, every kind of approval loses its pending call at the "
        f"pause: {lost}."
    ]
    if fixed:
        broke = sum(len(r.findings) for r in fixed)
        said.append(
            "With the workaround no conversation breaks an invariant."
            if broke == 0
            else f"With the workaround {broke} conversations still break an invariant."
        )
    if new is not old:
        after = f"after a {_kinds(bugs)} request nobody answers (a bug), and " if bugs else ""
        said.append(
            f"On {new.sdk_version} the call is kept; compaction still stops for good {after}after "
            f"any kind, in `{CONTRACT_MODE}` mode, as the SDK documents "
            f'("{DOCUMENTED_LIMIT}").'
        )
    said.append(
        "\n\n**What to do.** Keep the pairing check for every kind of approval (the fixing "
        "release does); the stopped compaction has a proposed patch (notebook 10)."
    )
    return " ".join(said).replace(" \n", "\n")


KIND_NAMES = {
    "function_approval": "function tool",
    "custom_approval": "custom tool",
    "shell_approval": "shell tool",
    "apply_patch_approval": "apply_patch tool",
    "mcp_approval": "hosted MCP approval",
}


def _kinds(findings: Iterable[Any]) -> str:
    """The kinds of approval the findings pause on, in plain words, each once."""
    names = dict.fromkeys(KIND_NAMES.get(k, k) for f in findings for _, k in f.pairs if k != "-")
    return ", ".join(names)


def _breach(finding: Any) -> str:
    return breach_kind(finding.trace.conversation.mode, finding.invariants)


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def explored_count(result: SearchResult) -> str:
    """How many conversations a search kept, and of which kind (``19 (14 bugs, ...)``)."""
    kinds = [breach_kind(f.trace.conversation.mode, f.invariants) for f in result.findings]
    return f"{len(kinds)} ({kind_tally(kinds)})" if kinds else "0"


def the_wire(found: Findings) -> str:
    """09: where the user meets each refusal over HTTP."""
    auto, at = _error(found, "auto")
    report, then = _error(found, "input")
    return (
        f"**Answer.** On {_pinned(found)}, `auto` and `previous_response_id` raise at the {at} "
        f"({code(any_call(auto))}); `input` raises at the {then} ({code(any_call(report))}). "
        "The body the API refuses is the one the runner built: the SDK's conversion adds no "
        f"fault.\n\n{_action(found)}"
    )


def after_the_fix(found: Findings) -> str:
    """10: on the fixing release, which situations the API refuses or stop compacting, and in
    which modes, by kind as the release's verdict record sorts them."""
    if found.liveness is None or found.fixed_in is None or not found.verdicts:
        raise HeadlineError("the answers need data/sweep-liveness.json")
    record = of(found.verdicts, found.fixed_in)
    lead = {
        BUG: "Bugs",
        CONTRACT: "The SDK's documented contract",
        UNKNOWN: "Not counted, as no public source shows the compaction answer they need",
    }
    parts = []
    for kind, words in lead.items():
        grouped: dict[tuple[str, tuple[str, ...]], list[str]] = {}
        for v in record.of_kind(kind):
            grouped.setdefault((v.state, v.modes), []).append(f"**{v.situation}**")
        said = [_liveness_clause(state, modes, names) for (state, modes), names in grouped.items()]
        if said:
            parts.append(f"{words}: " + "; ".join(said) + ".")
    if not parts:
        return f"**Answer.** Yes: on {found.fixed_in} every situation keeps compacting."
    return (
        f"**Answer.** No, not always, on {found.fixed_in}. " + " ".join(parts) + "\n\n"
        "**What to do.** Wrap the session in `defer_compaction_while_pending`: it retires a "
        "call nobody will answer, so compaction goes on; `doctor repair` heals a poisoned "
        "store; the SDK patch proposed upstream is at the end."
    )


def _liveness_clause(state: str, modes: tuple[str, ...], names: list[str]) -> str:
    """``**a**, **b** stop compacting (`input`)``, or the API refusing the later turns."""
    where = ", ".join(f"`{m}`" for m in modes)
    if state == REFUSED:
        return f"the API refuses every later turn of {', '.join(names)} ({where})"
    verb = STATE_WORDS.get(state, state) if len(names) == 1 else "stop compacting"
    return f"{', '.join(names)} {verb} ({where})"


def appendix(found: Findings, folder: Path = paths.DATA) -> str:
    """12: the smallest part of the fixing release's diff that fixes a function tool's approval."""
    from ..mechanism.anatomy import load_anatomy
    from ..mechanism.views import outcome_word

    path = paths.data(folder).fix_anatomy
    if not path.exists() or found.mechanism is None:
        raise HeadlineError("the answers need data/fix-anatomy.json and data/mechanism.json")
    an, m = load_anatomy(path), found.mechanism
    if found.releases is None:
        raise HeadlineError("the answers need data/sweep.json")
    pieces = "one of them is" if len(an.minimal_fix) == 1 else f"{len(an.minimal_fix)} of them are"
    stored = next((e for e in found.releases.eras if e.orphan_stored != "never"), None)
    why = (
        f" The next turn fails only from {stored.span.partition('..')[0]} because from there "
        "the resume no longer compacts, so the output without its call stays stored."
        if stored
        else ""
    )
    return (
        f"**Answer.** For a function tool's approval, yes. {m.new}'s diff of the files on the "
        f"bug's path falls into {len(an.hunks)} separate changes; {pieces} the whole fix: the "
        f"pairing check of `{m.function}` moved under {code(m.new_block)}. {m.old} with it "
        f"alone: {an.minimal_outcome.verdict}; {m.new} with every other change reverted: "
        f"{outcome_word(an.rest_reverted)}.{why}"
    )


def javascript(found: Findings) -> str:
    """11: whether the JS SDK loses the call too, where ``run()`` raises, and on which releases."""
    js = found.js
    if js is None:
        raise HeadlineError("the answers need data/js-sweep.json, js-modes.json, js-exposure.json")
    pause, later = js.plan("auto"), js.plan("input")
    hit = sorted({r.sdk_version for r in js.sweep if r.violating})
    releases = len({r.sdk_version for r in js.sweep})
    return (
        f"**Answer.** Yes: on `@openai/agents` {js.version}, with `auto` (default) `run()` "
        f"raises at the pause ({code(pause.api_message)}); with `input` the output is stored "
        f"alone and the next question raises ({code(later.api_message)}). {len(hit)} of "
        f"{releases} releases with the session break an invariant in at least one mode."
    )


def adk(found: Findings) -> str:
    """13: which google-adk releases are affected, which never compact, and the pinned
    release's verdict with what is left after later turns (the one verdict record)."""
    from ..js.sweep import NEVER_COMPACTED
    from ..releases.bisect import marked_ranges
    from .verdict import AFFECTED, STATE_WORDS, of

    adk = found.adk
    if adk is None or not adk.verdicts:
        raise HeadlineError("the answers need data/adk-sweep.json and its liveness file")
    order = [v.release for v in adk.verdicts]
    hit = marked_ranges(order, {v.release: v.word == AFFECTED for v in adk.verdicts})
    idle = {v.release: any(NEVER_COMPACTED in m.severity for m in v.modes) for v in adk.verdicts}
    never = marked_ranges(order, idle)
    pinned = of(adk.verdicts, adk.version)
    left = "; ".join(
        f"{x.situation} {STATE_WORDS[x.state]} ({', '.join(x.modes)})" for x in pinned.of_kind(BUG)
    )
    kinds = list(  # the kinds that never compact on those releases (the others compact there)
        dict.fromkeys(
            m.mode
            for v in adk.verdicts
            if idle[v.release]
            for m in v.modes
            if NEVER_COMPACTED in m.severity
        )
    )
    others = len({m.mode for v in adk.verdicts for m in v.modes}) > len(kinds)
    but = "; the other kinds compact there" if others else ""
    never_text = (
        f" On {', '.join(never)} the App's compaction never runs in {', '.join(kinds)}{but}."
        if never
        else ""
    )
    return (
        f"**Answer.** `google-adk` {', '.join(hit)} lose the call waiting for confirmation "
        f"(the resume raises).{never_text} On `google-adk` {adk.version}, the pinned release, "
        f"no case breaks an invariant in any compaction kind; its verdict is "
        f"{pinned.word}: {left or 'none'}."
    )


HEADLINES: dict[str, Callable[[Findings], str]] = {
    "01": walkthrough,
    "02": stored_vs_sent,
    "03": inside_the_sdk,
    "04": violation_matrix,
    "05": releases,
    "06": workaround,
    "07": am_i_affected,
    "08": exploration,
    "09": the_wire,
    "10": after_the_fix,
    "11": javascript,
    "12": appendix,
    "13": adk,
}
