"""Headlines: each notebook's answer, in a line or two, from the committed findings.

A notebook's first cell states its answer before any evidence. The cell cannot compute, so the
answer is written into it, between two markers, by ``share.headlines`` when ``make run``
executes the notebooks: each function here reads the finding records (``load.Findings``, the
explore searches) and returns one short markdown answer whose values all come from them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...analysis.liveness import SDK_DEFAULT_THRESHOLD
from ...doctor.check import PAUSED, REJECTED
from ...doctor.verdict import NEEDS_REPAIR
from ...errors import InvestigationError
from ...formats.markdown import code
from ...study.words import STUDY_MODE
from .. import paths
from ..releases.bisect import release_range
from ..releases.later_turns_patch import DOCUMENTED_LIMIT
from .doctor import Check
from .liveness import REFUSED, SITUATION_WORDS, STUCK
from .load import Findings
from .releases import COMPACTION_ONLY, NEXT_TURN_FAILS, PAUSE_FAILS, Era, Releases
from .tables import fixed_in_cases
from .verdict import (
    BUG,
    CONTRACT,
    CONTRACT_MODE,
    STATE_WORDS,
    LivenessVerdict,
    breach_kind,
    kind_tally,
    of,
)

if TYPE_CHECKING:
    from ..explore.search import SearchResult


# The SDK's class docstring (OpenAIResponsesCompactionSession, 0.23.1 and 0.24.0): a partial
# compaction sends items, whatever the mode, and the explicit id mode makes none.
PARTIAL_INPUT = "Partial snapshots use input mode"


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


def _stops_after(found: Findings) -> str:
    """What the fixing release alone never compacts again after, scoped by kind of call and
    mode: its liveness bugs (from the sweep) with the modes each stops in, then the modes the
    SDK documents it stops in after any call nobody answers; "" when the sweep shows none."""
    if found.fixed_in is None:
        return ""
    try:
        record = of(found.verdicts, found.fixed_in).liveness if found.verdicts else ()
    except LookupError:  # a fixing release the liveness sweep did not run
        return ""
    # A situation the fixing release stops compacting after as a bug in some mode, with every
    # mode it stops in (a bug in one, the SDK's documented contract in another).
    bugs = dict.fromkeys(v.situation for v in record if v.kind == BUG and v.state == STUCK)
    modes = {
        s: [m for v in record if v.situation == s and v.state == STUCK for m in v.modes]
        for s in bugs
    }
    every = set(found.releases.modes) if found.releases else set()
    after = " and ".join(
        SITUATION_WORDS.get(s, s)
        + (", in every mode" if every and set(ms) >= every else f" (in {_modes(ms)} mode)")
        for s, ms in modes.items()
    )
    # the modes the SDK documents it stops compacting in after a call nobody answers
    documented = sorted(
        {m for v in record if v.kind == CONTRACT and v.state == STUCK for m in v.modes}
    )
    if after and documented:
        said = _modes(documented)
        after += f", and, as the SDK documents, after any call nobody answers in {said} mode"
    return after


def keep_workaround(found: Findings, cite: str = " (notebook 06)") -> str:
    """The workaround before and after the upgrade, one sentence every answer shares: apply it
    on the pinned release; on the fixing release keep it where an approval can go unanswered,
    naming what the fixing release alone stops compacting after (its liveness bugs, from the
    sweep, and the modes its documented contract stops in), and its costs (notebook 06)."""
    apply = f"On {_affected_span(found)}, pass the session to `defer_compaction_while_pending`"
    if not found.fixed_in:
        return f"{apply}{cite}."
    keep = _keep_after(found)
    if _stops_after(found):
        keep += "; the workaround keeps it compacting there"
    # the SDK's own tests the workaround makes fail for no stated reason, on each release run
    changed = {r: _unexplained_tests(r) for r in (_pinned(found), found.fixed_in)}
    counted = " and ".join(f"{n} on {r}" for r, n in changed.items() if n)
    unexplained = (
        f" Some of the SDK's own tests ({counted}) fail with it for reasons not yet explained."
        if counted
        else ""
    )
    # its costs, each the cause of a test the workaround makes fail (upstream/changes.INTENDED)
    costs = (
        "What it costs, wherever it runs: a late answer to a call it *retired* (removed from "
        "the store because a later question came before the answer) is stored as text, not "
        "paired with its call: a function call's output, or a hosted MCP approval's response.\n\n"
        "When a compaction's write to the store fails, the SDK puts the old history back (its "
        "*restore*); the workaround reads the whole history once to check, even past "
        "`max_rollback_items` (the session's cap on such a read), and retries a failed restore "
        f"up to three more times{cite}.{unexplained}"
    )
    return f"{apply}. {keep[0].upper()}{keep[1:]}.\n\n{costs}"


def _unexplained_tests(release: str, folder: Path = paths.DATA) -> int:
    """How many of the release's own tests (parametrised cases counted once) the workaround
    makes fail (they pass without it) for no stated reason, in the committed ``upstream-suite``
    records; 0 without them."""
    from ..releases.upstream.results import load

    if not paths.data(folder).upstream_suite(release).exists():
        return 0
    worse = [c for c in load(release, folder).unexplained if c.baseline == "passed"]
    return len({c.test.partition("[")[0] for c in worse})


def _modes(modes: Sequence[str]) -> str:
    return " and ".join(f"`{m}`" for m in modes)


def _action(found: Findings, shown: str = "") -> str:
    """What a team does: upgrade to the fixing release (``shown``: where the notebook shows that
    release's runs), the workaround before and after the upgrade (``keep_workaround``: it makes
    the session a subclass that defers compaction, ``fix/workaround.py``), then the doctor."""
    upgrade = f"Upgrade to {found.fixed_in}{shown}. " if found.fixed_in else ""
    return (
        f"**What to do.** {upgrade}{keep_workaround(found)}\n\n`doctor scan` finds stored "
        "sessions the bug already broke (notebook 07)."
    )


def walkthrough(found: Findings) -> str:
    """01: where the user meets the bug in the report's mode, the one 01 runs, over HTTP, and
    whether the later questions of that conversation are refused too; then, in a line, where
    the default mode meets it (the last table). Short paragraphs: the action must fall in the
    first 40 lines at 100 columns (issue 61, r10)."""
    pinned = _pinned(found)
    _, at = _error(found, "auto")
    report, then = _error(found, "input")
    return (
        f"**Answer.** On {pinned} in `input` mode, with the hook always saying yes (over HTTP "
        "to the stand-in), the pending call is compacted away at the pause. Approval and resume "
        f"work, but the output is stored without its call, so the {then} is refused "
        f"({code(any_call(report))}){_later(found, pinned)}. That is *the bug*: the pending "
        "call summarised away, its output refused."
        "\n\nIn the default `auto` mode, "
        "while responses are stored (`ModelSettings(store=...)` unset, as here), the compaction "
        f"request at the {at} is refused and `Runner.run` raises, with nothing to approve (the "
        "last table). With `store=False` (*auto, store=False*) the next question is refused "
        "instead (notebook 09 shows each refusal; notebook 02 follows the refused pause).\n\n"
        + _walkthrough_action(found)
        + _default_trigger(found, pinned)
    ).rstrip()


def _default_trigger(found: Findings, release: str) -> str:
    """How often the bug is met without the study's hook, from the doctor's check of each mode on
    ``release`` at every pause position (``data/doctor-check-modes.json``): 01 forces compaction
    at every pause, which the SDK does not do by default (issue 61, r6). Empty without them."""
    checks = [c for c in found.exposure if c.release == release]
    if not checks:
        return ""
    rows = checks[0].rows
    per_mode = {c.config.mode: c.affected_at for c in checks}
    same = len(set(per_mode.values())) == 1
    at = next(iter(per_mode.values()))
    met = (
        f"at {len(at)} ({' and '.join(map(str, at)) or 'none'} prior turns) in each of the "
        f"{len(per_mode)} modes"
        if same
        else "; ".join(f"at {len(a)} in `{m}` mode" for m, a in per_mode.items())
    )
    return (
        f"**Without the hook.** The SDK's own *default trigger* compacts once "
        f"{SDK_DEFAULT_THRESHOLD} stored items are neither a user's message nor a summary. Of "
        f"{len(rows)} *pause positions* ({rows[0].prior_turns} to {rows[-1].prior_turns} plain "
        f"turns before the pausing one; a *plain turn* is a question answered without a tool), "
        f"{release} meets a refusal (the bug's, or the pause's) {met}.\n\nThe positions are "
        "this test agent's, whose plain turn adds one item the trigger counts, its answer; "
        "yours differ (the doctor's "
        "`doctor check` runs each mode; notebook 07 the `auto` mode's).\n\n"
    )


def _walkthrough_action(found: Findings) -> str:
    """01's action in 01's own words: upgrade; the workaround on the releases that lose the call
    in some mode, with what it does in the words of ``fix/workaround.py`` and the README (the
    latest model exchange, a dead call retired); keep it after the upgrade (notebook 06 says
    why); the doctor for stores already written; and the SDK maintainer's line."""
    lost = _affected_span(found)
    upgrade = f"Upgrade to {found.fixed_in} (the last table). " if found.fixed_in else ""
    return (
        f"**What to do.** {upgrade}Until then, on {lost} (each meets the bug or a refused "
        "pause in some mode; notebook 05 splits them by mode), pass the session to "
        "`defer_compaction_while_pending`, the workaround.\n\nIt makes *automatic compaction* "
        "(the compaction the session runs itself after a turn) wait while the latest *model "
        "exchange* (the last request to the model and its answer) holds a call without its "
        "output, and *retires* a *dead call* (one whose output may never come): it removes it "
        "from the store, so compaction can run.\n\nA *hosted MCP approval request* is one the "
        "API asks for on behalf of a tool on an MCP server the API itself calls. "
        f"{_keep_after(found).replace('keep it', 'Keep the workaround', 1)} (notebook 06 gives "
        "its costs).\n\n"
        "Upgrading does not heal a store the bug already broke; the study's "
        "*doctor*, a command that checks and repairs stored sessions, does: run "
        "`python -m approval_compaction doctor scan "
        "STORE --all`, then `doctor repair STORE --all --apply` (`STORE`: your session store, "
        "such as its SQLite file's path; notebook 07).\n\n"
        f"**For the SDK:** {found.fixed_in} fixes both refusals above: notebook 03 reads the "
        "*pairing check* (the function that finds a call without its output) "
        f"{found.fixed_in} moved, for a backport to an older release line, and notebook 10 "
        "what it still leaves.\n\n"
    )


def _later(found: Findings, release: str) -> str:
    """What the later questions meet, when the release's record has the poisoned store refused
    in ``input`` mode (the liveness runs over HTTP)."""
    if not found.verdicts:
        return ""
    record = of(found.verdicts, release)
    refused = any(
        v.situation == "poisoned" and v.state == REFUSED and "input" in v.modes
        for v in record.liveness
    )
    return "; the store keeps the output, so every later question is refused too" if refused else ""


def stored_vs_sent(found: Findings, folder: Path = paths.DATA) -> str:
    """02: in the modes whose pause is refused, what the store keeps, what the next question
    sends and whether compaction runs at it, from the sweep's meetings over HTTP on the pinned
    release, the hook compacting after every turn."""
    from ..releases.sweep import load_meetings

    pinned = _pinned(found)
    met = [
        m
        for m in load_meetings(paths.data(folder).sweep_meetings)
        if m.sdk_version == pinned and m.model == "responses" and m.compaction == "on"
    ]
    refused = [
        mode
        for mode in dict.fromkeys(m.mode for m in met)
        if all(m.outcome == "raised" for m in met if m.mode == mode and m.stage == "pause")
    ]
    turns = [m for m in met if m.stage == "next_turn" and m.mode in refused]
    if not (refused and turns):
        raise HeadlineError(f"the answers need {pinned}'s refused pauses in sweep-meetings.json")
    answered = all(m.outcome == "answered" for m in turns)
    if not all(m.open_calls for m in turns):
        raise HeadlineError(f"{pinned}: a refused pause left no open call in sweep-meetings.json")
    compacts = {
        mode: {m.compaction_requests for m in turns if m.mode == mode} == {0} for mode in refused
    }
    stop = [mode for mode, none in compacts.items() if none]
    go = [mode for mode, none in compacts.items() if not none]
    goes_on = []
    if go:
        goes_on.append(f"in {_modes(go)} mode compaction goes on, around the open call")
    if stop:
        goes_on.append(f"in {_modes(stop)} mode it stops")
    clauses = []
    if go:
        clauses.append(
            f"In {_modes(go)} mode that turn's compaction is *partial*: only the items after the "
            "open call are compacted, sent as items as in `input` mode (the SDK's docstring, "
            "where a *snapshot* is the stored history a compaction reads: "
            f"{code(PARTIAL_INPUT)}). The next question is kept, as a compaction keeps the "
            "user's messages (notebook 01's did too), and the summary replaces its answer; the "
            "open call stays"
        )
    if stop:
        clauses.append(
            f"In {_modes(stop)} mode the SDK makes no partial compaction, so that turn makes no "
            "compaction request at all"
        )
    said = ".\n\n".join(clauses)  # one paragraph a mode
    fixed = found.fixed_in
    keep = _keep_said(found).replace(f"{fixed} alone", f"{fixed} without the workaround")
    return (
        f"**Answer.** On {pinned} over HTTP, with the hook always saying yes, while the "
        "agent's responses are stored (the default), the compaction request at the pause is "
        f"refused in {_modes(refused)} mode (notebook 09). The pending call stays stored "
        "without its output, an open call. The next question is "
        + ("answered" if answered else "not always answered")
        + ": the runner leaves the open call out of what it sends the model. "
        + "; ".join(goes_on)[:1].upper()
        + "; ".join(goes_on)[1:]
        + ".\n\n"
        f"**What to do.** Upgrade to {fixed}: its automatic compaction waits while the latest "
        "*model exchange* (the last request to the model and its answer) holds a call without "
        "its output, so it makes no compaction request at the pause and nothing is refused "
        "there (notebook 01's last table shows it in `auto` mode, notebook 05's table of "
        "releases in each mode).\n\nA call is still left open "
        "when its approval is *abandoned* (the user asks something else; it can still be "
        "answered late). A *hosted MCP approval request* is one the API asks for on behalf "
        f"of a tool on an MCP server the API itself calls.\n\n{keep} Notebook 01 says how the "
        "workaround works.\n\n"
        "The study's *doctor* (a command that checks and repairs stored sessions) names a "
        "session whose open call a later question follows *stuck*, whatever its mode: "
        "`python -m approval_compaction doctor scan STORE --all` (`STORE`: your session store, "
        "such as its SQLite file's path).\n\n"
        + (
            f"In {_modes(go)} mode compaction goes on around that call, so no repair is needed. "
            if go
            else ""
        )
        + (
            f"In {_modes(stop)} mode upgrading does not free it: `doctor repair STORE --all "
            "--apply` rewrites the open call as a message saying it was never answered "
            "(notebook 07)."
            if stop
            else ""
        )
        + f"\n\n**For the SDK:** the refused pause needs no change of its own: {fixed}'s moved "
        "check (notebook 03) keeps the pause from compacting; notebook 10 names what that still "
        "leaves.\n\n"
        f"**In detail.** {said}{_stops_for_good(found, [pinned, fixed], stop)}.\n"
    ).rstrip()


def _keep_said(found: Findings) -> str:
    """``keep_workaround``'s first paragraph (apply it before the fixing release, and where to
    keep it on that release), cited: the words the README and notebook 06 say, without its
    costs (notebook 06 has them)."""
    return keep_workaround(found, cite="").split("\n\n")[0].removesuffix(".") + " (notebook 06)."


def _stops_for_good(found: Findings, releases: Sequence[str | None], modes: Sequence[str]) -> str:
    """Why compaction does not come back in ``modes`` while the open call is stored: the SDK's
    documented contract (``DOCUMENTED_LIMIT``), when the release's liveness record has an
    abandoned call stop compacting there as documented."""
    if not (found.verdicts and modes):
        return ""
    stuck = [
        r
        for r in releases
        if r
        and any(
            v.situation == "abandoned"
            and v.state == STUCK
            and v.kind == CONTRACT
            and set(modes) <= set(v.modes)
            for v in of(found.verdicts, r).liveness
        )
    ]
    if not stuck:
        return ""
    return (
        ": the SDK documents that this mode compacts only a history whose every call has its "
        f"output ({code(DOCUMENTED_LIMIT)}). While the open call is stored the session *stops "
        "compacting* and the history grows every turn (this page shows the first such turn; "
        "notebook 10 follows the same stop, turn by turn, after an approval left unanswered)"
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


def inside_the_sdk(found: Findings, folder: Path = paths.DATA) -> str:
    """03: the function that compacts the pending call away, the check that should have stopped
    it, what the fixing release changed, and the approval kinds that change alone does not fix
    (``data/fix-anatomy.json``: each kind with the function kind's minimal fix alone; notebook 12
    shows the hunks)."""
    from ..mechanism.anatomy import load_anatomy

    m = found.mechanism
    if m is None:
        raise HeadlineError("the answers need data/mechanism.json")
    path = paths.data(folder).fix_anatomy
    an = load_anatomy(path) if path.exists() else None
    kinds = an.kinds if an else ()
    fixed = [k.label for k in kinds if k.with_function_fix.verdict == "fixed"]
    not_fixed = [k for k in kinds if k.with_function_fix.verdict != "fixed"]

    # which kinds of approval that one move fixes is notebook 12's answer, not repeated here
    scope = " (notebook 12 takes the fix apart, one kind of approval at a time)" if fixed else ""
    return (
        f"**Answer.** In {m.old} (`{STUDY_MODE}` mode) the compaction session itself sends the "
        "pending call to `responses.compact`, and the summary replaces it in the store. Its "
        f"pairing check runs in compaction (`{m.function}`) only when part of the history is "
        f"compacted (line {m.old_line} of `agents/memory/openai_responses_compaction_session.py`); "
        f"at the {', '.join(m.old_compacts_at)} the whole history is compacted, so compaction "
        "skips it. The check does run at the pause, but only where the model's input is built "
        "(`prepare_input_with_session`).\n\n"
        f"{m.new} moves the check up into the block every automatic compaction enters "
        f"({code(m.new_block)}): while the latest *model exchange* (the last request to the "
        "model and its answer) holds a call without its output, that compaction returns, and a "
        "later one runs once the call has its output; a function call abandoned before that "
        f"exchange stops it only in `previous_response_id` mode{scope}.\n\n"
        f"**What to do.** SDK maintainers: run the pairing check for every automatic "
        "compaction, and skip compacting while the latest model exchange holds a call without "
        f"its output, as {m.new} does. To fix "
        "an older release line, backport that move (notebook 12 has it as a one-change patch)."
        + (
            " A *hosted MCP approval request* (an approval the API asks for on behalf of a tool "
            f"on an MCP server it calls) needs more of {m.new}'s changes (notebook 12 names "
            f"them).\n\n{m.new}'s waiting has a cost: after a hosted MCP approval request left "
            "unanswered, compaction stops for good (notebook 10).\n\nNotebook 10's proposed patch, "
            f"`{paths.LIVENESS_PATCH.name}`, is written against {m.new}: it lets compaction "
            "summarise only what follows a waiting call or request, which stays stored and can "
            "still be answered, on the stores that can replace part of their history (SQLite, "
            "async SQLite, SQLAlchemy), in `input` and `auto` mode (notebook 10). Whether to "
            "take it is still open upstream; a backport of the moved check inherits the same "
            "cost."
            if not_fixed
            else ""
        )
        + " What a team does before and after upgrading is notebook 06's answer."
    )


def team_action(found: Findings, lost: str) -> str:
    """What a team does, in the words every notebook shares (issue 61's vocabulary): upgrade to
    the fixing release; until then, on ``lost``, the workaround (06); keep it on the fixing
    release where that release alone stops compacting after a call nobody answers (06 names the
    modes and kinds of call, from the liveness runs: r11 found 04 and 05 saying "wherever an
    approval can go unanswered" where 06 says to drop it after a function call in `input` or
    `auto` mode); and the doctor's scan and repair for stores an affected release wrote (07)."""
    return (
        f"**What to do.** Upgrade to {found.fixed_in}. Until then, on {lost}, pass the session "
        f"to `defer_compaction_while_pending` (the workaround, notebook 06); {_keep_after(found)} "
        "(notebook 06 names the modes and kinds of call).\n\n"
        f"{_poisoned_by(found)}this repository's *doctor* (its tool for stored sessions) "
        f"checks a store (`STORE`: the session database's path) that {lost} wrote and repairs "
        "it: run `python -m approval_compaction doctor scan STORE --all`, then `doctor repair "
        "STORE --all --apply` (notebook 07)."
    )


def _poisoned_by(found: Findings) -> str:
    """The releases whose `input`-mode runs stored an orphan output (the sweep's journey,
    ``orphan_stored``), scoped: r12 read "a store 0.8.0..0.23.1 already wrote" against 05's
    journey table, where 0.8.0..0.22.0 stores none."""
    eras = found.releases.eras if found.releases else ()
    wrote = [e.span for e in eras if e.affected and e.orphan_stored != "never"]
    if not wrote:
        return "Upgrading does not heal a store an affected release already wrote; "
    span = release_range(wrote[0].partition("..")[0], wrote[-1].rpartition("..")[2])
    return (
        f"In `{STUDY_MODE}` mode the sweep saw {span} store an output without its call, which "
        "upgrading does not heal; "
    )


def violation_matrix(found: Findings) -> str:
    """04: how many cases break an invariant, the one choice they share, which invariants they
    break (each in its words), what the same cases meet over HTTP in the study's mode, and what
    a team does."""
    from ...analysis.properties import DEFINITIONS, LIVENESS

    pinned = found.pinned
    if pinned is None:
        raise HeadlineError("the answers need data/matrix.json")
    shared = f": exactly those with `{pinned.violating_choice}`" if pinned.violating_choice else ""
    meaning = {i.name: i.meaning for i in (*DEFINITIONS, *LIVENESS)}
    broken = [i.invariant for i in pinned.invariants if i.violated]
    listed = "\n".join(f"- `{name}`: {meaning.get(name, name)}" for name in broken)
    return (
        f"**Answer.** Compaction alone. On {_pinned(found)} in `input` mode, judged on the "
        f"scripted model by the stand-in's rules, {pinned.violating} of {pinned.cases} cases "
        f"break an invariant{shared} (the hook says yes after every turn); the runner, the "
        "decision and the state boundary change no verdict.\n\n"
        "**For SDK maintainers.** Never compact while the latest *model exchange* (the last "
        "request to the model and its answer) holds a call without its output, but do not wait "
        "for good: once a later question follows a call never answered, retire it (remove it "
        "from the store) or compact around it, as the workaround does (notebook 06).\n\n"
        f"Waiting alone, {found.fixed_in}'s rule, leaves the sessions the README's \"Open for the "
        "SDK's maintainers\" names never compacting again. The README's regression test "
        "(`tests/sdk_regression/test_compaction_pending_approval.py`) checks the wait: its 4 `on` "
        "cases fail on "
        f"{_pinned(found)}.\n\n{team_action(found, _affected_span(found))}\n\n"
        f"The {pinned.violating} cases break the same {len(broken)} of the {len(meaning)} "
        "invariants: the call waiting for approval goes into a compaction, then its output is "
        f"stored and sent without it. Each is a rule that holds when:\n\n{listed}"
    )


def releases(found: Findings) -> str:
    """05: the releases that lose the pending call, what a user of each mode meets on which
    range of them (consecutive ranges that meet the same, joined), the ranges the sweep tells
    apart, and the fix."""
    if found.releases is None or found.fixed_in is None:
        raise HeadlineError("the answers need data/sweep.json and data/fix-releases.json")
    eras = found.releases.eras
    hit = [e for e in eras if e.affected]
    lost = release_range(hit[0].span.partition("..")[0], hit[-1].span.rpartition("..")[2])
    violating, cases = fixed_in_cases(found.releases, found.fixed_in)
    spans = ", ".join(f"`{era.span}`" for era in eras)
    return (
        f"**Answer.** Every release {lost} loses the pending call: {hit[0].affected} of "
        f"{hit[0].cases} cases break an invariant in `{STUDY_MODE}` mode, and {found.fixed_in} is "
        f"the first where "
        f"{violating} do.\n\nWhat a user meets over HTTP in a case whose hook always says yes "
        "(*refused*: the API answers HTTP 400 and the runner raises): "
        f"{_met_by_mode(found.releases, hit)}.\n\nThe sweep's *eras*, its ranges of releases "
        f"that record the same, are {spans}.\n\n{_releases_action(found, lost)}"
    )


def _releases_action(found: Findings, lost: str) -> str:
    """05's action: what every notebook says a team does (``team_action``)."""
    return team_action(found, lost)


# what the sweep's severities mean, in the words the answer states them in (HTTP 400: refused)
_MET_WORDS = {
    PAUSE_FAILS: "the pause is refused, so there is no paused state to approve",
    NEXT_TURN_FAILS: "the next question is refused",
    COMPACTION_ONLY: "nothing is refused (the compaction requests carry the open call instead)",
}


def _met_by_mode(releases: Releases, hit: Sequence[Era]) -> str:
    """Per compaction mode, what the user meets on the affected releases, each run of eras
    that meets the same joined into one range: ``in `input` mode, on 0.8.0..0.22.0 ...``;
    ``auto`` named with its store setting (refused at the pause only while responses are
    stored, the default)."""
    said: dict[str, list[str]] = {}  # what is met: the modes meeting it
    for mode in (*releases.modes[1:], releases.modes[0]) if releases.modes else ():
        runs: list[tuple[str, str, str]] = []  # (severity, first, last)
        for era in hit:
            story = next(s for s in releases.stories if s.span == era.span and s.mode == mode)
            first, _, last = era.span.partition("..")
            if runs and runs[-1][0] == story.severity:
                runs[-1] = (story.severity, runs[-1][1], last or first)
            else:
                runs.append((story.severity, first, last or first))
        parts = [
            f"on {release_range(first, last)} {_MET_WORDS.get(sev, sev)}"
            for sev, first, last in runs
        ]
        name = f"`{mode}` (responses stored, the default)" if mode == "auto" else f"`{mode}`"
        said.setdefault(", and ".join(parts), []).append(name)
    return "; ".join(f"in {' and '.join(modes)} mode, {met}" for met, modes in said.items())


def workaround(found: Findings) -> str:
    """06: the workaround keeps every invariant by making compaction wait, not by switching it
    off (its verdicts and compactions), and the fixing release does the same."""
    fixed = found.fixed
    if fixed is None:
        raise HeadlineError("the answers need data/fix-matrix.json")
    upgrade = f"Upgrade to {found.fixed_in} (notebook 05). " if found.fixed_in else ""
    keep, costs = keep_workaround(found, cite="").split("\n\n", 1)
    how = (
        "by making compaction wait, not by switching it off"
        if fixed.compacting == fixed.compaction_on
        else "but some `on` cases no longer compact"
    )
    return (
        f"**Answer.** It keeps them {how}: with the workaround on the pinned release, "
        f"{', '.join(fixed.releases)} "
        f"(`input` mode, scripted model), {fixed.violated} of {fixed.verdicts} verdicts (each "
        f"invariant on each case) are violated, and {fixed.compacting} of "
        f"{fixed.compaction_on} `on` cases (the hook always says yes) still compact, once the "
        "call has its output. "
        f"{found.fixed_in or 'The fixing release'} does the same on its own.\n\n"
        f"**What to do.** {upgrade}{keep}{_drop_workaround(found)}\n\n{costs}\n\n"
        f"Neither the workaround nor the upgrade heals a store {_affected_span(found)} already "
        "wrote; "
        "this repository's *doctor* (its tool for stored sessions) does: `python -m "
        "approval_compaction doctor scan STORE --all`, then `doctor repair STORE --all --apply` "
        "(notebook 07)."
    )


_MODE_WORDS = {"auto": "`auto` (responses stored)"}  # auto's qualifier (issue 61)


def _drop_workaround(found: Findings) -> str:
    """06: where the fixing release alone keeps compacting after a call nobody answers (no hosted
    MCP tool, a mode the SDK's documented contract does not stop), the workaround gains no
    compaction and costs a late answer its pairing: drop it there (r11: 06's answer said keep
    it wherever an approval can go unanswered, its closing said drop it there)."""
    record = (
        of(found.verdicts, found.fixed_in).liveness if found.verdicts and found.fixed_in else ()
    )
    documented = {m for v in record if v.kind == CONTRACT and v.state == STUCK for m in v.modes}
    rest = [m for m in found.releases.modes if m not in documented] if found.releases else []
    if not (rest and documented):
        return ""
    modes = " or ".join(_MODE_WORDS.get(m, f"`{m}`") for m in rest)
    return (
        f"\n\nDrop it on {found.fixed_in} in {modes} mode where no "
        f"hosted MCP tool asks for approval: there {found.fixed_in} alone keeps compacting past "
        "a function call nobody answers and keeps the call for a late answer; the workaround "
        "would gain no compaction and cost that answer its pairing."
    )


def am_i_affected(found: Findings) -> str:
    """07: the doctor's four answers, one short item each, and what a team does, in order: stop
    new damage (the fixing release, and the workaround in the words the README and 06 say:
    before it, and on it where an approval can go unanswered), then scan and repair."""
    if not (found.affected and found.upgrade and found.worker and found.heal):
        raise HeadlineError("the answers need data/doctor-*.json")
    pinned, newest = found.affected
    up, heal = found.upgrade, found.heal
    stop = f"upgrade to {found.fixed_in}" if found.fixed_in else "upgrade once a release fixes it"
    keep = _keep_said(found)
    return "\n".join(
        [
            "**Answers.**",
            "",
            f"1. With the SDK's defaults (`{pinned.config.mode}` mode, no hook), "
            f"{pinned.release} meets the bug at {len(pinned.affected_at)} of {len(pinned.rows)} "
            f"pause positions{_met_at(pinned)}; {newest.release} at "
            f"{len(newest.affected_at)}. Section 1 shows which positions, and why; yours "
            "differ.",
            f"2. Upgrading {'heals' if up.heals else 'does not heal'} a *poisoned* store (one "
            "holding an *orphan output*, an output whose call is gone): "
            f"{up.newest}'s next turn on it is "
            f"{_refused(up.poisoned.next_turn)}; after `doctor repair` it is "
            f"{_refused(up.repaired.next_turn)}."
            + (
                f" A store a refused pause left is {_refused(up.pause_failed.next_turn)} on "
                f"{up.newest} but stays *{up.pause_failed.stored_after}*: it keeps a *dead "
                "call*, a call whose output has not come though a later question follows it (in "
                "`previous_response_id` mode no compaction runs past it; in `input` and `auto` "
                "mode compaction goes on)."
                if up.pause_failed
                else ""
            ),
            f"3. On a test store of {heal.sessions} sessions ({heal.sessions - 1} generated, "
            f"one a pause and resume left on {pinned.release}), `doctor scan` finds "
            f"{heal.before.get('poisoned', 0)} poisoned and {heal.before.get('stuck', 0)} stuck; "
            "after `doctor repair "
            f"--apply`, {heal.after.get('poisoned', 0)} and {heal.after.get('stuck', 0)}. "
            "A late answer to a call the repair rewrote is stored without its call: the session "
            "is poisoned again (section 3).",
            "",
            "**What to do**, in this order (the *workaround*, notebook 06: compaction waits "
            "while the latest model exchange, the last request to the model and its response, "
            "holds a call without its output):",
            "",
            f"1. Stop new damage: {stop}. Until then, {keep[0].lower()}{keep[1:]}",
            "2. Find the damage: `python -m approval_compaction doctor scan STORE --all`.",
            "3. Heal it: `python -m approval_compaction doctor repair STORE --all --apply` "
            f"backs up, then rewrites each {' or '.join(NEEDS_REPAIR)} session (section 3). "
            "Before repairing a stuck one, discard the paused state your application may keep "
            "for its approval; if a late answer comes anyway, run the repair again.",
        ]
    )


def _met_at(check: Check) -> str:
    """What the user meets at a check's affected pause positions, when it is one thing there:
    the pause refused (``Runner.run`` raises), or the next turn refused; "" otherwise."""
    hit = [r for r in check.rows if r.affected]
    if hit and all(r.at_pause != PAUSED for r in hit):
        return ", where the compaction at the pause is refused and `Runner.run` raises"
    if hit and all(r.next_turn == REJECTED for r in hit):
        return ", where the next turn is refused"
    return ""


def _refused(next_turn: str) -> str:
    """The doctor's word for a next turn, in the collection's: the API *refused* it (HTTP 400),
    where the doctor's tables say ``rejected``."""
    return "refused" if next_turn == REJECTED else next_turn


def exploration(found: Findings, folder: Path = paths.DATA) -> str:
    """08: does the bug need a function tool? The kinds that lose their pending call on the
    pinned release and the mode that refuses the compaction instead; what the workaround and the
    fixing release lose; then, in one sentence, the compaction its searches saw stop (the
    liveness rows its own tables show, kinds as the findings table attributes them)."""
    from ..explore.replay import load_results

    results = load_results(folder)
    if not results:
        raise HeadlineError("the answers need data/explore-*.json")
    unfixed = sorted((r for r in results.values() if not r.fix), key=lambda r: _key(r.sdk_version))
    fixed = [r for r in results.values() if r.fix]
    if not unfixed:
        raise HeadlineError("the answers need a search without the workaround")
    old, new = unfixed[0], unfixed[-1]
    losing = [f for f in old.findings if _loses(f)]
    lost, lost_in = _kinds(losing), sorted({f.trace.conversation.mode for f in losing})
    refused = [f for f in old.findings if ACCEPTED_NEXT in f.invariants]
    refused_in = sorted({f.trace.conversation.mode for f in refused} - set(lost_in))
    stored = [f for f in losing if any(i in _STORED_ALONE for i in f.invariants)]
    unshown = [
        k + (" request" if k.endswith("approval") else "")
        for k in lost.split(", ")
        if k not in _kinds(stored).split(", ")
    ]
    said = [
        f"**Answer.** No. On {old.sdk_version}, in {_modes(lost_in)} mode, compaction run while "
        "a call waits for approval sends the call without its output, for every kind that can "
        f"wait: {lost}. "
        + (
            f"For every kind but the {', '.join(unshown)}, the approved call's output is then "
            "stored without its call: the pending call is lost. For the "
            f"{', '.join(unshown)} the search kept no such break: a gap in the search."
            if unshown
            else "The approved call's output is then stored without its call: the pending call "
            "is lost."
        )
        + (
            f"\n\nIn {_modes(refused_in)} mode the API refuses that compaction instead, at the "
            "pause (the stand-in's rules predict HTTP 400; "
            f"the search kept {_count(refused)}: {_asked(refused)})."
            if refused_in
            else ""
        )
    ]
    after = []  # what the workaround's search and the fixing release's kept
    if fixed:
        broke = sum(len(r.findings) for r in fixed)
        after.append(
            "with the workaround no conversation breaks an invariant"
            if broke == 0
            else f"with the workaround {broke} conversations still break an invariant"
        )
    if new is not old:
        kept = [f for f in new.findings if _loses(f)]
        after.append(
            f"on {new.sdk_version} " + ("none loses the call" if not kept else f"{_count(kept)} do")
        )
    if after:
        said.append("; ".join(after).capitalize() + ".")
    said.append(f"\n\n{_stopped([old, new] if new is not old else [old])}")
    said.append(
        f"\n\n**What to do.** Whatever the kind of tool, upgrade to {new.sdk_version}. Until "
        f"then, {_keep_said(found)[0].lower()}{_keep_said(found)[1:]} An SDK maintainer takes "
        "notebook 10's patch for the hosted MCP approval request."
    )
    return " ".join(said).replace(" \n", "\n")


def _loses(finding: Any) -> bool:
    """Whether a kept conversation lost its pending call: it broke a pairing invariant."""
    return any(i.endswith(PAIRING) for i in finding.invariants)


def _stopped(searches: Sequence[SearchResult]) -> str:
    """08's one sentence on compaction stopping for good: per search, the kinds whose liveness
    rows are a bug, then the kinds whose rows are the SDK's documented contract (in its mode),
    each kind as the findings table attributes it alone (a row naming two open kinds is shown,
    not named here); releases that stop after the same kinds are named together."""
    from ..explore.replay import LIVENESS_NAMES, attributed

    def alone(result: SearchResult, kind: str) -> list[str]:
        return list(
            dict.fromkeys(
                k
                for f in result.findings
                if _breach(f) == kind
                for i, k in attributed(f)
                if i in LIVENESS_NAMES and " + " not in k
            )
        )

    def words(kinds: Sequence[str], last: str) -> str:
        names = [KIND_NAMES.get(k, k) for k in kinds]
        return last.join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]

    parts = []
    bug = " (a bug; filed here in `input` mode, notebook 10 gives every mode and its patch)"
    for kind, tail in ((BUG, bug), (CONTRACT, "")):
        grouped: dict[tuple[str, ...], list[str]] = {}
        for result in searches:
            kinds = tuple(alone(result, kind))
            if kinds:
                grouped.setdefault(kinds, []).append(result.sdk_version)
        for kinds, releases in grouped.items():
            where = f"on {' and '.join(releases)}"
            if kind == CONTRACT:
                parts.append(
                    f"in `{CONTRACT_MODE}` mode {where}, after a {words(kinds, ' or ')} approval "
                    f'nobody answers, as the SDK documents ("{DOCUMENTED_LIMIT}")'
                )
            else:
                parts.append(f"{where} after a {words(kinds, ' or ')} request nobody answers{tail}")
    if not parts:
        return "No search saw compaction stop for good."
    return (
        "The searches also saw compaction stop for good, which breaks the two liveness "
        f"invariants: {', and '.join(parts)}."
    )


KIND_NAMES = {
    "function_approval": "function tool",
    "custom_approval": "custom tool",
    "shell_approval": "shell tool",
    "apply_patch_approval": "apply_patch tool",
    "mcp_approval": "hosted MCP approval",
}


_STORED_ALONE = ("stored_history_paired", "next_turn_input_paired")  # an output stored alone (08)
PAIRING = ("_paired", "_complete")  # the invariants a lost or unpaired item breaks
ACCEPTED_NEXT = "next_turn_accepted"  # a search files a refusal at the pause under it (08)


def _count(findings: Sequence[Any]) -> str:
    return "one conversation" if len(findings) == 1 else f"{len(findings)} conversations"


def _asked(findings: Iterable[Any]) -> str:
    """The kinds of approval the findings' conversations asked for, as ``a function tool's``."""
    asked = dict.fromkeys(
        KIND_NAMES.get(c, c)
        for f in findings
        for step in f.trace.conversation.steps
        if step.action == "ask"
        for c in step.calls
    )
    return ", ".join(f"a {name}'s" for name in asked)


def _kinds(findings: Iterable[Any], last: str = ", ") -> str:
    """The kinds of approval the findings pause on, in plain words, each once (the last two
    joined by ``last``: ``function tool, custom tool or shell tool``)."""
    names = list(
        dict.fromkeys(KIND_NAMES.get(k, k) for f in findings for _, k in f.pairs if k != "-")
    )
    return last.join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def _breach(finding: Any) -> str:
    return breach_kind(finding.trace.conversation.mode, finding.invariants)


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def explored_count(result: SearchResult) -> str:
    """How many conversations a search kept, and of which kind (``19 (14 bugs, ...)``)."""
    kinds = [breach_kind(f.trace.conversation.mode, f.invariants) for f in result.findings]
    return f"{len(kinds)} ({kind_tally(kinds)})" if kinds else "0"


def the_wire(found: Findings) -> str:
    """09: which requests the API refuses, by which rule, on what evidence; where each is met
    (the stage, per mode) in one clause, since notebooks 01 and 02 run those cases (r11)."""
    auto, at = _error(found, "auto")
    report, then = _error(found, "input")
    return (
        "**Answer.** Yes. The stand-in, applying the rules public reports show (the first "
        "table), refuses over HTTP a compaction request (`/v1/responses/compact`) naming a "
        f"`previous_response_id` whose stored chain holds a call without its output "
        f"({code(any_call(auto))}), though the body carries only `model` and the id.\n\n"
        "It refuses a model request (`/v1/responses`) holding an orphan output "
        f"({code(any_call(report))}). Public reports show the real API giving both messages; the "
        "orphan output's reports do not name the endpoint.\n\n"
        f"On {_pinned(found)}, with a hook that always says yes, the first is met at the {at} in "
        "`auto` mode (responses stored, the default) and `previous_response_id` mode "
        f"(notebook 02); the second at the {then} in `input` mode (notebook 01) and in "
        "`auto` mode with `ModelSettings(store=False)`. The SDK's conversion adds no fault: "
        "the model request's body carries exactly the items the SDK's model was handed.\n\n"
        "**What to do.** "
        + (f"Upgrade to {found.fixed_in}. {_keep_said(found)}\n\n" if found.fixed_in else "")
        + "To see what your own application sends, serve the stand-in (`python -m "
        "approval_compaction serve`) and point `OPENAI_BASE_URL` at it."
    )


def after_the_fix(found: Findings) -> str:
    """10: on the fixing release, the bug a fresh session meets (no store an older release
    wrote), then what the SDK documents, in plain words (r5: the first screen's terms few, no
    situation names), with the test and the patch the page shows for SDK maintainers; the
    team's action is ``short_action``'s. The store an older release poisoned is the body's."""
    if found.liveness is None or found.fixed_in is None or not found.verdicts:
        raise HeadlineError("the answers need data/sweep-liveness.json")
    fixed = found.fixed_in
    record = of(found.verdicts, fixed)
    fresh = [v for v in record.of_kind(BUG) if v.situation != POISONED]
    label = (
        f"**Answer** (openai-agents {fixed}, a fresh `SQLiteSession` compacting after every "
        "turn, over HTTP)."
    )
    if not fresh:
        return f"{label} No: a fresh session keeps compacting.\n\n{short_action(found)}"
    said = (
        f"{label} Yes. After "
        + "; after ".join(
            f"{SITUATION_WORDS.get(v.situation, v.situation)}, compaction stops for good in "
            f"{_modes(v.modes)} mode"
            for v in fresh
        )
        + ": the history grows every turn."
    )
    documented = sorted({m for v in record.of_kind(CONTRACT) for m in v.modes})
    if documented:
        said += (
            f" In {_modes(documented)} mode any call nobody answers does the same, a function "
            f'call too, as the SDK documents ("{DOCUMENTED_LIMIT}").'
        )
    said += (
        f"\n\nSDK maintainers: the test below (`{_MCP_TEST.name}`) fails on {fixed} and passes "
        f"with the patch below (`{_PATCH.name}`), "
        f"which helps only on {PARTIAL_STORE_NAMES} stores, and not in `previous_response_id` "
        "mode."
    )
    return f"{said}\n\n{short_action(found)}"


def _affected_span(found: Findings) -> str:
    """The releases that lose the pending call, first..last, as the sweep found them (the
    pinned release without a sweep)."""
    hit = [e for e in found.releases.eras if e.affected] if found.releases else []
    if not hit:
        return _pinned(found)
    return release_range(hit[0].span.partition("..")[0], hit[-1].span.rpartition("..")[2])


_MCP_TEST, _PATCH = paths.LIVENESS_MCP_TEST, paths.LIVENESS_PATCH
# The stores the 0.24.0 session can replace part of the history in (its class docstring:
# "Native SQLite, async SQLite, and SQLAlchemy ... stores can atomically replace a bounded,
# model-visible suffix"; "Other stores require complete coverage"): only there can the patch
# compact what follows an unanswered request and keep the request.
PARTIAL_STORE_NAMES = "SQLite, async SQLite and SQLAlchemy"
PARTIAL_STORES = f"the stores that can replace part of a history ({PARTIAL_STORE_NAMES})"


POISONED = "poisoned"


def _situation_clause(v: LivenessVerdict) -> str:
    """``a hosted MCP approval request nobody answers (mcp_abandoned) stops compaction for good
    in `input`, `auto` mode``."""
    words = SITUATION_WORDS.get(v.situation, v.situation)
    where = _modes(v.modes)
    state = "stops compaction for good" if v.state == STUCK else STATE_WORDS.get(v.state, v.state)
    return f"{words} (*{v.situation}*) {state} in {where} mode"


def _liveness_clause(state: str, modes: tuple[str, ...], names: list[str]) -> str:
    """``**a**, **b** stop compacting (`input`)``, or the API refusing the later turns."""
    where = ", ".join(f"`{m}`" for m in modes)
    if state == REFUSED:
        return f"the API refuses every later turn of {', '.join(names)} ({where})"
    verb = STATE_WORDS.get(state, state) if len(names) == 1 else "stop compacting"
    return f"{', '.join(names)} {verb} ({where})"


def appendix(found: Findings, folder: Path = paths.DATA) -> str:
    """12: the smallest part of the fixing release's diff that fixes each kind of approval, and
    why the next turn failed only from the era the orphan output is first stored in."""
    from ..mechanism.anatomy import load_anatomy

    path = paths.data(folder).fix_anatomy
    if not path.exists() or found.mechanism is None:
        raise HeadlineError("the answers need data/fix-anatomy.json and data/mechanism.json")
    an, m = load_anatomy(path), found.mechanism
    if found.releases is None:
        raise HeadlineError("the answers need data/sweep.json")
    shared = [k.label for k in an.kinds if k.minimal_fix == an.minimal_fix]
    other = [k for k in an.kinds if k.minimal_fix != an.minimal_fix]
    kinds = f"{', '.join(shared)} tools" if shared else "a function tool"

    patches = {h.name: h.patch for h in an.hunks}

    def _an_import(hunk: str) -> bool:  # the check first, its import after
        return named(hunk).endswith("its import")

    def named(hunk: str) -> str:  # a hunk of a kind's own fix: an import, or the check
        lines = patches.get(hunk, "").splitlines()
        imports = any(line.startswith(("+from ", "+import ")) for line in lines)
        what = (
            "its import"
            if imports
            else f"{m.new}'s own check pairing each request with its response"
        )
        return f"hunk {an.numbers[hunk]}, {what}"

    others = "".join(
        f" A {k.label} approval request needs "
        + " and ".join(
            f"hunk {an.numbers[h]} ({named(h).partition(', ')[2]})"
            for h in sorted(k.minimal_fix, key=_an_import)
        )
        + " as well."
        for k in other
        if k.with_function_fix.verdict != "fixed"  # the function fix alone still loses it
    )
    stored = next((e for e in found.releases.eras if e.orphan_stored != "never"), None)
    why = _why_stored(stored.span.partition("..")[0]) if stored else ""
    # r5: the first screen's words few and plain (no hunk table's terms, no code block); the
    # backport's details and the gate's generations are the body's sections
    fix = ", ".join(str(an.numbers[h]) for h in an.minimal_fix)
    one = "one is" if len(an.minimal_fix) == 1 else f"{len(an.minimal_fix)} are"
    return (
        f"**Answer** ({SCOPE_12}). Of {m.new}'s {len(an.hunks)} *hunks* (contiguous changes) on "
        "the pending call's "
        f"path, {one} the whole fix for {kinds}: hunk {fix}, the check pairing each call with "
        f"its output, moved to where every automatic compaction runs it.{others}\n\nNo other "
        f"hunk whose revert ran undoes the fix.{why}\n\n{short_action(found)}"
    )


# 12's experiments: every run of fix-anatomy (the reverts, ddmin, each kind) is in this mode; the
# trace of the last section is over HTTP (r13: the label did not cover it)
SCOPE_12 = "openai-agents 0.23.1 → 0.24.0, `input` mode, scripted model; 0.22.1's trace over HTTP"
GATE = "OpenAIResponsesCompactionSession._run_compaction"  # 0.22.1's ownership gate
HOLDS_NONE = "gate: run holds None"  # what the gate records when the run holds no generation


def _why_stored(first: str) -> str:
    """12: why the next turn fails only from ``first``, the first release that stores the orphan
    output: the cause, from the mechanism record's traces of that release. Its ownership gate
    skips the resume's compaction in each boundary whose resume holds no generation; without a
    trace of it, the symptom alone. (r5: one sentence; the body shows the generations.)"""
    from ..mechanism.record import MechanismError, load_record

    try:
        traces = load_record().release(first).traces
    except (MechanismError, KeyError):
        traces = {}
    none = [
        b
        for b, t in traces.items()
        if any(e.startswith(HOLDS_NONE) for e in t.generations.get("resume", ()))
    ]
    if not none:
        return (
            f" From {first} the next turn fails: the resume no longer compacts, so the orphan "
            "output stays stored."
        )
    where = " or ".join({"memory": "in memory", "json": "as JSON"}.get(b, b) for b in none)
    return (
        f" From {first} the next turn fails: its new gate skips the resume's compaction (the "
        f"paused state {where}), so the orphan output stays stored."
    )


def _keep_after(found: Findings) -> str:
    """Where to keep the workaround after the upgrade, in one set of words (06's rule), scoped by
    kind of call and mode (r12: "after a call nobody answers" read as any call in any mode)."""
    after = _stops_after(found)
    if not after:
        return f"keep it on {found.fixed_in} if an approval can go unanswered"
    fixed = found.fixed_in
    return f"keep it on {fixed} where {fixed} alone never compacts again: after {after}"


def stop_new_sessions(found: Findings) -> str:
    """How a team stops new openai-agents sessions breaking, notebook 06's action, its releases
    from the findings: the upgrade to the fixing release, the workaround on the affected ones
    until then and, where the fixing release alone never compacts again after a call nobody
    answers, after it (``keep_workaround``'s); with
    no fixing release, the workaround alone."""
    apply = "pass the session to `defer_compaction_while_pending`"
    if not found.fixed_in:
        return f"notebook 06: on {_affected_span(found)}, {apply}"
    return (
        f"notebook 06: upgrade to {found.fixed_in}; until then, on {_affected_span(found)}, "
        f"{apply}, and {_keep_after(found)}"
    )


def short_action(found: Findings) -> str:
    """What a team using openai-agents does, in the one short form every page's answer ends with
    (issue 61: 04/05/06 and 07/08/09 repeated a long action word for word, each a little
    differently): upgrade, the workaround until then and where to keep it (notebook 06 gives the
    rule and its costs), and the doctor for stores an affected release wrote (notebook 07)."""
    wrap = "wrap the session in the workaround (`defer_compaction_while_pending`)"
    if not found.fixed_in:
        return (
            f"**What to do.** On {_affected_span(found)}, {wrap} (notebook 06). Check stored"
            " sessions with the doctor: `python -m approval_compaction doctor scan STORE --all`"
            " (notebook 07)."
        )
    fixed = found.fixed_in
    keep = f"; {_keep_after(found)}"  # scoped by kind of call and mode, from the liveness sweep
    return (
        f"**What to do.** Upgrade to {fixed}. Until then, on {_affected_span(found)}, {wrap}{keep}"
        " (notebook 06 gives the rule and its costs). Stores an affected release already wrote:"
        " `python -m approval_compaction doctor scan STORE --all` (notebook 07)."
    )


def your_session(found: Findings) -> str:
    """Notebook 15: the committed example store, stepped through as a team's own session is (the
    findings are not read: the example is its own record)."""
    from ..affected import session as own

    example = own.load_session(paths.ROOT / "notebooks" / "examples" / "poisoned.db", EXAMPLE_ID)
    turn = own.next_turn(example.items, "input")
    after = own.next_turn(own.healed_items(example), "input")
    text = own.session_answer(
        example, own.session_verdict(example), turn, after, stop_new_sessions(found)
    )
    healed = own.healed_items(example)

    def codes(t: Any) -> list[int]:  # the stand-in's status for each request of the next turn
        return [status for _, status, _ in own.turn_answers(t)]

    # the other modes, when each answers as `input` does, stored and healed (15's last table)
    same = all(
        codes(own.next_turn(example.items, m)) == codes(turn)
        and codes(own.next_turn(healed, m)) == codes(after)
        for m in ("auto", "previous_response_id")
    )
    alike = "; `auto` and `previous_response_id` answered alike, the last table" if same else ""
    label = (
        f"**Answer** (the example: session `{EXAMPLE_ID}` of 07's poisoned store; openai-agents "
        f"{_pinned(found)}, `input` mode, over HTTP{alike})."
    )
    # r5: the answer's own words, then the one short action every openai-agents page gives; the
    # maintainers' sentence (notebook 10's patch) is the body's, after the last table
    answer = text.split("\n\n**What to do.**")[0].replace("**Answer.**", label, 1)
    answer = answer.replace(f"`{EXAMPLE_ID}` ({example.source}) is", "It is", 1)
    return f"{answer}\n\n{short_action(found)}"


EXAMPLE_ID = "case-session"  # the session notebooks/examples/poisoned.db holds

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
    "12": appendix,
    "15": your_session,
}
