"""Plugin: LangChain's entry in the lab's registry (``lab.plugins.REGISTRY``): its commands,
the README blocks it writes from ``data/`` (the verdict per release, the changes that moved
each boundary), and notebook 14's answer line. The shared code reads nothing else of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InvestigationError
from ..formats.arguments import AddCommand, Lazy
from ..lab import paths
from ..lab.plugins import SdkPlugin
from .files import FILES, MATRIX

if TYPE_CHECKING:
    from ..analysis.liveness import LivenessRecord
    from ..study.moves import Driven
    from .finding import LangchainFinding


class MissingLangchainData(InvestigationError):
    """A LangChain result file a block or an answer needs is missing under ``data/``."""


def register(add: AddCommand, lazy: Lazy) -> None:
    """The folder's commands (``commands.register``, which declares them loading nothing
    heavy)."""
    from .commands import register as declare

    declare(add, lazy)


def _found(folder: Path) -> LangchainFinding:
    from .finding import load

    found = load(folder)
    if found is None or not found.verdicts:
        raise MissingLangchainData(f"the LangChain tables need data/{FILES['sweep']} in {folder}")
    return found


def verdict_block(folder: Path = paths.DATA) -> str:
    """langchain's verdict per release: every 1.x release swept, each compaction step's cases
    and the liveness situations in every setting, from the one verdict record."""
    from ..formats.markdown import markdown_table
    from .finding import CASES, verdict_frame, with_control

    found = _found(folder)
    # r18: with what no step leaves (the ``none`` control, the worst refusals) beside what the
    # steps leave, as notebook 14's verdict table shows it (``finding.with_control``)
    frame = with_control(verdict_frame(found.verdicts, CASES, contract=False), found)
    return "\n".join(
        [
            # r25: 14's titles say its summariser is scripted; the README's dropped it
            "**langchain: the verdict per release** (over HTTP to the stand-in, the summariser "
            "scripted; "
            "[docs/langchain.md](docs/langchain.md), notebook 14):",
            "",
            markdown_table(frame),
        ]
    )


def changes_block(folder: Path = paths.DATA) -> str:
    """Each release where a setting's result changes, and the change that moved it (a line
    saying so when no swept release reads differently from the one before it)."""
    from ..formats.markdown import markdown_table
    from .finding import changes_frame

    found = _found(folder)
    frame = changes_frame(found)
    if frame.empty:
        return (
            f"No setting reads differently between two of the {len(found.releases)} releases swept."
        )
    return markdown_table(frame)


def _refused(row: LivenessRecord) -> int:
    """How many later turns of a liveness row the API refused (0 when the session was usable)."""
    from .report import RAISED

    found = RAISED.match(row.raised)
    return 0 if row.session_usable or found is None else len(found[1].split(","))


def answer(folder: Path = paths.DATA) -> str:
    """Notebook 14's answer, short (issue 61, r13): the releases affected (a case breaks an
    invariant); what a decision that never comes leaves with no compaction step at all (the
    ``none`` setting), counted from the pinned release's liveness runs; what the search finds of
    a late approval (the tool never runs), with the fix too; what maintainers and teams do. The
    per-step counts, the patched tables and the search's trim findings are in the body."""
    from ..lab.findings.verdict import AFFECTED
    from ..lab.releases.bisect import marked_ranges
    from .report import SITUATIONS
    from .sweep import CONTROLS

    found = _found(folder)
    order = [v.release for v in found.verdicts]
    hit = marked_ranges(order, {v.release: v.word == AFFECTED for v in found.verdicts})
    swept = f"{order[0]}..{order[-1]}, {len(order)} releases"
    cases = (
        f"`langchain` {', '.join(hit)} lose or orphan a call in the sixteen cases ({swept} swept)"
        if hit
        # r22: the blunt "No" is the sixteen cases', each decided before the next message
        else f"No: no `langchain` 1.x release ({swept}) loses the call waiting for a decision in "
        "the sixteen cases (each decided before the next message)"
    )
    rows = [
        r for r in found.liveness if r.invariant == "compaction_runs" and r.scenario in SITUATIONS
    ]
    controls = {plan.label for plan in CONTROLS}
    control = [r for r in rows if r.mode in controls]
    newest = " and newest" if found.version == order[-1] else ""  # r17: the question's
    refused = (
        f": on {found.version}, the pinned release{newest}, the stand-in then refuses "
        f"{max(_refused(r) for r in control)} of {max(r.turns for r in control)} later questions "
        f"with no compaction step{_with_step(rows, controls)}"
        if any(_refused(r) for r in control)
        else ""
    )
    dropped = _late_approval(folder, found)
    return (
        f"**Answer.** {cases}, over HTTP.\n\nWhat breaks: a message sent before the decision "
        f"starts a new run, leaving the call unanswered{refused}.{dropped}\n\n"
        "**What to do.** LangChain maintainers: take `langchain/fix/langchain-1.5.2.diff` (a "
        "new run answers the call left paused; its regression test: under *The fix*), and make "
        "the docs' trim step keep no tool message without its call: with the fix, when a tool's "
        # r24: "it" read as the fix or the step: the step named
        "process dies and another call follows, the trim step keeps such a message and the next "
        "turn is refused "
        "(last table). Make a late decision run its tool "
        f"or say it cannot.\n\nTeams on {order[0]}..{order[-1]}: decide each pause before the next "
        "message; when a tool's process dies, answer its call with a tool message first, as "
        # r24: the advice led into the finding the maintainers are given: its condition said
        "the fix does (with the docs' trim step the next turn can then be refused: last table)."
    )


STEPS = {  # the steps in the first screen's words (their names come in the body)
    # r20: "a 2-message summary" read as a summary two messages long: the messages it keeps
    "keep-1": "a summary plus the last message",
    "keep-2": "a summary plus the last two messages",
    "trim": "the docs' trim step",
}


def _with_step(rows: list[LivenessRecord], controls: set[str]) -> str:
    """What a call left unanswered (abandoned, lost) meets with a compaction step, by step
    (r18: "10 of 10" alone read as if a step avoided the refusals): how many later questions
    are refused with the steps that refuse some, and the steps that refuse none."""
    by: dict[str, int] = {}
    for r in rows:
        if r.mode not in controls and r.scenario in ("abandoned", "lost"):
            step = r.mode.split()[0]
            by[step] = max(by.get(step, 0), _refused(r))
    hit = [STEPS.get(s, s) for s in sorted(by) if by[s]]
    clean = [STEPS.get(s, s) for s in sorted(by) if not by[s]]
    counts = sorted({n for n in by.values() if n})
    said = ""
    if hit:
        many = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
        said += f", {many} of 10 with {' or '.join(hit)}"
    if clean:  # r22: its summariser is scripted: the caveat goes with the clean claim
        said += (
            f", none with {' or '.join(clean)} (its summariser is scripted: a real one "
            "is not tried)"
        )
    return said


def _late_approval(folder: Path, found: LangchainFinding) -> str:
    """What a late approval (*resumed*) leaves: the settings where its call stays stored open on
    the release (``late_call_frame``), and what the search finds of it: the tool never runs
    (``decision_enforced``), on the release and, if so, with the fix too; "" when not found."""
    from ..lab.findings.searched import searched_cases
    from .finding import late_call_frame

    late = [
        c
        for c in searched_cases("langchain", folder)
        if c.known_as == "resumed" and any(name == "decision_enforced" for name, _ in c.pairs)
    ]
    if not late:
        return ""
    fixed = any("+" in c.package for c in late)
    steps = " or ".join(sorted({STEPS.get(c.mode, c.mode) for c in late}))
    after = late_call_frame(found).get(f"{found.version}: the later questions")
    kept = sorted(
        {
            str(s).split()[0]
            for s, went in (after if after is not None else {}).items()
            if str(went).startswith("stored open")
        }  # fmt: skip
    )
    left = " or ".join(STEPS.get(s, "no step") for s in kept)
    # r22: the sentence was hard to parse, and said nothing of the steps that summarise the call
    # away where the search did not run (keep-2): what the page shows, said per setting
    gone = sorted(
        {
            str(s).split()[0]
            for s, went in (after if after is not None else {}).items()
            if str(went) == "nowhere"
        }
        - {c.mode for c in late}
    )
    open_said = (
        f" On {found.version} with {left} its call then stays unanswered; with "
        f"{' or '.join(STEPS.get(s, s) for s in gone)} it is summarised away, and whether the tool "
        "ran is not recorded."
        if kept and gone
        else ""
    )
    return (
        # r15: scoped to what the search tried (one setting), not "never"
        # r19: "search" and "moves" are defined in the body only; the step it ran with named
        # r24: "the last table's sequences" leaned on a table not yet shown: the sequence said
        "\n\nAn approval sent after three later questions did not run its tool"
        + (", fix or not" if fixed else "")
        + f", where the last table tried it ({steps}).{open_said}"
    )


def _search_left(folder: Path) -> str:
    """What the state-space search finds on the patched package that no situation has: in
    words where each is the docs' trim step (``report.search_said`` says why), else counted."""
    from ..lab.findings.searched import fixes_left, searched_cases
    from .report import release_trim_said, trim_after_fix

    searched = searched_cases("langchain", folder)
    new = [c for left in fixes_left(searched) for c in left.new]
    if not new:
        return ""
    if trim_after_fix(new):
        apis = sorted({part.removeprefix("api ") for c in new for part in c.settings.split(", ")
                       if part.startswith("api ")})  # fmt: skip
        words = {"chat": "Chat Completions", "responses": "the Responses API"}
        over = f" over {' and '.join(words.get(a, a) for a in apis)}" if apis else ""
        refused = sum(any(name == "next_turn_accepted" for name, _ in c.pairs) for c in new)
        said = f"; the API refuses the next question in {refused}" if refused else ""
        sending = ("next_turn_input_paired", "compaction_input_paired")
        sent = sum(any(name in sending for name, _ in c.pairs) for c in new)
        kept = [f"sent without its call in {sent}"] if sent else []
        kept += [f"stored without it in {len(new) - sent}"] if len(new) > sent else []
        release = release_trim_said(searched)
        return (
            f"A search over LangChain's own moves (the last section) finds {len(new)} sequences "
            f"no situation has, {'both' if len(new) == 2 else 'each'} on the patched package "
            f"with the docs' trim step{over}: a "
            f"later call's output is {', '.join(kept)}{said}."
            + (f"\n\n{release}" if release else "")
            + "\n\nThe trim step keeps the last three or four messages by count alone (three when "
            "the count is even), so the "
            "fix's extra message can move its cut between a call and its output: LangChain's "
            "docs, and teams that copied the step, should trim so that no tool message is kept "
            "without the AI message that called it."
        )
    return (
        f"A search over LangChain's own moves finds {len(new)} sequences the patch leaves broken."
    )


def driven() -> Driven:
    """The search's line for the driver (``explore --driver langchain``): its moves, its steps in a
    release's environment (made with uv on first use) or the patched one's, its pinned and
    newest releases."""
    from ..lab.releases.driven import uv_driven
    from .harness import Steps
    from .moves import MOVES
    from .packages import RELEASES
    from .patched import patched_environment

    return uv_driven(MOVES, RELEASES, Steps, patched_environment)


PLUGIN = SdkPlugin(
    name="langchain",
    notebook="14",
    register=register,
    blocks={"langchain": verdict_block, "langchain-changes": changes_block},
    answer=answer,
    files=(*FILES.values(), f"{MATRIX}.json"),
    driven=driven,
    runs=("approval_compaction.langchain.harness", "run_driver", "langchain"),
    mentions=r"[Ll]ang[Cc]hain|langgraph",
)
