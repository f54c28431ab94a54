"""Prose: each finding in words, rendered from its record; nothing here computes a finding.

The README's block, the report, the snippet and the notebooks' answer lines use these
sentences, so a claim reads the same wherever it is made. Each function takes records and
returns markdown text.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...formats.markdown import code
from ...wire.rules import ApiError
from ..affected.check import check_answer
from ..affected.heal import HealSummary
from ..releases.bisect import marked_ranges
from ..releases.crosscheck import JUDGED
from ..releases.versions import PACKAGE
from .doctor import Check, Upgrade, Worker
from .fix import Crosscheck
from .liveness import KEEPS, STUCK, LivenessEra, LivenessEras
from .matrix import MatrixFinding, Seen
from .mechanism import Mechanism
from .releases import NEVER, SEVERITIES, Era, ErrorMet, ModeStory, Releases


def matrix_lines(found: MatrixFinding) -> str:
    """Per invariant: how many cases break it and what they share, one bullet each."""
    lines = [f"openai-agents {', '.join(found.releases)}, {found.cases} cases:"]
    for count in found.invariants:
        name = f"`{count.invariant}`"
        if not count.violated:
            extra = f" ({count.unjudged} could not be judged)" if count.unjudged else ""
            lines.append(f"- {name} holds in every judged case{extra}.")
            continue
        verdict = "exactly the cases with" if count.exact else "cases sharing"
        lines.append(
            f"- {name} is violated in {count.violated} of {count.cases} cases: "
            f"{verdict} {count.choices}."
        )
    return "\n".join(lines)


def workaround_line(fixed: MatrixFinding) -> str:
    """The workaround's matrix: verdicts violated, and compaction-on cases that still compact."""
    return (
        f"{fixed.violated} of {fixed.verdicts} verdicts violated; {fixed.compacting} of "
        f"{fixed.compaction_on} compaction-on cases still compact."
    )


def seen_sentence(found: Seen) -> str:
    """Which cases end with which error over HTTP, and whether the prediction agrees."""
    if not found.failing:
        text = f"All {found.cases} cases are answered at every turn."
    else:
        said = "; ".join(
            f"{f.exception} (HTTP {f.http_status}) at the {f.stage} stage: {f.message}"
            for f in found.failures
        )
        where = " (exactly the cases with compaction=on)" if found.compaction_on_only else ""
        text = f"{found.failing} of {found.cases} cases end with {said}{where}."
    if found.agreeing is not None:
        text += (
            f" The scripted model's prediction agrees in {found.agreeing} of {found.cases} cases."
        )
    return text


def releases_sentence(found: Releases) -> str:
    """Each invariant's broken range and the release where it holds again."""
    parts = []
    for edge in found.boundaries:
        if edge.broken_ranges > 1:
            parts.append(f"{edge.invariant} breaks in {edge.broken_ranges} separate ranges")
        elif edge.broken_ranges:
            again = f"holds again in {edge.holds_again}" if edge.holds_again else "still broken"
            parts.append(
                f"{edge.invariant} is broken {edge.first_broken}..{edge.last_broken} ({again})"
            )
    versions = found.versions
    said = "; ".join(parts) if parts else "every invariant holds"
    return f"Of {len(versions)} releases, {versions[0]}..{versions[-1]}: {said}."


STAGE_WORDS = {"pause": "at the pause", "resume": "at the resume", "next_turn": "at the next turn"}


DEFAULT = "auto"  # the SDK's default compaction_mode
NOTES = {DEFAULT: " (the SDK's default)", "input": " (the original report's)"}


def _modes(modes: Sequence[str], noted: bool = False) -> str:
    """Modes in code spans: ```input```, ```auto` and `previous_response_id```; ``noted`` says
    which is the SDK's default."""
    named = [code(m) + (NOTES.get(m, "") if noted else "") for m in modes]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def _grouped(items: Sequence[tuple[str, str]]) -> list[tuple[list[str], str]]:
    """(mode, text) pairs with the same text grouped, in order of first mode."""
    found: dict[str, list[str]] = {}
    for mode, text in items:
        found.setdefault(text, []).append(mode)
    return [(modes, text) for text, modes in found.items()]


def _severities(found: Releases, mode: str) -> str:
    known = {
        s.release: s.severity for s in found.severities if s.severity is not None and s.mode == mode
    }
    parts = []
    for severity in SEVERITIES:
        marks = {v: s == severity for v, s in known.items()}
        ranges = marked_ranges(found.versions, marks)
        count = sum(marks.values())
        if count:
            plural = "release" if count == 1 else "releases"
            parts.append(f"{severity} on {', '.join(ranges)} ({count} {plural})")
    return "; ".join(parts)


def severity_sentence(found: Releases) -> str:
    """Per compaction mode (modes that read the same together), each severity with the ranges
    of releases it covers, in release order."""
    per_mode = [(mode, _severities(found, mode)) for mode in found.modes]
    said = [f"with {_modes(modes)}, {text}" for modes, text in _grouped(per_mode) if text]
    observed = sorted({s.next_turn_seen_by for s in found.severities} - {""})
    seen = f" (observed with the {' / '.join(observed)} model)" if observed else ""
    return (". With".join(s[0].upper() + s[1:] if i == 0 else s[4:] for i, s in enumerate(said))
            + seen + ".")  # fmt: skip


def _era_severity(found: Releases, era: Era) -> str:
    stories = [s for s in found.stories if s.span == era.span]
    if not stories:
        return era.severity
    pairs = _grouped([(s.mode, s.severity) for s in stories])
    return ", ".join(f"{_modes(modes)}: {text}" for modes, text in pairs)


def eras_sentence(found: Releases) -> str:
    """The eras in one sentence: each span, its size and its severity in each mode."""
    parts = [
        f"{e.span} ({e.count} release{'s' if e.count != 1 else ''}; {_era_severity(found, e)})"
        for e in found.eras
    ]
    total = sum(e.count for e in found.eras)
    return f"{total} releases, {len(found.eras)} eras: " + "; ".join(parts) + "."


def era_story(found: Releases) -> str:
    """Each era as a markdown bullet: where the pending call's pieces went in the study's mode,
    then what the user meets in each mode, in words."""
    lines = []
    for era in found.eras:
        stories = [s for s in found.stories if s.span == era.span]
        journey = _story(era)
        if not stories:  # the sweep's records alone: the failure they observed
            failure = f": {era.failure}" if era.failure else ""
            lines.append(f"- **{era.span}**: {journey}{failure}.")
            continue
        pairs = _grouped(
            [(s.mode, mode_story(s, journey if s.mode == "input" else "")) for s in stories]
        )
        said = " ".join(f"With {_modes(modes)}: {text}" for modes, text in pairs)
        lines.append(f"- **{era.span}**: {said}")
    return "\n".join(lines)


def mode_story(found: ModeStory, journey: str = "") -> str:
    """One mode's story in one era, in words: where the user meets the refusal and its text,
    whether the human can still decide, what the store holds, what the next turn does."""
    head = f"{journey}; " if journey else ""
    if not found.raising:
        return (
            head
            + "no request is refused: the human approves or rejects, and every turn is answered."
        )
    errors = "; ".join(code(e) for e in found.errors.split(", "))
    where = " and ".join(STAGE_WORDS[s] for s in found.raises_at.split(", "))
    text = (
        f"`Runner.run` raises `openai.BadRequestError` {where} in {found.raising} of "
        f"{found.cases} cases ({errors})"
    )
    if "pause" in found.raises_at.split(", ") and found.can_decide == "no":
        text += (
            ": no `RunState` comes back, so there is nothing to approve or reject and nothing "
            f"to resume; the store keeps {found.stored_after_pause}; the user can only ask "
            f"again: the next question is {found.next_turn}, and the store then holds "
            f"{found.stored_after_next_turn}"
        )
    else:
        text += f", and the store then holds {found.stored_after_next_turn}"
    return head + text + "."


def _story(era: Era) -> str:
    open_call, to_compaction = era.open_call, era.orphan_to_compaction
    stored, to_model = era.orphan_stored, era.orphan_to_model
    if NEVER == open_call == to_compaction == stored == to_model:
        return "nothing unpaired reaches compaction, the stored history or the model"
    said = f"compaction receives the open call at {open_call}" if open_call != NEVER else ""
    if stored == to_model == NEVER:
        return (
            f"{said} and its orphan output at {to_compaction}, which swallows it: "
            "it is never stored or sent unpaired"
        )
    parts = [said] if said else []
    parts += [f"the orphan output is stored at {stored}"] if stored != NEVER else []
    parts += [f"sent to the model at {to_model}"] if to_model != NEVER else []
    return "; ".join(parts[:1] + [", ".join(parts[1:])]) if len(parts) > 1 else parts[0]


def errors_met_lines(errors: Sequence[ErrorMet]) -> str:
    """Every refusal a user meets, one bullet each, with every text it is raised as (each in a
    code span, so a search for any of them finds it)."""
    lines = []
    for e in errors:
        texts = "; ".join(code(text) for text in e.texts)
        lines.append(
            f"- {code(e.api_message)}: HTTP {e.http_status} from {code(e.endpoint)} at the "
            f"{e.stages.replace('_', ' ')} ({_modes(e.modes.split(', '))}; {e.releases}), raised "
            f"as {code(e.exception)}: {texts}"
        )
    return "\n".join(lines)


def mechanism_sentence(found: Mechanism) -> str:
    """Which function compacts the pending call at the pause, and what the fix moved."""
    return (
        f"In {found.old}, {code(found.function)} (called at: {', '.join(found.called_at)}) sends "
        f"the pending call to `responses.compact` at the pause, because its "
        f"`drop_orphan_function_calls` check runs only under {code(found.old_block)} (line "
        f"{found.old_line}); {found.new} moves the check under {code(found.new_block)} (line "
        f"{found.new_line}), so it applies to a complete history too, and compaction requests go "
        f"out at {', '.join(found.new_compacts_at) or 'no stage'} instead of "
        f"{', '.join(found.old_compacts_at) or 'no stage'}."
    )


def where_in_the_sdk(found: Mechanism | None) -> str:
    """The paragraph naming the function responsible; empty without a mechanism finding."""
    if found is None:
        return ""
    said = mechanism_sentence(found)
    return f"**Where in the SDK** (read from each release's installed source): {said}"


def error_sentence(errors: Sequence[ApiError], mode: str = "input") -> str:
    """The errors in one sentence, each message in a code span so a search finds it verbatim;
    ``mode`` is the compaction mode of the runs they come from."""
    given = f'With `compaction_mode="{mode}"`, the' if mode else "The"
    if not errors:
        return f"{given} Responses API accepts every next-turn request."
    said = "; ".join(f"HTTP {e.status} {code(e.message)}" for e in errors)
    return f"{given} Responses API rejects the next turn's request with {said}"


def fixed_sentence(fix: str | None, test: str = "the regression test") -> str:
    """Which release fixes the bug; "" while none does."""
    if fix is None:
        return ""
    return (
        f" **Fixed in `{PACKAGE}` {fix}**: from this release on, {test} passes and the release "
        "sweep finds every invariant holding."
    )


def _span(versions: Sequence[str]) -> str:
    if not versions:
        return "no release"
    if len(versions) == 1:
        return versions[0]
    return f"{len(versions)} releases ({versions[0]} to {versions[-1]})"


def crosscheck_sentence(found: Crosscheck | None) -> str:
    """The unfixed test across the sweep, in one sentence."""
    if found is None:
        return "The test has not been run across releases yet."
    return (
        f"Run unpatched in each release's own environment, the test fails on "
        f"{_span(found.failing)} and passes on {_span(found.passing)}; in {found.agreed} of "
        f"{found.judged} release/runner/decision cases its outcome matches the sweep's verdict on "
        f"{' and '.join(map(code, JUDGED))} (fails exactly where either is violated). With the "
        "workaround wrapper around the session it passes on "
        f"{_span(found.wrapped)}."
    )


def affected_sentence(pinned: Check, newest: Check) -> str:
    """Am I affected with the SDK's defaults, and when; and on the newest release."""
    first = check_answer(pinned.config, pinned.rows, pinned.release)
    return f"{first} On {check_answer(newest.config, newest.rows, newest.release)}"


def upgrade_sentence(found: Upgrade) -> str:
    """Does the newest release heal a stored poisoned session?"""
    sick, healed, pinned, newest = found.poisoned, found.repaired, found.pinned, found.newest
    compacts = (
        f"compaction still runs ({sick.compaction_requests} request)"
        if sick.compaction_requests
        else "compaction does not run on it"
    )
    answered = sick.api_answer.rstrip(".")
    judged = f"by the {sick.judged_by}" + (f", {answered}" if answered else "")
    return (
        f"Upgrading from {pinned} to {newest} {'heals' if found.heals else 'does not heal'} a "
        f"session {pinned} poisoned: {newest}'s next turn on it is {sick.next_turn} ({judged}; "
        f"it sends the output {sick.orphan_outputs or 'nothing'} without its call), {compacts}, "
        f"and the stored history stays {sick.stored_after}. After `doctor repair` the next turn "
        f"on {newest} is {healed.next_turn}, with {healed.compaction_requests} compaction request."
        + _refused_sentence(found)
    )


def _refused_sentence(found: Upgrade) -> str:
    left = found.refused
    if left is None:
        return ""
    return (
        f' A session left by a pause the API refused ({found.pinned}, `compaction_mode="auto"`: '
        f"the call stored without its output) is {left.next_turn} on {found.newest}'s next turn "
        f"({left.api_answer.rstrip('.') or 'nothing sent'}), and stays {left.stored_after}."
    )


def worker_sentence(found: Worker) -> str:
    """A fresh worker given only the RunState JSON and the store."""
    parts = [
        f"compaction {r.compaction}: stored {r.stored_after_resume}, next turn "
        + (
            f"sends {' '.join(r.next_turn_orphans_worker)} without its call"
            if r.next_turn_orphans_worker
            else "paired"
        )
        for r in found.rows
    ]
    verb = "behaves exactly like" if found.same else "differs from"
    return (
        f"A fresh worker given only the RunState JSON and the store {verb} the in-process "
        f"resume: same stored history and same next-turn input ({'; '.join(parts)})."
    )


def heal_sentence(found: HealSummary) -> str:
    """Which sessions are poisoned, and the repair without loss."""
    before, after = found.before, found.after
    return (
        f"`doctor scan` found {before['poisoned']} poisoned of {found.sessions} sessions "
        f"({before['pending']} pending, {before['healthy']} healthy); `doctor repair --apply` "
        f"backed them up and repaired {found.repaired}, rewriting {found.items_rewritten} items "
        f"in place (after: {after['poisoned']} poisoned). Item by item, the backup holds "
        f"{found.items_backed_up} items of the poisoned sessions as they were "
        f"({found.items_backed_up_differently} differ), and after `doctor restore` "
        f"{found.items_restored_same} of {found.items_compared} items equal the original store."
    )


def meets_sentence(stories: Sequence[ModeStory]) -> str:
    """What a user meets on one release, per compaction mode (modes that read the same
    together), the group with the SDK's default mode first."""
    if not stories:
        return "no run in any compaction mode was recorded."
    release = stories[0].span
    pairs = sorted(
        _grouped([(s.mode, mode_story(s)) for s in stories]), key=lambda p: DEFAULT not in p[0]
    )
    said = "; ".join(
        f"with {_modes(modes, noted=True)}, {text[0].lower()}{text[1:].rstrip('.')}"
        for modes, text in pairs
    )
    return f"on openai-agents {release}, {said}."


def _era_words(era: LivenessEra) -> str:
    """One liveness era in words: its state, on which releases."""
    state = era.state
    where = (
        era.first
        if len(era.releases) == 1
        else f"{len(era.releases)} releases, {era.first} to {era.last}"
    )
    sent = f", its later turns sending the unpaired {', '.join(state.sent)}" if state.sent else ""
    if state.own_sent:
        sent += f", its own turns sending the unpaired {', '.join(state.own_sent)}"
    if state.resume_paired is not None:
        sent += (
            f", the late resume leaving unpaired items ({state.resume_unpaired})"
            if state.resume_paired is False
            else ", the late resume storing and sending nothing unpaired"
        )
    if state.verdict == KEEPS:
        return f"keeps compacting on {where}{sent}"
    if state.verdict == STUCK:
        pin = f", pinned by the {state.pin}" if state.pin else ""
        return f"**stuck** on {where} ({' and '.join(map(code, state.broken))} broken{pin}{sent})"
    return f"not judged on {where} ({state.why})"


def liveness_eras_lines(found: LivenessEras) -> str:
    """Per situation, in each mode (modes whose eras are the same together), which releases
    keep a session compacting and which are stuck, as markdown bullets."""
    lines = []
    situations = dict.fromkeys(e.situation for e in found.eras)
    for situation in situations:
        modes = dict.fromkeys(e.mode for e in found.eras if e.situation == situation)
        told: dict[str, list[str]] = {}
        for mode in modes:
            said = "; ".join(_era_words(era) for era in found.of(situation, mode))
            told.setdefault(said, []).append(code(mode))
        parts = [
            f"in {' and '.join(ms)} mode{'s' if len(ms) > 1 else ''}, {said}"
            for said, ms in told.items()
        ]
        lines.append(f"- **{situation}**: {'; '.join(parts)}.")
    return "\n".join(lines)


def liveness_sentence(found: LivenessEras) -> str:
    """How many releases keep every situation compacting, in one sentence."""
    situations = list(dict.fromkeys(e.situation for e in found.eras))
    modes = list(dict.fromkeys(e.mode for e in found.eras))
    healthy = [
        v for v in found.releases if all(v in found.keeps(s, m) for s in situations for m in modes)
    ]
    verb = "keeps" if len(healthy) <= 1 else "keep"
    count = len(found.releases)
    return (
        f"Each situation continued {found.turns} later turns on {count} "
        f"release{'' if count == 1 else 's'}, "
        f"the hook always saying yes: {_span(healthy)} {verb} every situation compacting in "
        "every mode."
    )
