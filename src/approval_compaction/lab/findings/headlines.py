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

from ...doctor.check import ACCEPTED, PAUSED, REJECTED
from ...errors import InvestigationError
from ...formats.markdown import code
from ...sdks import sdk_module
from ...study.words import STUDY_MODE
from .. import paths
from ..releases.bisect import release_range
from .doctor import Check
from .liveness import REFUSED, SITUATION_WORDS, STUCK
from .load import Findings
from .releases import COMPACTION_ONLY, NEXT_TURN_FAILS, PAUSE_FAILS, Era, Releases
from .tables import fixed_in_cases, keep_where
from .verdict import (
    BUG,
    CONTRACT,
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


def _teams_pointer(found: Findings) -> str:
    """01's and 02's teams' line (r20: the shared ``short_action``, five lines and four coined
    words, put the action past a first screen of 40 lines): the upgrade, then where 06 and 07 say
    the rest, in plain words (keep the workaround after upgrading is 06's rule, named, not
    restated)."""
    fixed = found.fixed_in or "the fixing release"
    return (
        f"Teams: upgrade to {fixed}; notebook 06 says what to wrap the session in until then, and "
        "where to keep it after; notebook 07, how to check and repair the sessions an affected "
        "release stored."
    )


# 01-03's maintainer action (r20: "automatic compaction" and its two-line meaning on the first
# screen of 01 and 02; 03, which sets it against `run_compaction()`, keeps the term)
# (r20: "wait" against 03's excerpt, where each such compaction returns; the next one checks again)
WAIT = "return without compacting while the latest model exchange holds a call without its output"
# r23: "make each compaction ... return" read as the compaction returning: the check named
# r25: "add a check" against 03's "move the call": the check exists, its call moves (as 03 says)
AFTER_A_TURN = (
    "in `_run_compaction_locked`, the compaction the session runs after each turn, move the call "
    "to `drop_orphan_function_calls` (the SDK's check for a call without its output) to where "
    "every such compaction runs it, and make the compaction"
)


def _quiet_input(found: Findings) -> str:
    """The releases on which `input` mode meets no error from the stand-in (05's table per era:
    the call and its output compacted away), as one range."""
    if found.releases is None:
        raise HeadlineError("the answers need data/sweep.json")
    quiet = [
        era.span
        for era in found.releases.eras
        for story in found.releases.stories
        if era.affected
        and story.span == era.span
        and story.mode == "input"
        and story.severity == COMPACTION_ONLY
    ]
    if not quiet:
        raise HeadlineError("01's answer names the releases where `input` mode meets no error")
    return release_range(quiet[0].partition("..")[0], quiet[-1].rpartition("..")[2] or quiet[-1])


def _refused_input(found: Findings, pinned: str) -> str:
    """The releases whose `input` mode meets what the pinned release meets (05's table joins
    them into one row), as one range."""
    if found.releases is None:
        raise HeadlineError("the answers need data/sweep.json")
    stories = [story for story in found.releases.stories if story.mode == "input"]
    met = {story.span: story.severity for story in stories}
    mine = next(story.severity for story in stories if story.span.endswith(pinned))
    same = [span for span, severity in met.items() if severity == mine]
    return release_range(same[0].partition("..")[0], same[-1].rpartition("..")[2] or same[-1])


def walkthrough(found: Findings) -> str:
    """01: where the user meets the bug in `input` mode, the mode the question and prediction
    name (r20: the prediction named none, and `auto`, the default, fails at the pause), over
    HTTP on the pinned release, compacting after every turn (the study's hook, in plain words);
    the default modes' refused pause as a pointer to 02; then the maintainer's action (the wait
    the fixing release added, the page's last table) and the teams' pointer. The releases
    before the pinned one, and the real endpoint's unknown answer, are the body's (r20: the
    first screen ran to line 49). r24: a reader on an older release met no warning that `input`
    mode shows no error there: those releases named, with 05's table."""
    pinned = _pinned(found)
    report, then = _error(found, "input")
    then = then.replace("turn", "question")  # r14: the page's word for that stage
    fixed = found.fixed_in or "the fixing release"
    # r25: the older releases read as unaffected, the releases refused as this page's unnamed,
    # and the stand-in's accepting the pause's compaction stated as the endpoint's
    return (
        f"**Answer.** At the {then} (openai-agents {pinned}, `input` mode, the session asked "
        "to compact after every turn, over HTTP to the stand-in). The pause's compaction sends "
        "the waiting call to be summarised (the stand-in accepts it; no public source shows the "
        "real endpoint's answer: notebook 09); the resume stores the call's output alone; the "
        f"{then} sends that output without its call and is refused "
        f"({code(any_call(report))}).\n\nReleases {_refused_input(found, pinned)} meet this "
        f"refusal in `input` mode. {_quiet_input(found)} are affected too, without an error: "
        "the pause's compaction takes the call and the resume's its output, so neither is kept "
        "and the question is answered (notebook 05's second table). In "
        "`auto` mode with responses stored (both the defaults) and in `previous_response_id` "
        "mode, the pause itself is refused instead (notebook 02).\n\n"
        f"**What to do.** SDK maintainers: {AFTER_A_TURN} {WAIT}, the part of {fixed}'s fix "
        "whose effect this page's last table shows (notebook 03 shows its lines, and what else "
        "to backport)."
        f"\n\n{_teams_pointer(found)}"
    )


def stored_vs_sent(found: Findings, folder: Path = paths.DATA) -> str:
    """02: in the modes whose pause is refused, what the store keeps, what the next question
    sends and whether that question compacts, from the sweep's meetings over HTTP on the pinned
    release, the hook compacting after every turn; then the maintainer's change (the wait the
    fixing release added, 05's table for both modes) and the teams' pointer, with 07's rewrite
    of the call a refused pause leaves. r20: the question asked whether compaction "goes on"
    where the page runs one next question: it asks about that question; how the partial
    compaction reads, and the SDK's documented rule, are the body's (the first screen ran to
    line 53). r24: `auto`'s coverage condition in the answer's own words (the glossary's arrives
    below it), the stop scoped to the release run, what the action does for this page's pause,
    and the stop's "(below)" that nothing below showed, cut."""
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
    if not (go and stop):
        raise HeadlineError(
            f"{pinned}: 02's answer sets a mode that compacts against one that stops"
        )
    fixed = found.fixed_in or "the fixing release"
    return (
        f"**Answer.** On openai-agents {pinned} (over HTTP to the stand-in, the session asked "
        "to compact after every turn, responses stored), the pause's compaction request is "
        f"refused in {_modes(refused)} mode (on {_swept_first(found)}..{pinned} too: "
        "notebook 05's first table). The call stays stored without its output; the next "
        "question is "
        + ("answered" if answered else "not always answered")
        + ", the runner leaving that call out of its request.\n\nThat question compacts in "
        f"{_modes(go)} mode, sending as items only what was stored after the call (`auto` sends "
        "the response's id only if the request that made it carried every stored item), "
        f"and sends no compaction request in {_modes(stop)} mode, nor can it on {pinned} while "
        "that call stays stored.\n\n"
        f"**What to do.** SDK maintainers: {AFTER_A_TURN} {WAIT}, part of {fixed}'s fix "
        "(notebook 03 shows its lines, and what else to backport).\n\nThe pause then sends no "
        f"compaction request to refuse (notebook 01's last table: `auto` mode, {fixed}).\n\nOn "
        f"{fixed} too, `previous_response_id` mode compacts none of ten later questions while a "
        f"call nobody answers stays stored (notebook 10's table *{TABLE_10}*): that mode needs "
        f"the last request to carry every stored item ({pinned}'s docstring, this page's "
        "section *What compaction does next*), so the fix keeps that stop; notebook 10's patch "
        "lets `input` and `auto` mode compact again."
        f"\n\nTeams: upgrade to {fixed}; notebook 06 says what to wrap the "
        "session in until then, and where to keep it after. After a refused pause, the session "
        "keeps that call in both modes (this page's last table): notebook 07 shows the repair "
        "that rewrites such a call as a note that it was never answered."
    )


def _swept_first(found: Findings) -> str:
    if found.releases is None:
        raise HeadlineError("the answers need data/sweep.json")
    return str(list(found.releases.versions)[0])


def _keep_said(found: Findings) -> str:
    """``keep_workaround``'s first paragraph (apply it before the fixing release, and where to
    keep it on that release), cited: the words the README and notebook 06 say, without its
    costs (notebook 06 has them)."""
    return keep_workaround(found, cite="").split("\n\n")[0].removesuffix(".") + " (notebook 06)."


def _era_of(found: Findings, release: str) -> Era:
    if found.releases is None:
        raise HeadlineError("the answers need data/sweep.json")
    for era in found.releases.eras:
        first, _, last = era.span.partition("..")
        order = list(found.releases.versions)
        if order.index(first) <= order.index(release) <= order.index(last or first):
            return era
    raise HeadlineError(f"{release} is not in the sweep")


TABLE_12 = "Each kind of approval: its minimal fix in hunks"  # notebook 12's table


def inside_the_sdk(found: Findings, folder: Path = paths.DATA) -> str:
    """03: the function that compacts the pending call away, the check that should have stopped
    it, and what the fixing release changed (the call to that check moved, the function itself
    unchanged: r13); then the maintainer's backport, named as 12's hunk 2 with what it moves,
    and the two hunks a hosted MCP approval request needs too (r20: "nor for the other tool
    kinds it lists" included hosted MCP, which 12's table shows broken with hunk 2 alone; "waits"
    against the excerpt's "skips"). r21: hunk 2 alone on the first screen left hosted MCP
    unfixed, and 10's stop after an unanswered MCP request was the body's: the action names
    hunks 1 to 3, that stop and 10's patch. r22: what hunks 1 and 3 are and do, the branch named
    (not "the `if`"), 0.24.0's stop in `previous_response_id` mode after any call nobody answers
    (10's table, as the README's), and what 10's patch changes and leaves stopped. r23: the
    hosted MCP return moved from the answer (this page does not show it) to hunk 3's clause; hunk
    2 said to be the move the excerpts show; "it lists fixed but" and "there" reworded. r24: five
    paragraphs, three on what the page does not show: the move in plain words, 12's hunks
    named as 12's, the hosted MCP fix and 10's stop and patch as pointers."""
    m = found.mechanism
    if m is None:
        raise HeadlineError("the answers need data/mechanism.json")
    locked = m.function.rpartition(".")[2]
    fixed = found.fixed_in or "the fixing release"
    return (
        f"**Answer.** In openai-agents {m.old}'s trace (the SDK functions a paused run calls, "
        f"step by step; `{STUDY_MODE}` mode, over HTTP to the stand-in), the session's "
        f"`{locked}` sends the waiting call to the compaction endpoint and stores the summary in "
        "its place.\n\nThe SDK's check for a call without its output "
        f"(`drop_orphan_function_calls`) runs at the {', '.join(m.old_compacts_at)} only where "
        "the runner builds the model's input; compaction calls it only in its partial-snapshot "
        f"branch (the one for replacing part of the history), which the pause does not enter.\n\n"
        f"{m.new} calls it in every automatic compaction, which then returns "
        "without compacting while the latest model exchange holds a call without its output "
        "(this page's excerpts).\n\n"
        f"**What to do.** SDK maintainers: on {m.old}, make the change this page's "
        f"excerpts show: in `{locked}`, move the call to `drop_orphan_function_calls` out of the "
        "partial-snapshot branch into the `if is_automatic:` block every automatic compaction "
        f"enters ({m.old} has that block too; notebook 12's hunk 2).\n\nNotebook 12's table "
        f"*{TABLE_12}* (run on {m.old}, `{STUDY_MODE}` mode) shows the one kind of call that "
        "move leaves unfixed, a hosted MCP approval request, and the hunks that fix it, both in "
        f"the same file: its hunk 3, a check in `{locked}` that each such request has its "
        "response, and hunk 1, that check's import (its hunk 4 is not needed).\n\n"
        "Notebook 10 shows what the fix then leaves uncompacted, and its patch.\n\n"
        f"Teams: upgrade to {fixed}; notebook 06 says what to wrap the session in until then, "
        "and where to keep it after; notebook 07, how to repair stored sessions."
    )


def violation_matrix(found: Findings) -> str:
    """04: how many cases break an invariant, the one choice they share, how many invariants
    they break (the body's table names each), then 04's own action (r14: every page ended on the
    teams' paragraph, which 04's finding does not lead to): the rule 04's body states for SDK
    maintainers and the cases a test of a fix needs, then one pointer for teams."""
    pinned = found.pinned
    if pinned is None:
        raise HeadlineError("the answers need data/matrix.json")
    choice, _, value = pinned.violating_choice.partition("=")  # r16: "compaction `on`"
    shared = f", exactly those with {choice} `{value}`" if pinned.violating_choice else ""
    broken = [i.invariant for i in pinned.invariants if i.violated]
    upgrade = f"upgrade to {found.fixed_in}; " if found.fixed_in else ""
    # r24: "change nothing" read against the next table, where the decision changes what is
    # stored and sent: those choices change not which invariants break; "why both" names 0.24.0
    # r20: "In each" after the refused modes read as those modes storing the orphan output too;
    # r12 round: the first screen short (answer and action in plain words, details in the body)
    return (
        f"**Answer.** Compaction alone. On openai-agents {_pinned(found)}, in `input` mode with "
        f"the scripted model, {pinned.violating} of {pinned.cases} cases break an invariant"
        f"{shared}: "
        "in each, the call waiting for approval is compacted away and its output then stored and "
        f"sent without it ({len(broken)} invariants break; the matrix below marks them). The "
        "runner, the decision and where the paused state is kept do not change which invariants "
        "break.\n\n`on`: the "
        "study asks for a compaction after every turn, the pausing turn included"
        f"{_own_threshold(found)}."
        "\n\nOver HTTP, in "
        "`previous_response_id` mode and in `auto` mode with responses stored, the pause fails "
        "instead: its compaction request names a response holding the call without its output "
        "(notebook 05).\n\n"
        "**What to do.** SDK maintainers: compact no history that holds a call still waiting "
        f"for its output, as {found.fixed_in} does (notebook 03), and test the change on all "
        "sixteen cases, state kept in memory and "
        "carried as JSON both, with `python -m approval_compaction matrix` (why both: on "
        f"{found.fixed_in} the two differ: *Which choices change anything*, its last paragraph). "
        f"Teams: {upgrade}notebook 06 says what to do before and after it, notebook 07 with "
        "sessions already stored."
    )


def _own_threshold(found: Findings) -> str:
    """04's scope of "compaction `on`" against the SDK's defaults (r22: "Compaction alone" read
    as every compacting session breaking): where 07's section 1 counts how often the pinned
    release asks for a compaction at the pause with no hook (r23: the count here, "2 of 21
    points", had no unit on this page)."""
    if not found.affected:
        return ""
    return " (how often the SDK asks for one by itself: notebook 07's section 1)"


def releases(found: Findings) -> str:
    """05: the releases that lose the pending call, what a user of each mode meets on which
    range of them (consecutive ranges that meet the same, joined), then 05's own action (r14):
    the first release where no case breaks an invariant, the workaround before it (06 says where
    to keep it after: r15 read "until then" as "drop it"), the doctor scoped to the releases
    whose journey shows the orphan output stored (r15: the first era stores none), and the
    maintainers' line: the sweep either side of a change, as the page's Try this runs it."""
    if found.releases is None or found.fixed_in is None:
        raise HeadlineError("the answers need data/sweep.json and data/fix-releases.json")
    eras = found.releases.eras
    hit = [e for e in eras if e.affected]
    lost = release_range(hit[0].span.partition("..")[0], hit[-1].span.rpartition("..")[2])
    stored = [e for e in hit if e.orphan_stored != "never"]
    moved = stored[0].span.partition("..")[0]  # the release whose change stored the orphan
    before = found.releases.versions[found.releases.versions.index(moved) - 1]
    violating, cases = fixed_in_cases(found.releases, found.fixed_in)
    # r24: "loses" read as "fails" where the next paragraph says a user meets no error
    # r20: the 0.23.1 store and the check's cause took the first screen past line 45, and the
    # shared short action's keep clause read as sparing `previous_response_id` from the MCP case:
    # 05's own short action, pointing to 06 (where the workaround ran, where to keep it) and 07
    return (
        f"**Answer.** Long before: every release {lost} loses the call waiting for approval "
        f"({hit[0].affected} of {hit[0].cases} cases break an invariant; `{STUDY_MODE}` mode, "
        f"scripted model), not always with an error; {found.fixed_in} is the first where "
        f"{violating} do.\n\n"
        "What a user meets "
        f"over HTTP with compaction on: {_met_by_mode(found.releases, hit)}"
        f"\n\n**What to do.** Upgrade to {found.fixed_in}. Until then follow notebook 06 (the "
        "workaround, the releases it ran on, where to keep it after upgrading) and notebook 07 "
        "(sessions an affected release stored). SDK maintainers: run the sixteen cases on the "
        "releases either side of a change to when compaction runs, as "
        f"`python -m approval_compaction sweep --versions {before},{moved}` does for {moved}, "
        "where `input` mode starts failing the next question (the section *The pending call's "
        "journey* says why)."
    )


# what the sweep's severities mean for a user, in plain words (r20: "the stand-in refuses
# nothing" described requests, not what the user meets)
_MET_WORDS = {
    PAUSE_FAILS: "the pause fails: nothing to approve",
    NEXT_TURN_FAILS: "the next question fails",
    COMPACTION_ONLY: (
        "the stand-in answers the next question, the call and its output compacted away (the "
        "real endpoint's answer is unknown: notebook 09)"
    ),
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
        name = f"`{mode}` mode with responses stored" if mode == "auto" else f"`{mode}` mode"
        said.setdefault(", and ".join(parts), []).append(name)
    # r15: "in `auto` with responses stored and `previous_response_id` mode" read as one mode;
    # r18: the modes in one 80-word sentence: one sentence per group of modes now
    groups = [f"in {' and in '.join(modes)}, {met}." for met, modes in said.items()]
    return " ".join(g if n == 0 else g[0].upper() + g[1:] for n, g in enumerate(groups))


def workaround(found: Findings) -> str:
    """06: the workaround keeps every invariant by making compaction wait, not by switching it
    off, the fixing release does the same, and what it costs; then the rule in full: upgrade,
    where to keep it and where to drop it, the doctor (r13: the answer's costs left out the
    SDK tests it fails, named only 340 lines later)."""
    fixed = found.fixed
    if fixed is None:
        raise HeadlineError("the answers need data/fix-matrix.json")
    how = (
        "Some other way: it makes compaction wait"
        if fixed.compacting == fixed.compaction_on
        else "Partly by switching it off: some `on` cases no longer compact"
    )
    checks = fixed.verdicts
    per_case = checks // (2 * fixed.compaction_on) if fixed.compaction_on else checks
    pinned = ", ".join(fixed.releases)
    fixed_in = found.fixed_in or "the release that fixes it"
    # r12 round: the first screen short; the regression test's scope, the costs and the
    # suite's evidence are the body's (r15/r19: the scope stays, in one clause of the action)
    kept = (
        f"the {fixed.compaction_on}"
        if fixed.compacting == fixed.compaction_on
        else f"{fixed.compacting} of the {fixed.compaction_on}"
    )
    # r24: "`on`" undefined on the first screen; "removed calls" before any block said what
    # removes them, and "failed writes retried" misnamed what is retried (the restore); the
    # keep rule said twice (What to do says it): cut here, to keep What to do on the first screen
    return (
        f"**Answer.** {how}. With it on openai-agents {pinned}, "
        f"{_none_of(fixed.violated, per_case)} breaks in any of the {2 * fixed.compaction_on} "
        f"cases (`input` mode, scripted model), and {kept} asking for compaction after every "
        "turn still compact, none with the call still waiting, as "
        f"{fixed_in} does without it. Over HTTP on {pinned}, with it, each request of those "
        f"{fixed.compaction_on} cases is answered in each mode (`auto`: `store` unset).\n\n"
        "Its costs: a late answer to a call it removed after a later question is stored as text; "
        "a failed compaction write costs a reread and up to three tries to put the history back, "
        "then the same error.\n\n"
        "**What to do.** "
        f"{_keep_or_drop(found)}"
    )


def _none_of(violated: int, invariants: int) -> str:
    """06's count of the invariants the workaround keeps: none of them breaks, or how many
    times one does (r15: "checks" is the doctor's word)."""
    if not violated:
        return "no invariant"  # r23: "none of the 12" counted what the first screen had not
    return f"an invariant ({violated} times in all; {invariants} judged)"


def _keep_or_drop(found: Findings) -> str:
    """06's action, the rule in full: upgrade; the workaround until then; on the fixing release,
    keep it where that release alone never compacts again (``_keep_after``), drop it in the
    other modes where no hosted MCP tool asks for approval (there the fixing release keeps
    compacting past a function call nobody answers, and the workaround would cost a late answer
    its pairing); the doctor for stores already written."""
    span = _affected_span(found)
    doctor = "Sessions an affected release already stored: notebook 07."
    if not found.fixed_in:
        return f"On {span}, wrap the session in the workaround. {doctor}"
    keep = _keep_after(found).replace("*", "")  # the block defines the term: no italics (r14)
    # r20: "retire it as the workaround does" named not the late answer it costs: the patch
    maintainers = (
        f" SDK maintainers: notebook 10's patch fixes {found.fixed_in}'s stop after that MCP "
        "request in `input` and `auto` mode (a bug)."
        if _stops_after(found)
        else ""
    )
    # r24: the README's limit before 0.22.1 (an MCP request sent once) was missing here
    # r19: the advice covered releases the answer says it was not run on in full: say where it was
    full = (
        f" (before {', '.join(found.fixed.releases)} only the four `json` cases of *The regression "
        "test across releases* ran with it)"
        if found.fixed
        else ""
    )
    return (
        f"Upgrade to {found.fixed_in}; until then, on {span}, wrap the session in the "
        f"workaround, `defer_compaction_while_pending(session)`{full}. Before 0.22.1 it "
        "still sends an unanswered hosted MCP approval request once (the README's *What the "
        "workaround does*).\n\n"
        f"{keep[0].upper()}{keep[1:]}; drop it elsewhere (the last table and "
        "notebook 10: it gains nothing there). "
        f"{doctor}{maintainers}"
    )


def am_i_affected(found: Findings) -> str:
    """07: the doctor's three answers, one short item each, each pointing to the section that
    shows it (r14: section 1 over HTTP, sections 2 and 3 on the scripted model; the scopes are
    the sections' titles: r21's first screen holds the answer and the action by line 40), then
    the doctor's steps in order: check your own set-up (`doctor check`), stop new damage (the
    upgrade; 06 names the workaround), scan, answer a stuck session late where its run state is
    kept (r20: section 3's late-answer table shows that heals it, with the defaults), repair."""
    if not (found.affected and found.upgrade and found.worker and found.heal):
        raise HeadlineError("the answers need data/doctor-*.json")
    pinned, newest = found.affected
    up, heal = found.upgrade, found.heal
    healed = not heal.after.get("poisoned", 0) and not heal.after.get("stuck", 0)
    stop = f"upgrade to {found.fixed_in}" if found.fixed_in else "no release fixes it yet"
    failed = up.pause_failed
    stuck = (  # r18: section 2's refused pause is asked by the hook, not the default trigger
        f"; a store whose pause was refused stays {failed.stored_after}" if failed else ""
    )
    return "\n".join(
        [
            "**Answer.**",
            f"1. With the SDK's defaults, {pinned.release}'s pause is refused at "
            f"{len(pinned.affected_at)} of the {len(pinned.rows)} pause positions 0 to "
            f"{len(pinned.rows) - 1} ({' and '.join(map(str, pinned.affected_at))}, section 1): "
            "where the pausing turn sends a compaction request; "
            f"{newest.release}'s at {len(newest.affected_at) or 'none'}.",
            f"2. Upgrading {'heals' if up.heals else 'does not heal'} a stored session (section "
            "2, its stores not made with the defaults): on "
            f"{up.newest} the next turn of a store poisoned in `input` mode is "
            f"{_refused(up.poisoned.next_turn)}{stuck}.",
            # r24: the subcommands' meanings came after the setup code: each said where used
            "3. `doctor repair --apply` (it rewrites what breaks a stored session) heals "
            f"{'the' if healed else 'not all the'} poisoned and stuck sessions and leaves alone "
            f"one still waiting for its approval (section 3); on {pinned.release}, a *run state* "
            "(the paused run an application saves) resumed after the repair poisons the session.",
            "",
            "**What to do.**",
            f"1. SDK maintainers: to heal stored sessions in a release after {up.newest}, rewrite "
            "their orphan outputs on load as `src/approval_compaction/doctor/repair.py` does "
            # r25: "it ... them" and the wrapper's aside left the stuck call's fate unclear
            "(section 3's first rewrite). Leave a stuck call (a call without its output) in "
            "place on load: the doctor rewrites one only after the team resumed its saved run "
            "state (step 3), as a resume after that rewrite poisons the session (section 3's "
            f"last table, {pinned.release}, the SDK's defaults).",
            "2. Teams: run `python -m approval_compaction doctor check` (which pause positions "
            "of your set-up fail; section 1 runs the same check); "
            f"{stop}; notebook 06 says what to wrap the session in until then, and where "
            "to keep it after.",
            "3. Run `doctor scan STORE --all` (each stored session's diagnosis); where a stuck "
            "session's approval was left unanswered and its run state saved, resume that state "
            # r25: the evidence is 0.23.1's only, while step 2 upgrades: the step says so
            "before the repair, not after (section 3's last table: on "
            f"{pinned.release}, with the SDK's defaults); "
            "then `doctor repair STORE --all --apply`.",
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
    """The doctor's word for a next turn, in the collection's: the stand-in *refused* it (HTTP
    400) or *answered* it, where the doctor's tables say ``rejected`` and ``accepted``."""
    return (
        "refused" if next_turn == REJECTED else "answered" if next_turn == ACCEPTED else next_turn
    )


def exploration(found: Findings, folder: Path = paths.DATA) -> str:
    """08: does the bug need a function tool? The kinds that lose their pending call on the
    pinned release and the mode that refuses the compaction instead, scoped (r13: a reader on
    `auto` mode learnt nothing: the answer says none was filed there); what the workaround and
    the fixing release keep; then ``short_action``. The liveness rows are the body's
    (``exploration_stopped``)."""
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
    filed = {f.trace.conversation.mode for r in unfixed for f in r.findings}
    unfiled = [m for m in found.releases.modes if m not in filed] if found.releases else []
    stored = [f for f in losing if any(i in _STORED_ALONE for i in f.invariants)]
    unshown = [k for k in lost.split(", ") if k not in _kinds(stored).split(", ")]
    searched = " and ".join(r.sdk_version for r in unfixed)
    paused = [f for f in refused if f.trace.conversation.mode in refused_in]
    said = [
        # r24: the scope left out the workaround's search, which the tables show
        f"**Answer** (openai-agents {searched}, {old.sdk_version} with the workaround too, "
        f"scripted model). Yes, on {old.sdk_version} in "
        f"{_modes(lost_in)} mode: a *search* (random conversations through the SDK) shows "
        "compaction at the pause taking the waiting call of every kind, and its output then "
        "stored without it"
        + (  # r20: 12's four cases show what the search kept no conversation of; r21: only that
            # r22: the search missed it: said so, not as a "see also"
            # r25: "the MCP request's: notebook 12, not this search" read as a riddle
            f" (this search stored no {', '.join(unshown)}'s answer alone: notebook 12 shows one)"
            if unshown
            else ""
        )
        # r22: a flat "Yes" read as settled, while 09 shows the endpoint's answer unjudged
        + ", if the real endpoint accepts that compaction (notebook 09)."
        + (  # r18: the refusal on the release the search kept it on, and why one kind
            f"\n\nOn {old.sdk_version} in {_modes(refused_in)} mode, {_asked(paused)} pause is"
            " refused (others: unjudged, notebook 09)."
            if paused
            else ""
        )
        + (  # r20: the filing rule, not the draws alone, leaves `auto` without its own
            # r23: "kept none" read as "drew none", against the table's `auto` conversations
            # r25: "none shows a break" read as "the default is safe", against 07's refusals
            f" This page does not answer for {_modes(unfiled)} mode, the default (*The minimal"
            " counterexamples* says why); notebook 07 shows its pause refused on 0.23.1."
            if unfiled
            else ""
        )
    ]
    after = []  # what the workaround's search and the fixing release's kept
    broke = sum(len(r.findings) for r in fixed)
    if fixed and broke:
        after.append(f"with the workaround {broke} conversations still break")
    stalled = []  # the kinds whose approval left unanswered stops compaction on the newest
    if new is not old:
        kept = [f for f in new.findings if _loses(f)]
        lose = "no call is lost" if not kept else f"{_count(kept)} lose it"
        stalled = [f for f in new.findings if f.trace.conversation.mode in lost_in]
        stops = _stalls(new, stalled, lost_in)
        after.append(f"on {new.sdk_version} {lose}{stops}")
    if after:
        joined = "; ".join(after)
        said.append(joined[:1].upper() + joined[1:] + ".")
    said.append(
        "\n\n**What to do.**"
        + (
            f" SDK maintainers: in a patch release before {new.sdk_version}, hold compaction back"
            f" while a call of any kind waits for its approval, as {new.sdk_version} does"
            " (notebook 03); and on"  # r25: "on 0.24.0 too" read as "earlier releases too"
            f" {new.sdk_version}, apply"
            " `tests/sdk_regression/patches/0.24.0-compaction-liveness.patch`: later turns"
            " compact again in `input` and `auto` mode after an unanswered hosted MCP approval"
            " request (notebook 10)."
            if stalled
            else ""
        )
        + " Teams: wrap the session in the workaround whatever tools it approves (its search"
        " broke nothing: no proof)"  # r25: "one-round" came before *round*'s meaning
        # r22: "broke nothing" outran "a `holds` cell is no proof"; r23: scoped, it still rested
        # on the search the body calls no proof: the action cites no search
         + "; notebook 06 says where to keep it after upgrading."
    )
    return " ".join(said).replace(" \n", "\n")


def _stalls(new: Any, stalled: Sequence[Any], lost_in: Sequence[str]) -> str:
    """08: where later turns stop compacting on the newest release after an approval left
    unanswered: the hosted MCP request's in the modes that lose calls, and (r24: those rows were
    left out) the other kinds' in `previous_response_id` mode, the SDK's contract there."""
    if not stalled:
        return ""
    contract = [f for f in new.findings if f.trace.conversation.mode == "previous_response_id"]
    return (
        f"; after {_asked(stalled, owner='')} left unanswered, later turns do not compact "
        f"({_modes(lost_in)} mode; `auto`: notebook 10)"
        + (
            ", nor in `previous_response_id` mode after another kind's unanswered approval"
            if contract
            else ""
        )
    )


def _loses(finding: Any) -> bool:
    """Whether a kept conversation lost its pending call: it broke a pairing invariant."""
    return any(i.endswith(PAIRING) for i in finding.invariants)


KIND_NAMES = {
    "function_approval": "function tool",
    "custom_approval": "custom tool",
    "shell_approval": "shell tool",
    "apply_patch_approval": "apply_patch tool",
    "mcp_approval": "hosted MCP approval request",
}


_STORED_ALONE = ("stored_history_paired", "next_turn_input_paired")  # an output stored alone (08)
PAIRING = ("_paired", "_complete")  # the invariants a lost or unpaired item breaks
ACCEPTED_NEXT = "next_turn_accepted"  # a search files a refusal at the pause under it (08)


def _count(findings: Sequence[Any]) -> str:
    return "one conversation" if len(findings) == 1 else f"{len(findings)} conversations"


def _asked(findings: Iterable[Any], owner: str = "'s") -> str:
    """The kinds of approval the findings' conversations asked for, as ``a function tool's``
    (``owner=""``: ``a function tool``)."""
    asked = dict.fromkeys(
        KIND_NAMES.get(c, c)
        for f in findings
        for step in f.trace.conversation.steps
        if step.action == "ask"
        for c in step.calls
    )
    return ", ".join(f"a {name}{owner}" for name in asked)


def _kinds(findings: Iterable[Any], last: str = ", ") -> str:
    """The kinds of approval the findings pause on, in plain words, each once (the last two
    joined by ``last``: ``function tool, custom tool or shell tool``)."""
    names = list(
        dict.fromkeys(KIND_NAMES.get(k, k) for f in findings for _, k in f.pairs if k != "-")
    )
    return last.join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def explored_count(result: SearchResult) -> str:
    """How many conversations a search kept, and of which kind (``19 (14 bugs, ...)``)."""
    kinds = [breach_kind(f.trace.conversation.mode, f.invariants) for f in result.findings]
    return f"{len(kinds)} ({kind_tally(kinds)})" if kinds else "0"


def _reports(rule: Any) -> str:
    """The public reports that show the real API's refusal by ``rule`` (its status), named as
    the rules table names them (``microsoft/vscode#320060``; r16: short names beside the table's
    full ones read as two sources)."""
    return ", ".join(s.label for s in rule.sources if "400" in s.shows)


def the_wire(found: Findings) -> str:
    """09: the two requests the stand-in refuses, each with the public reports that show the real
    API's 400 and where it is met (the stage, per mode; notebooks 01 and 02 run those cases), and
    the compaction request no report judges (r14: the answer left out the table's third row, on
    which `input` mode's clean pause rests); then the SDK maintainers' action this page's finding
    gives, and one pointer for teams."""
    from ...wire import rules

    return (
        f"**Answer** (the stand-in over HTTP; the SDK's `OpenAIResponsesModel` on openai-agents "
        f"{_pinned(found)}). Of the requests openai-agents sends, the stand-in refuses two"
        # r25: "public reports show the real API applying" outran row 1's, naming no endpoint;
        # the prediction (a request carrying only an id) answered in words
        ", by rules public reports show the real API applying: a compaction request naming "
        "only a response (no items) whose stored history holds a call without its output "
        f"({_reports(rules.OPEN_CALL_COMPACT)}); and a model request holding a function call's "
        f"orphan output ({_reports(rules.ORPHAN_OUTPUT)}: a 400 saying "
        f'"{rules.ORPHAN_OUTPUT.example.replace(" <id>.", "")}" and an id, endpoint '
        # r24: "no report" against row 3's openai/codex#5385; "No" for a body not checked
        "unnamed).\n\nNo report shows for certain the real API's answer to a compaction "
        "request whose input holds a call without its output (`input` mode's at the pause, the "
        "rules table's `open_function_call_in_compaction_input`): the stand-in answers 200; if "
        "the real endpoint refuses it, `input` mode too raises at the pause. Is the fault made "
        "in the HTTP body? Not in the model request's: `OpenAIResponsesModel` sent a hand-built "
        "poisoned history unchanged, its orphan output among them (the compaction request's "
        "body unchecked).\n\n"
        "**What to do.** SDK maintainers: fix what the session stores and compacts (notebook 03 "
        "shows where), not `OpenAIResponsesModel`; before trusting that "
        "`input` mode's pause raises no error, send its compaction request once to the real "
        "endpoint. Teams: "
        f'search your logs for "{rules.ORPHAN_OUTPUT.example.replace(" <id>.", "")}" and '
        f'"{rules.OPEN_CALL_COMPACT.example.replace(" <id>.", "")}" (the rules table\'s '
        "*answer* column); "
        "notebook 06 (new sessions) and notebook 07 (stored ones) say what to do then."
    )


def after_the_fix(found: Findings) -> str:
    """10: on the fixing release, the bug a fresh session meets (no store an older release
    wrote), then what the SDK documents, in plain words (r5: the first screen's terms few, no
    situation names), with the test and the patch the page shows for SDK maintainers. r15: each
    claim scoped to the page's table (ten later questions over HTTP, not "for good": a request
    answered late compacts again), the documented limit in plain words."""
    if found.liveness is None or found.fixed_in is None or not found.verdicts:
        raise HeadlineError("the answers need data/sweep-liveness.json")
    fixed = found.fixed_in
    record = of(found.verdicts, fixed)
    fresh = [v for v in record.of_kind(BUG) if v.situation != POISONED]
    label = (
        f"**Answer** (openai-agents {fixed}, a fresh `SQLiteSession` asking for compaction after "
        "every turn, ten later questions over HTTP in each compaction mode, responses stored, "
        "the stand-in answering compaction as the API documents: the user's messages and one "
        "summary)."
    )
    if not fresh:
        return f"{label} No: a fresh session keeps compacting.\n\n{maintainers_10(found)}"
    # r16: "Yes" read as any approval's answer; it is the rows' situations' only (a function
    # call's approval nobody answers keeps compacting in those modes: the table's left-out rows)
    stuck = {v.situation for v in fresh}
    said = f"{label} " + " ".join(
        f"For {SITUATION_WORDS.get(v.situation, v.situation)}, yes: {NONE_COMPACTS} in "
        f"{_modes(v.modes)} mode while the request stays unanswered."
        for v in fresh
    )
    if "abandoned" not in stuck:  # r18: "there" had two referents (the modes, the session)
        modes = [m for m in MODES if any(m in v.modes for v in fresh)]
        said += "\n\nA function call's approval nobody answers keeps compacting in "
        # r24 (C): the README's verdict row (summary_only) read as a contradiction: the
        # compaction answer this holds under is said, and where the other answer is shown
        # r25: "under that answer" read as this page's Answer, "summary-only" was undefined
        said += f"{_modes(modes)} mode when {DOCUMENTED_ANSWER} ({SUMMARY_ONLY_06})."
    documented = sorted({m for v in record.of_kind(CONTRACT) for m in v.modes})
    if documented:
        # r25: one paragraph with the function call's sentence (What to do within the screen)
        joint = " " if "abandoned" not in stuck else "\n\n"
        said += (
            f"{joint}In {_modes(documented)} mode {DOCUMENTED_STOPS}, as the SDK documents "
            f"({DOCUMENTED_WORDS})."
        )
    return f"{said}\n\n{maintainers_10(found)}"


MODES = ("input", "auto", "previous_response_id")  # the compaction modes, in the pages' order
NONE_COMPACTS = "none of the ten later questions compacts"  # 10's table: `0 of 10 compacted`
# the SDK's docstring (DOCUMENTED_LIMIT, quoted in 10's body) in plain words (r15: "complete
# coverage" was never explained on the first screen)
DOCUMENTED_WORDS = "that mode compacts only the whole history"
# 10's documented stops, as its table's three `previous_response_id` rows show them (r19)
# r22: the question asks about approvals; the lost call (no approval) is the table's row only
# r23: `lost` (no approval) is a row of the table too: said as any call
DOCUMENTED_STOPS = (
    "it stops after any call nobody answers (an approval, or a tool whose process died)"
)
# 06's table that shows what keeps a session compacting on the fixing release (10's teams)
TURNS_TABLE_06 = "Turns that compacted, as released"


def maintainers_10(found: Findings) -> str:
    """10's own action (r14: the page's finding first, for the maintainers it is pasted to): the
    test to add and the patch that makes it pass, by their paths in this repository. r15: scoped
    to what the page ran (a `SQLiteSession`; the stores the docstring names are the body's), the
    mode it leaves stopped said plainly, and teams pointed to 06's table by its title."""
    test, patch = (p.relative_to(paths.ROOT) for p in (_MCP_TEST, _PATCH))
    # r16: the stores the patch cannot help (its docstring, shown in the body) on the first
    # screen; teams given the README keep table's clause (``_keep_where``), not a cut title
    keep = _keep_where(found).replace("keep it only", f"keep the {WRAP_10} only", 1)
    # r24: the first screen's meaning (it holds compaction back) read as causing the stop
    keep = keep.replace(f"{WRAP_10} only", f"{WRAP_10}, {WRAP_DOES}, only", 1)
    keep = keep[:1].lower() + keep[1:]
    # r17: one subject per clause ("it" read as the test, then the patch); the stores the
    # docstring names said as the docstring's, which no run of the page shows
    # r18: "still compacts none" had no subject, and the patch's limit on other stores was said
    # only as the docstring's: what the patch leaves stopped is said as the page's diff shows it
    # r19: the store caveat (its code line, the second file) was said twice: said once, in the
    # body, where `snapshot` is defined; the second file is tested by the table's poisoned rows
    # r20: the patch's second file was never said on the first screen, though the table's
    # poisoned rows test it: what it does, and where the store it lets through still stops
    # r24: the stores the patch leaves stopped named on the first screen (the diff's reading,
    # the docstring's list); the test's place in the SDK's suite, and which file it tests; the
    # second file's paragraph scoped to its own store; what the workaround does, in one clause
    return (
        f"**What to do.** SDK maintainers: copy the self-contained test `{test}` into the SDK's "
        f"`tests/memory/` (it fails on {found.fixed_in}) and apply `{patch}` (the test then "
        "passes). With the patch, this "
        "page's `SQLiteSession` compacts all ten questions after an unanswered hosted MCP "
        "approval request in `input` and `auto` mode; in `previous_response_id` mode it still "
        f"stops as {found.fixed_in} does.\n\nStores other than `SQLiteSession`: this page did not "
        f"run them; by the diff (section *The patch*) the patch lifts the stop only in the "
        f"stores {found.fixed_in}'s docstring says can replace part of a history "
        f"({PARTIAL_STORE_NAMES}), and leaves every other store stopped."
        "\n\nThe patch's second file is for a store an older release wrote holding an output "
        "whose call is gone: it leaves that output out of the model's input, so that store is "
        "answered again in every mode, but compacts none of ten questions in "
        "`previous_response_id` mode (the table's last two rows; no test of "
        "the SDK's covers that file)."
        f"\n\nTeams using openai-agents: {keep} (notebook 06 tests it). Stores an older "
        "release wrote: notebook 07 checks and repairs them."
    )


SNAPSHOT_RETURN = "if snapshot is None and suffix_start > 0: return"  # the patch's new line


WRAP_10 = "workaround (`defer_compaction_while_pending`)"
# what lets compaction go on under the workaround (the glossary's continued clause, said where
# 10's teams' advice needs it)
WRAP_DOES = "which removes a call left unanswered once a later question follows it"
# where the other compaction answer (the SDK's fakes': a summary alone) is shown
SUMMARY_ONLY_06 = "a summary alone stops `input` mode: notebook 06"
DOCUMENTED_ANSWER = "the compaction endpoint answers as documented"


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
PARTIAL_STORE_NAMES = "SQLite, async SQLite and SQLAlchemy"  # 10's body, not its action (r15)


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
    shared = [k for k in an.kinds if k.minimal_fix == an.minimal_fix]
    other = [k for k in an.kinds if k.minimal_fix != an.minimal_fix]
    # r18: the other kinds' four cases were scoped only in the body; r20: said in plain words
    # (no *case*, no tool names the page defines only in its body), the first screen short
    words = {4: "four", 16: "sixteen"}
    kinds = "a function tool's approval"
    if shared:
        kinds += f" (all {words.get(len(shared[0].cases), len(shared[0].cases))} ways through a"
        kinds += " pause"
    if len(shared) > 1:
        cases = len(shared[1].cases)
        # r22: "custom tool" was explained only in the body: said as a kind of tool first
        # r25: "custom" explained 140 lines below: its input said where the kind is named
        kinds += ") and the SDK's other tools that ask for approval (shell, apply_patch and"
        kinds += f" custom, whose input is free-form text: {words.get(cases, cases)} ways each"
    kinds += ")" if shared else ""

    patches = {h.name: h.patch for h in an.hunks}

    def _an_import(hunk: str) -> bool:  # the check first, its import after
        return named(hunk).endswith(IMPORT_12)

    def named(hunk: str) -> str:  # a hunk of a kind's own fix: an import, or the check
        lines = patches.get(hunk, "").splitlines()
        imports = any(line.startswith(("+from ", "+import ")) for line in lines)
        what = IMPORT_12 if imports else f"{m.new}'s check that each request has its response"
        return f"hunk {an.numbers[hunk]}, {what}"

    _OTHERS = {1: "another", 2: "two others", 3: "three others"}
    own = [k for k in other if k.with_function_fix.verdict != "fixed"]  # hunk 2 alone loses it
    others = "".join(
        f" A {k.label} approval request needs {_OTHERS.get(len(k.minimal_fix), 'others')}: "
        + " and ".join(
            f"hunk {an.numbers[h]} ({named(h).partition(', ')[2]})"
            for h in sorted(k.minimal_fix, key=_an_import)
        )
        + "."
        for k in own
    )
    stored = next((e for e in found.releases.eras if e.orphan_stored != "never"), None)
    why = _why_stored(stored.span.partition("..")[0]) if stored else ""
    fix = ", ".join(str(an.numbers[h]) for h in an.minimal_fix)
    one = "one alone fixes" if len(an.minimal_fix) == 1 else f"{len(an.minimal_fix)} fix"

    # r14..r19: the backport for maintainers first, each part scoped to where it was tried, the
    # stop hunk 3 brings and notebook 10's patch for it; teams get 06's pointer only. r20: the
    # first screen short: the untried default mode named with the step that tries it (*Try
    # this*), the patch's scope left to notebook 10's table, whose title is named
    def _checks(kind: Any) -> str:  # r18: "those hunks' check" (one is an import): the check's
        return " and ".join(  # hunk by its number
            f"hunk {an.numbers[h]}'s check" for h in kind.minimal_fix if not _an_import(h)
        )

    mcp = "".join(
        f"; where {k.label} approval requests run, also "
        f"{_numbers(an.numbers[h] for h in k.minimal_fix)}, and notebook 10's patch: on {m.new} "
        f"{_checks(k)} stops compaction after a request nobody answers (notebook 10's table "
        f"*{TABLE_10}*); the patch is untried on {m.old}: run notebook 10's test"
        for k in own
    )
    action = (
        f"**What to do.** SDK maintainers backporting the fix to {m.old}: take hunk {fix} "
        "(run here in `input` mode only: first run *Try this* for `auto`, the default)"
        f"{mcp}.\n\nEach hunk's patch is "
        "in `data/fix-anatomy.json`.\n\nTeams using openai-agents: this appendix changes "
        "nothing for you; notebook 06 says what to do."
    )
    # r22: "every change but hunk 2 reverted" said again what the kinds table's column shows;
    # the Answer says that column (0.23.1 with the hunk alone), the body the other
    alone = all(k.with_function_fix.verdict == "fixed" for k in shared)
    rest = (
        f" On {m.old} with hunk {fix} alone, these approvals *hold* (break no invariant);"
        # r25: "any other change breaks nothing" contradicted hunk 3 and the hunks that cannot
        # run: scoped to the hunk table (a function tool's approval, the hunks whose revert runs)
        f" on {m.new} a function tool's holds with any other runnable hunk undone."
        if shared and alone
        else ""
    )
    return (
        f"**Answer** ({SCOPE_12}). Of the {len(an.hunks)} hunks {m.new} changed in "
        f"{_count_modules(an)} of its modules, {one} "
        f"{kinds}: hunk {fix}, which moves the check that each call has its output to where "
        f"every compaction runs it.\n\n"
        + "".join(f"{part.lstrip()}\n\n" for part in (rest + others, why) if part)
        + action
    )


# r24: "its import" named no import: the import the check's hunk needs
IMPORT_12 = "that check's import"


def _count_modules(an: Any) -> str:
    """How many modules the hunks are in, in words (r20: 12 named no module count)."""
    modules = len({h.path for h in an.hunks})
    return {1: "one", 2: "two", 3: "three", 4: "four"}.get(modules, str(modules))


# 10's table of the MCP check stopping compaction (r16: its full title, searchable)
TABLE_10 = "Where 0.24.0 or the patch misses a compaction in ten turns"


def _numbers(numbers: Iterable[int]) -> str:
    """``hunks 1 and 3``, ``hunk 2``."""
    ordered = sorted(numbers)
    if len(ordered) == 1:
        return f"hunk {ordered[0]}"
    return "hunks " + ", ".join(map(str, ordered[:-1])) + f" and {ordered[-1]}"


# 12's experiments: every run of fix-anatomy (the reverts, ddmin, each kind) is in this mode; the
# trace of the last section is over HTTP (r13: the label did not cover it)
SCOPE_12 = (
    "openai-agents 0.23.1 → 0.24.0, `input` mode, scripted model; 0.22.0 and 0.22.1 traced over"
    " HTTP"
)
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
    # r14: the boundaries are the body's (its trace is `json`'s); the answer names the cause
    return (
        f" From {first} the next turn fails: a check it added (does this run own the session?) "
        "skips the resume's compaction, so the output without its call stays stored."
    )


def _keep_after(found: Findings) -> str:
    """Where to keep the workaround after the upgrade, in one set of words (06's rule), scoped by
    kind of call and mode (r12: "after a call nobody answers" read as any call in any mode)."""
    after = _stops_after(found)
    if not after:
        return f"keep it on {found.fixed_in} if an approval can go unanswered"
    fixed = found.fixed_in
    return f"keep it on {fixed} where {fixed} without it stops compacting: after {after}"


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


def _keep_where(found: Findings) -> str:
    """Where to keep the workaround after upgrading, in the README's keep table's words
    (``tables.keep_where``: what can go unanswered, and in which modes), in one clause; r16:
    "drop it unless an approval can go unanswered" said to keep it for a function approval in
    `input` mode, and to drop it for a dead worker's call in `previous_response_id` mode, where
    the README's table says otherwise."""
    try:
        fixed = found.fixed_in
        where = keep_where(of(found.verdicts, fixed)) if found.verdicts and fixed else {}
    except LookupError:  # a fixing release the liveness sweep did not run
        where = {}
    if not where:
        return "Drop it after upgrading"
    said = [f"{what} can go unanswered ({_modes(modes)} mode)" for what, modes in where.items()]
    return f"After upgrading, keep it only where {', or where '.join(said)}"


def short_action(found: Findings) -> str:
    """What a team using openai-agents does, in the one short form every page's answer ends with
    (issue 61: 04/05/06 and 07/08/09 repeated a long action word for word, each a little
    differently; r14: pages restated 06's rule for keeping the workaround, which they do not
    show; r15: the bare pointer read as "drop it on upgrading"): upgrade, the workaround until
    then, kept after upgrading only where an approval can go unanswered (notebook 06 tests it and
    names the calls and modes), and the doctor for stores an affected release wrote (notebook
    07)."""
    wrap = "wrap the session in the workaround (`defer_compaction_while_pending`)"
    doctor = (
        "Check and repair the sessions an affected release stored with the doctor (notebook 07)."
    )
    if not found.fixed_in:
        return f"**What to do.** On {_affected_span(found)}, {wrap} (notebook 06). {doctor}"
    after = f"{_keep_where(found)} (notebook 06 tests it)."
    return (
        f"**What to do.** Upgrade to {found.fixed_in}. Until then, on {_affected_span(found)},"
        f" {wrap}. {after} {doctor}"
    )


def your_session(found: Findings) -> str:
    """Notebook 15: the committed example store, stepped through as a team's own session is (the
    findings are not read: the example is its own record)."""
    own = sdk_module("python", "session")  # the Python SDK's folder, by name (sdks)

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
    # r17: "alike" read as alike to each other or to `input`; the release that ran the next
    # question told from the one that stored the session, and the upgrade's effect pointed to
    # r18: "answered as `input`" overstated (they send no items to compaction): the status only
    alike = "; the other two modes got the same HTTP status: last table"  # r22: shorter
    alike = alike if same else ""
    pinned = _pinned(found)
    # r18: why 0.23.1 ran it: the release this repository installs (the tables follow the
    # installed SDK); r20: the store in notebook 07's own words (its *compacted pause*), the
    # file and session id as this page's first code cell sets them
    label = (
        f"**Answer** (the example: notebook 07's compacted pause store, session `{EXAMPLE_ID}` "
        f"of `examples/poisoned.db`, made on openai-agents {pinned}; next question run here on "
        f"{pinned}, the release this repository installs, `input` mode, over HTTP{alike})."
    )
    # r5: the answer's own words, then the page's own action; r20: one paragraph, and what
    # upgrading does to a stored session (notebook 07's table) said once, in the action
    answer = text.split("\n\n**What to do.**")[0].replace("**Answer.**", label, 1)
    answer = answer.replace(f"`{EXAMPLE_ID}` ({example.source}) is", "It is", 1)
    # r18: one word for the doctor's action on this page, the command's: repair
    answer = answer.replace(". Once the doctor heals it,", ".\n\nOnce the doctor repairs it,", 1)
    # r22: the id in the error text named where it is first read, and the store's condition
    # (09's) said with the diagnosis it qualifies, not only in the body
    # (the screen's lines: *poisoned*'s own meaning says what the next turn would send)
    answer = answer.replace(
        "**poisoned**: the next turn would send an output without its call; the stand-in",
        # r25: which stored item gets it refused, said in the Answer
        "**poisoned**; the stand-in",
        1,
    )
    answer = answer.replace(
        "the next question (HTTP 400 from `/v1/responses`:",
        "the next question for the paused call's orphan output (HTTP 400:",
        1,
    )
    answer = answer.replace(
        "\n\nOnce the doctor repairs it, the next question is answered and compaction runs.",
        "\n\nOnce the doctor repairs it, the next question is answered and compaction runs. Such"
        " a store arises only if the real API compacts at the pause as the stand-in does "
        "(notebook 09).",
        1,
    )
    return f"{answer}\n\n{own_action_15(found)}"


NEXT_TURN_TABLE_07 = "The next turn on stored sessions"  # 07's table: poisoned on each release


# 15's own action (r14: the page's finding first): the setting the page shows, then the command
# that heals what it finds; new sessions are notebook 06's. r15: one session, not `--all`; the
# backup the repair takes said; the JSON export's route; the other diagnoses 07's table shows.
# r18: the run state is a stuck session's (07 and the README's quick path: resumed after the
# repair, it poisons the session), one verb (repair), and new sessions a pointer to 06 (this
# page tests no workaround); r20: resumed before the repair, not discarded (07's table)
REPAIR_TABLE_07 = "doctor repair: each rewrite, and the diagnosis after --apply"
# r20: the first screen short: the run state said as the SDK's class (`RunState`), the
# rewrite's table left to the body, the export's way back in one clause
OWN_ACTION_15 = (
    "**What to do.** Set `source` and `session_id` (first code cell) to a session of yours. If the "
    "doctor calls it stuck, resume the paused run you saved to approve later (`RunState`) before"
    " the repair, never after: resumed after it, it poisons the session (notebook 07, `auto`"
    " mode). If it calls"
    " it pending (a call awaiting its decision), it needs no repair (the repair leaves that call"
    " as it is).\n\nThen "
    "`python -m "
    "approval_compaction doctor repair <store> --session-id <id> --apply` repairs a poisoned or "
    "stuck session in its store (`<store>`: the SQLite file's path or a database URL; the "
    "command backs the store up first). For a JSON export (`<export>`: a file of `json.dumps("
    "await session.get_items())`), `python -m approval_compaction doctor items <export> --output "
    "repaired.json` repairs it: load it back with `await session.clear_session()`, then `await "
    'session.add_items(json.load(open("repaired.json")))`.'
)


def own_action_15(found: Findings) -> str:
    """15's action: the page's own (``OWN_ACTION_15``), then new sessions (r16: "New sessions:
    notebook 06" gave no action; r18: a pointer to 06, which tests the workaround; r20: what
    upgrading does to a stored session, 07's table, said here once)."""
    if not found.fixed_in:
        return f"{OWN_ACTION_15}\n\nNew sessions: the {WRAP_10} (notebook 06)."
    return (
        f"{OWN_ACTION_15}\n\nNew sessions: upgrade to {found.fixed_in} (it does not repair a "
        f"stored session: notebook 07's table *{NEXT_TURN_TABLE_07}*); notebook 06 says what to "
        f"wrap the session in, before and after upgrading. SDK maintainers: notebook 10's "
        f"{found.fixed_in} patch lets such a store be answered; in `previous_response_id` mode "
        "it then compacts none of ten questions (its table's poisoned rows)."
    )


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
