"""Plugin: the JavaScript SDK's entry in the lab's registry (``lab.plugins.REGISTRY``): its
commands (``arguments``), its part of the front page's answers (``front``), notebook 11's answer
line, what ``data`` writes of it on the pinned release, its reports as comments (``share --js``),
its result files, and its line of the search's registry. The shared code reads nothing else of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..formats.arguments import AddCommand, Lazy
from ..lab import paths
from ..lab.plugins import Comment, SdkPlugin, Share
from .files import FILES, MATRIX, data_file

if TYPE_CHECKING:
    import pandas as pd

    from ..lab.affected.exports import ExportRecord
    from ..lab.plugins import FrontPage
    from ..study.moves import Driven, StepDriver
    from .finding import JsFinding


def register(add: AddCommand, lazy: Lazy) -> None:
    """The folder's commands (``arguments.register``, which declares them loading nothing
    heavy)."""
    from .arguments import register as declare

    declare(add, lazy)


def data(folder: Path) -> list[Path]:
    """What ``data`` writes of the pinned release (``commands.write_pinned``)."""
    from .commands import write_pinned

    return write_pinned(folder)


def front(folder: Path, releases: pd.DataFrame, errors: pd.DataFrame) -> FrontPage:
    """Its part of the front page's answers (``front.front``)."""
    from .front import front as write

    return write(folder, releases, errors)


def comment(folder: Path, which: str) -> Comment:
    """``share --js``: the pending call's report (text only), or with ``stall`` the stall's
    (its figure, written by ``report-js --stall``, to attach), from the files in ``folder``."""
    from .report import build_js_report, build_js_stall_report

    if which == "stall":
        return build_js_stall_report(folder), (data_file("stall_figure", folder),)
    return build_js_report(folder), ()


def answer(folder: Path = paths.DATA) -> str:
    """Notebook 11's answer, short (issue 61, r13): whether the JS SDK loses the call too and
    where ``run()`` throws, in the two modes that differ, on how many releases; the second bug
    (the stall) in one sentence; what a team and a maintainer do, with where the workaround is
    not enough and what both patches still leave (their evidence is in the body)."""
    from ..lab.findings.headlines import HeadlineError
    from .finding import load_js, load_js_liveness
    from .patched import BOTH
    from .stall_finding import load_stall

    js = load_js(folder)
    stall = load_stall(folder)
    if js is None or stall is None:
        raise HeadlineError("the answers need data/js-sweep.json, js-modes.json, js-stall.json")
    versions = sorted({r.sdk_version for r in js.sweep}, key=_key)
    both = f"{js.version}+{BOTH.name}"
    rows = [r for r in load_js_liveness(folder) if r.sdk_version == both]
    stuck = {r.scenario for r in rows if r.invariant == "compaction_runs" and not r.holds}
    retire = (
        "; with both, a call whose output never comes still stops compaction: make the "
        "session stop waiting for it, as `js/workaround.mjs` does"
        if stuck
        else ""
    )
    at_pause = sorted(
        {r.sdk_version for r in js.sweep if r.plan == "auto" and r.raised_at == "pause"}, key=_key
    )
    # r18: `auto` needs the compactionMode option (from 0.4.1): before it the session only sends
    # the response id, so those releases are said apart, not counted as `auto`
    moded = sorted(
        {r.sdk_version for r in js.sweep if r.plan == "input" and not r.not_applicable}, key=_key
    )
    older = [v for v in versions if v not in moded]
    auto = [v for v in at_pause if v in moded]
    before = (
        f", as on {older[0]}..{older[-1]} (no mode option: they send the response id)"
        if older and all(v in at_pause for v in older)
        else ""
    )
    later = sorted(
        {r.sdk_version for r in js.sweep if r.plan == "input" and r.raised_at == "next_turn"},
        key=_key,
    )
    # r22: what `input` meets before the 400, on most releases: no error, but the pause's
    # compaction request holds the open call (a user on 0.10.0 could not tell)
    quiet = sorted(
        {r.sdk_version for r in js.sweep if r.plan == "input" and r.violating and not r.raised_at},
        key=_key,
    )
    quiet_text = (
        f" On {quiet[0]}..{quiet[-1]} the pause's compaction request holds the open call "
        "(no error from the stand-in; the real endpoint's answer is unknown)."
        if quiet
        else ""
    )
    newest = " and newest" if versions[-1] == js.version else ""
    # r19: `auto` throws at the pause only with `store` unset; with `store: false` it sends the
    # items and meets what `input` meets, so it is said with `input`
    by_id = (
        "in `previous_response_id` mode, and "
        if all(r.raised_at == "pause" for r in js.sweep if r.plan == "previous_response_id")
        else ""
    )
    alike = {  # auto with store: false meets, release by release, what input meets
        (r.sdk_version, r.raised_at) for r in js.sweep if r.plan == "input" and r.violating
    } == {
        (r.sdk_version, r.raised_at)
        for r in js.sweep
        if r.plan == "auto-store-false" and r.sdk_version in moded
    }
    unstored = ", and `auto` with `store: false` (no response stored)," if alike else ""
    # r20/round 12: the first screen short (What to do by line 40): the ranges, the search's MCP
    # break and the tests' names are in the body; plain words for the hook and the stand-in
    return (
        # r24: the first words answer the prediction (pause, next question or never)
        f"**Answer.** At the next question: over HTTP, compacting after every turn, in `input` "
        f"mode{unstored} from {later[0]} to {later[-1]} ({js.version}: the pinned "
        f"release{newest}) the tool's output, approved or rejected, is stored without its call, "
        f"and `run()` throws at the next question.{quiet_text}\n\n"
        f"{by_id[:1].upper()}{by_id[1:]}in `auto` (the default) with `store` unset, which then "
        "sends the response id, `run()` "
        f"throws at the pause, nothing to approve, on {len(auto)} of {len(moded)} releases, "
        f"{moded[0]}..{moded[-1]}{before}.\n\n"
        "A second bug, *the stall*: from "
        f"{stall.boundary.first_bad}, when `/v1/responses/compact` answers as documented (the "
        "user messages, then the summary), "
        "compaction runs once, then never again, even when asked.\n\n"
        f"{_action(js, folder, retire, later)}"
    )


def _action(js: JsFinding, folder: Path, retire: str, later: list[str]) -> str:
    """11's What to do: the maintainers' patches (``retire``: what both leave), then the teams'
    steps (``later``: the releases that store an orphan output, whose sessions are healed first)."""
    from .patched import FIX
    from .stall_finding import STALL_PATCH

    return (
        # r22: what each patch changes, the search's MCP break the maintainers' too, and the
        # workaround's open question on the first screen
        f"**What to do.** Maintainers: apply `js/fix/{FIX.name}` (the session waits while a "
        f"call has no output) and `js/fix/{STALL_PATCH}` (the session counts the user "
        f"messages the summary stands for as sent){retire}; the first also waits on an MCP "
        f"(Model Context Protocol) approval request{_mcp_breaks_with_both(folder)}.\n\n"
        # r24: the stored sessions' healing (the README's steps) and the open question in words
        # the first screen has defined
        "Teams: heal any session stored on "
        f"{later[0]}..{later[-1]} (the README's JavaScript steps), then wrap the session in "
        f"`deferCompactionWhilePending` from `js/workaround.mjs`{_workaround_limit(js, folder)}; "
        "whether it prevents the last table's MCP break is not tried."
    )


def _mcp_breaks_with_both(folder: Path) -> str:
    """What the search on the release with both patches leaves of the MCP breaks it finds on
    the release (r26: 11 said "not tried" beside the patched search's file)."""
    from ..lab.findings.searched import fixes_left, searched_cases
    from .patched import BOTH

    left = [f for f in fixes_left(searched_cases("js", folder)) if f.patched.endswith(BOTH.name)]
    if not left or not left[0].new_on_release:
        return ": test it with the last table's MCP break (not tried)"
    if left[0].gone == left[0].new_on_release:
        return ", and with both the last table's MCP breaks are gone"
    return ", but with both some of the last table's MCP breaks remain"


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def _workaround_limit(found: JsFinding, folder: Path) -> str:
    """Where the workaround is not enough, from its sweep, as a bracket: the ranges where a
    mode still breaks an invariant with it, and the release to upgrade to first (none when it
    is proven everywhere)."""
    from ..formats.markdown import code
    from .finding import COLUMNS

    fixed = found.workaround
    if fixed is None or not fixed.proven:
        return ""
    named = {"auto, store=False": "`store: false`"}
    left = [
        f"on {where} with {named.get(COLUMNS.get(p, p), code(COLUMNS.get(p, p)))}"
        for where, plans in fixed.unproven_ranges()
        for p in plans
    ]
    if not left:
        return ""
    return f" ({'; '.join(left)}, upgrade to {fixed.proven[0]} first)"


def exports() -> list[tuple[ExportRecord, Any]]:
    """``doctor exports``' JS conversations (``exports.records``)."""
    from .exports import records

    return records()


def _steps(version: str) -> StepDriver:
    from .harness import Steps
    from .packages import package_folder, pinned

    return Steps(paths.ROOT if version == pinned() else package_folder(version))


def _pinned() -> str:
    from .packages import pinned

    return pinned()


def _newest() -> str:
    from .packages import releases

    return releases()[-1]


def _patched(patch: Path) -> StepDriver:
    from .harness import Steps
    from .packages import pinned
    from .patched import patched_folder

    driver = Steps(patched_folder(patch))
    driver.version = f"{pinned()}+{patch.name}"
    return driver


def driven() -> Driven:
    """The search's line for the driver (``explore --driver js``): its moves, its steps on a
    release's ``@openai/agents`` (installed with npm on first use; the pinned one is the
    project's own), its pinned and newest releases, and a patched package."""
    from ..study.moves import Driven
    from .moves import MOVES

    return Driven(MOVES, _steps, _pinned, _newest, _patched)


PLUGIN = SdkPlugin(
    name="js",
    notebook="11",
    register=register,
    answer=answer,
    files=(*FILES.values(), f"{MATRIX}.json"),
    driven=driven,
    runs=("approval_compaction.js.harness", "run_lines", "@openai/agents"),
    data=data,
    front=front,
    comment=comment,
    share=Share(
        ("pending", "stall"),
        "a report for openai-agents-js, from data/: pending (the default: the pending call) or "
        "stall (compaction stops after its first run)",
    ),
    exports=exports,
    mentions=r"@openai/agents|agents-openai|openai-agents-js|JS|JavaScript",
    stop="notebook 11: wrap the session with `js/workaround.mjs`",
)
