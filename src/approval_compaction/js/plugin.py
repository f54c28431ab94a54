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
    """Notebook 11's answer: whether the JS SDK loses the call too, where ``run()`` raises, on
    which releases; the second bug (the stall: compaction runs once, then never again) and what
    each of the SDK's two patches changes, from the plain conversation and the liveness
    situations; what a team and a maintainer do."""
    from ..formats.markdown import code
    from ..lab.findings.headlines import HeadlineError, any_call
    from .finding import load_js, load_js_liveness
    from .patched import BOTH, FIX
    from .stall_finding import STALL_PATCH, load_stall

    js = load_js(folder)
    stall = load_stall(folder)
    if js is None or stall is None:
        raise HeadlineError("the answers need data/js-sweep.json, js-modes.json, js-stall.json")
    pause, later = js.plan("auto"), js.plan("input")
    hit = sorted({r.sdk_version for r in js.sweep if r.violating})
    releases = len({r.sdk_version for r in js.sweep})

    def stalls(variant: str) -> bool:  # the plain conversation stops compacting
        return not stall.conversation(js.version, variant).compaction_runs

    both = f"{js.version}+{BOTH.name}"
    rows = [r for r in load_js_liveness(folder) if r.sdk_version == both]
    stuck = {r.scenario for r in rows if r.invariant == "compaction_runs" and not r.holds}
    situations = {r.scenario for r in rows} - {"clean"}  # clean: the control, no pause
    alone = "; alone it leaves the stall" if stalls(FIX.name) else ""
    waits = (
        f"\n\nWith both, compaction still stops for good in {len(stuck)} of the {len(situations)} "
        "*situations* (ways a pause leaves a session; the table below adds *clean*, no pause, "
        "as the control): those that leave a *dead "
        "call*, whose output may never come. The workaround *retires* such a call (removes it "
        "from the store), so it keeps compacting in every situation, past the stall too; the "
        "patched session must retire it too."
        if stuck
        else ""
    )
    versions = sorted({r.sdk_version for r in js.sweep}, key=_key)
    newest = ", also the newest" if versions[-1] == js.version else ""
    return (
        f"**Answer.** Yes. On `@openai/agents` {js.version} (the *pinned release*{newest}), "
        "over HTTP to the *stand-in* (a local copy of the Responses API's rules; *refused*: it "
        "answers HTTP 400), when the session compacts after every turn:\n\n"
        "- `auto` mode (the default, while responses are stored): `run()` throws at the pause "
        f"({code(any_call(pause.api_message))}), so nothing can be approved;\n"
        "- `input` mode: the tool's output is stored without its call, and `run()` throws on "
        f"the next question ({code(any_call(later.api_message))}).\n\n"
        f"{len(hit)} of {releases} releases with the compaction session ({versions[0]}, its "
        f"first, to {versions[-1]}) break an *invariant* (a rule a run must keep, such as "
        '"every output follows its call") in at least one mode.\n\n'
        f"A second bug, *the stall*, needs no approval: from {stall.boundary.first_bad} on, "
        "when the compaction endpoint answers as documented, compaction runs once and never "
        "again.\n\n"
        "**What to do.** A team wraps its session with `js/workaround.mjs`: compaction waits "
        "while the latest *model exchange* (the last request to the model and its answer) "
        f"holds a call without its output{_workaround_limit(js, folder)}.\n\n"
        f"A maintainer applies both patches: `js/fix/{FIX.name}` (*the pending call's fix*: "
        f"the session waits the same way{alone}) and `js/fix/{STALL_PATCH}` "
        f"(*the stall's fix*). Issues to file: `data/report-js.md`, "
        f"`data/report-js-stall.md`.{waits}"
    )


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def _workaround_limit(found: JsFinding, folder: Path) -> str:
    """Where the workaround is not enough, from its sweep: the ranges where a mode still
    breaks an invariant with it, and what that mode meets there (none when proven everywhere)."""
    from ..formats.markdown import code
    from .finding import COLUMNS
    from .report import js_workaround_ranges

    fixed, ranges = found.workaround, js_workaround_ranges(folder)
    if fixed is None or ranges is None:
        return ""
    met = {(w, c): str(v) for w, row in ranges.iterrows() for c, v in row.items()}
    left = [
        f"on {where}, {code(COLUMNS.get(p, p))} still meets {met[(where, COLUMNS.get(p, p))]}"
        for where, plans in fixed.unproven_ranges()
        for p in plans
    ]
    if not left or not fixed.proven:
        return ""
    first = fixed.proven[0]
    said = "; ".join(left).replace(
        "`auto, store=False`",
        "`store: false` (responses not stored; before 0.4.1 there are no modes: the session "
        "compacts by `previous_response_id` only)",
    )
    return (
        f"; no case breaks an invariant with it on {', '.join(fixed.ranges())}, but {said}: "
        f"there, upgrade to {first} or later first"
    )


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
