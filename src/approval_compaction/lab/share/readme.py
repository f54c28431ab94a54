"""Readme: every generated block of ``README.md``, written from the results under ``data/``.

Each block sits between two HTML comments (``<!-- findings:start -->`` ...); ``make run``
rewrites them all here: the findings (rendered from ``findings.load``), the notebook table (from
what each notebook did when it was executed), the SDK's own suite (``releases.upstream``), the
stand-in's rules with their sources and what is unknown (``wire.rules``) and, where the README
marks its place, the invariants table (each invariant's one meaning).
A test checks that the committed README matches what the committed data says, so no figure in
the README is typed by hand.
"""

from __future__ import annotations

from pathlib import Path

from ... import paths
from ...analysis.invariants import DEFINITIONS
from ...analysis.liveness import LIVENESS
from ...errors import InvestigationError
from ...formats.files import write_atomic
from ...formats.markdown import code
from ...wire.rules import RULES, UNKNOWN
from ..findings.load import Findings, load_findings
from ..findings.prose import (
    affected_sentence,
    era_story,
    eras_sentence,
    errors_met_lines,
    heal_sentence,
    liveness_eras_lines,
    liveness_sentence,
    matrix_lines,
    meets_sentence,
    releases_sentence,
    upgrade_sentence,
    where_in_the_sdk,
    workaround_line,
    worker_sentence,
)
from ..releases import upstream
from . import provenance

START, END = "<!-- findings:start -->", "<!-- findings:end -->"
NOTEBOOKS_START, NOTEBOOKS_END = "<!-- notebooks:start -->", "<!-- notebooks:end -->"
UPSTREAM_START, UPSTREAM_END = "<!-- upstream-suite:start -->", "<!-- upstream-suite:end -->"
INVARIANTS_START, INVARIANTS_END = "<!-- invariants:start -->", "<!-- invariants:end -->"
RULES_START, RULES_END = "<!-- rules:start -->", "<!-- rules:end -->"


class ReadmeMarkersError(InvestigationError):
    """The README lacks a pair of block markers."""


class MissingFindingsError(InvestigationError):
    """A result file the README's findings need is missing under ``data/``."""


def findings_block(found: Findings, folder: Path = paths.DATA) -> str:
    """The findings, as markdown: the pinned matrix, the sweep, where in the SDK, the workaround
    matrix and the doctor's answers, each source file named as the reader finds it."""
    files = paths.data(folder)
    pinned, releases, fixed, affected = found.pinned, found.releases, found.fixed, found.affected
    upgrade, worker, heal = found.upgrade, found.worker, found.heal
    if not (pinned and releases and fixed and affected and upgrade and worker and heal):
        raise MissingFindingsError(f"the findings need every result file under {folder}")
    sweep, met = files.shown(files.sweep), files.shown(files.sweep_meetings)
    where = where_in_the_sdk(found.mechanism)
    mechanism = f" (`{files.shown(files.mechanism)}`, notebook 03)"
    lines = [
        f"**What a user of the Responses API meets on the pinned release** "
        f"(`{files.shown(files.meetings)}`: every case over HTTP, in each compaction mode): "
        + meets_sentence(found.meets),
        "",
        f"**On the pinned release** (`{files.shown(files.matrix)}`, compaction_mode `input`):",
        "",
        matrix_lines(pinned),
        "",
        f"**Across releases** (`{sweep}`, compaction_mode `input`): " + releases_sentence(releases),
        "",
        f"**Eras, by compaction mode** (`{sweep}`, `{met}`; what the user meets over HTTP, "
        "kept apart from what reaches compaction only): " + eras_sentence(releases),
        "",
        era_story(releases),
        "",
        f"**Every error a user meets** (`{met}`, `{files.shown(files.meetings)}`), with every "
        "text the `openai` client raises it as:",
        "",
        errors_met_lines(found.errors_met),
        "",
        *([where + mechanism, ""] if where else []),
        f"**With the workaround** (`{files.shown(files.fix_matrix)}`): {workaround_line(fixed)}",
        "",
        *(
            [
                f"**After the fix: do sessions keep compacting?** "
                f"(`{files.shown(files.sweep_liveness)}`, notebook 10) "
                + liveness_sentence(found.liveness),
                "",
                liveness_eras_lines(found.liveness),
                "",
            ]
            if found.liveness
            else []
        ),
        f"**Am I affected with the SDK's defaults?** (`{files.shown(files.doctor_check_pinned)}`) "
        + affected_sentence(*affected),
        "",
        f"**Does upgrading heal stored sessions?** (`{files.shown(files.doctor_upgrade)}`) "
        + upgrade_sentence(upgrade),
        "",
        f"**A resume by another worker?** (`{files.shown(files.doctor_worker)}`) "
        + worker_sentence(worker),
        "",
        f"**Which sessions are poisoned, and the repair?** (`{files.shown(files.doctor_heal)}`) "
        + heal_sentence(heal),
    ]
    return "\n".join(lines)


def notebooks_block(record: Path = paths.DATA_FILES.notebooks) -> str:
    """The notebook table, from what each notebook did when ``make run`` executed it."""
    return provenance.table(provenance.load(record))


def invariants_block() -> str:
    """The invariants table: each name with its one meaning (``analysis.invariants``)."""
    rows = [f"| `{i.name}` | {i.meaning} |" for i in (*DEFINITIONS, *LIVENESS)]
    return "\n".join(["| invariant | holds when |", "|---|---|", *rows])


def rules_block() -> str:
    """The stand-in's rules, each with what it rejects, its endpoints, its answer and its
    sources, then each check whose real answer is unknown (not enforced), with why."""
    rows = [
        f"| {code(r.name)} | {r.rejects} | {', '.join(map(code, r.endpoints))} | "
        f"{r.status} `invalid_request_error`: {code(r.example)} | {', '.join(r.sources)} |"
        for r in RULES
    ]
    rows += [
        f"| {code(u.name)} | {u.what} | {', '.join(map(code, u.endpoints))} | "
        f"unknown: not enforced | {u.why} |"
        for u in UNKNOWN
    ]
    head = "| rule | rejects | endpoints | answer | sources |\n|---|---|---|---|---|"
    return "\n".join([head, *rows])


def upstream_block(folder: Path = paths.DATA) -> str:
    """The SDK's own suite per release, from its committed results."""
    return upstream.readme_block(folder)


def with_block(text: str, block: str, start: str = START, end: str = END) -> str:
    """The README text with the block between ``start`` and ``end`` replaced."""
    head, found_start, rest = text.partition(start)
    _, found_end, tail = rest.partition(end)
    if not found_start or not found_end:
        raise ReadmeMarkersError(f"README has no {start} ... {end} block")
    return f"{head}{start}\n{block}\n{end}{tail}"


def blocks(folder: Path = paths.DATA, text: str = "") -> list[tuple[str, str, str]]:
    """Every block of the README as (start marker, end marker, text), from ``folder``; the
    invariants table only where ``text`` (the README) marks a place for it."""
    found = [
        (START, END, findings_block(load_findings(folder), folder)),
        (NOTEBOOKS_START, NOTEBOOKS_END, notebooks_block(paths.data(folder).notebooks)),
        (UPSTREAM_START, UPSTREAM_END, upstream_block(folder)),
        (RULES_START, RULES_END, rules_block()),
    ]
    if INVARIANTS_START in text:
        found.append((INVARIANTS_START, INVARIANTS_END, invariants_block()))
    return found


def update(readme: Path = paths.README, folder: Path = paths.DATA) -> bool:
    """Rewrite every block of the README; return whether it changed."""
    before = after = readme.read_text()
    for start, end, block in blocks(folder, before):
        after = with_block(after, block, start, end)
    if after != before:
        write_atomic(readme, after)
    return after != before
