"""Front: the JavaScript SDK's part of the front page's answers (``lab.plugins.FrontPage``).

Its rows below the Python SDK's in the releases and errors tables (``finding.both_releases``,
``finding.both_errors``, from ``data/js-sweep.json``), where ``js/workaround.mjs`` is proven (its
sweep), the regression test's line (``data/js-sdk-test.json``) and the stall's paragraph (the
stall's sweep); each is left out when its file is missing.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..errors import InvestigationError
from ..formats.markdown import code
from ..formats.records import read_records
from ..lab import paths
from ..lab.plugins import FrontPage
from ..lab.releases.driven import SdkTestRecord, SweepRecord
from . import finding
from .files import data_file
from .harness import WORKAROUND as MODULE

JS_TEST = "js/sdk-test/test/openaiResponsesCompactionSession.pendingApproval.test.ts"


class JsHeaderError(InvestigationError):
    """The JS workaround's header shows no import and wrap lines."""


def front(folder: Path, releases: pd.DataFrame, errors: pd.DataFrame) -> FrontPage:
    """The JS rows below Python's in the two tables and the JS paragraphs, from ``folder``."""
    found = finding.load_js(folder)
    sources: tuple[str, ...] = ()
    if found is not None:
        releases = finding.both_releases(releases, found.sweep)
        errors = finding.both_errors(errors, found.sweep)
        sources = (paths.data(folder).shown(data_file("sweep", folder)),)
    workaround = tuple(workaround_lines(found.workaround if found is not None else None, folder))
    closing = (*reproduction(folder), *stall_line(folder))
    return FrontPage(releases, errors, sources, workaround, closing)


def stall_line(folder: Path = paths.DATA) -> list[str]:
    """The JS SDK's second bug in one paragraph: the releases that stop compacting after their
    first compaction and the last that keeps compacting (the stall's sweep), whether the JS
    workaround keeps the pinned release compacting, and the report; none without its files."""
    from .stall import STALL_LOG, STALL_LOG_NAMESPACE
    from .stall_finding import WORKAROUND, load_stall, stalls

    found = load_stall(folder)
    if found is None:
        return []
    shown, edge = paths.data(folder).shown, found.boundary
    wrapped = [r for r in found.variants if r.variant == WORKAROUND]
    module = MODULE.relative_to(paths.ROOT).as_posix()
    keeps = (
        f"; [`{module}`]({module}) keeps `@openai/agents` {wrapped[0].release} compacting"
        if wrapped and stalls(wrapped) is False
        else ""
    )
    report = shown(data_file("stall_report", folder))
    sweep = shown(data_file("stall_sweep", folder))
    return [
        "",
        f"**A second JavaScript bug, with no approval at all**: on `@openai/agents` {edge.span}, "
        "when `responses.compact` answers as its documentation shows (the user messages, then "
        "the compaction item), the session compacts once and never again (notebook 11: even "
        "when asked), so the stored history and every model input grow with each turn; "
        f"{edge.last_good} keeps "
        "compacting "
        f"(`{sweep}`){keeps}.",
        "",
        f"To see it in your logs, set `DEBUG={STALL_LOG_NAMESPACE}`: the SDK logs "
        f"{code(STALL_LOG)} at each turn whose compaction it skips. The numbers, the cause, a "
        f"fix and its regression test: [`{report}`]({report}).",
    ]


def js_usage(module: Path = MODULE) -> tuple[str, str]:
    """The two lines of use the JS workaround's own header shows: its import and the wrap of a
    compaction session (so the README names the module's exports as the module does)."""
    head = []
    for line in module.read_text().splitlines():
        if not line.startswith("//"):
            break
        head.append(line.removeprefix("//").strip())
    found = [next((h for h in head if h.startswith(w)), "") for w in ("import {", "const session")]
    if not all(found):
        raise JsHeaderError(f"{module.name}'s header shows no import and wrap lines")
    return found[0], found[1]


def workaround_lines(fixed: finding.JsWorkaround | None, folder: Path = paths.DATA) -> list[str]:
    """Where ``js/workaround.mjs`` is proven, from its sweep: the releases on which no case of
    any mode breaks an invariant with it, and what each other range meets; none unproven."""
    if fixed is None or not fixed.proven:
        return []
    module = MODULE.relative_to(paths.ROOT).as_posix()
    path = data_file("workaround_sweep", folder)
    met = {
        (r.sdk_version, r.plan.removesuffix("-workaround")): finding.cell(r)
        for r in read_records(path, SweepRecord)
    }
    unproven = "".join(
        f"; on {where}, with it, "
        + "; ".join(
            f"{code(finding.COLUMNS.get(p, p))} meets {met[(where.split('..')[0], p)]}"
            for p in plans
        )
        for where, plans in fixed.unproven_ranges()
    )
    return [
        f"**In JavaScript**, with [`{module}`]({module}) no case of any mode breaks an invariant "
        f"on `@openai/agents` {', '.join(fixed.ranges())} "
        f"(`{paths.data(folder).shown(path)}`){unproven}.",
        "",
    ]


def reproduction(folder: Path = paths.DATA) -> list[str]:
    """The JS regression test's line: where it is, the command, and what vitest counts on the
    pinned and the patched package (``data/js-sdk-test.json``); none without that file."""
    path = data_file("sdk_test", folder)
    if not path.exists():
        return []
    ran = read_records(path, SdkTestRecord)
    counts = "; ".join(
        f"on `@openai/agents` {r.package} vitest counts {r.failed} failed, {r.passed} passed"
        for r in ran
    )
    return [
        "",
        f"**Reproduce in JavaScript** with the regression test [`{JS_TEST}`]({JS_TEST}) "
        f"(for `packages/agents-openai/test/`): {code('make js-sdk-test')}; {counts}.",
    ]
