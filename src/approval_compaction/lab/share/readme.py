"""Readme: every generated block of ``README.md`` and of the pages under ``docs/``.

A block sits between two HTML comments (``<!-- answers:start -->`` ... ``<!-- answers:end -->``)
and is written here from the results under ``data/`` or from the code itself (the invariants,
the wire's rules, the commands, the glossary). ``BLOCKS`` names every block and what writes it,
and the README's words table (``words_block``), every glossary term (each terms block says its
words hold on every page of the collection, the README among them) and the README's own; a
page holds the blocks whose markers it carries, and ``make run`` (``python -m approval_compaction
readme``) rewrites them all. The blocks are tables and one-line commands; the sentences around
them are written by hand in the pages and state no figure of their own. A test checks that every
committed page matches what the committed data says.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ...analysis.invariants import DEFINITIONS
from ...analysis.liveness import LIVENESS
from ...errors import InvestigationError
from ...formats.files import write_atomic
from ...formats.markdown import code, markdown_table
from ...sdks import sdk_module
from ...study.words import STORE_WORD
from ...wire.rules import COMPACTION_OUTPUT, RULES, UNKNOWN
from .. import paths
from ..findings.load import Findings, load_findings
from ..findings.matrix import StoreStory
from ..findings.tables import (
    advice_frame,
    affected_frame,
    check_frame,
    errors_frame,
    liveness_frame,
    store_frame,
    upgrade_frame,
    verdict_frame,
    verdicts_frame,
)
from ..findings.verdict import SUMMARY_ONLY_COLUMN
from ..plugins import plugins
from ..releases import upstream
from ..releases.bisect import marked_ranges
from ..releases.versions import sort_versions
from . import glossary, provenance
from .snippet import ISSUE, one_line, outcomes

WORKAROUND_IMPORT = "from approval_compaction import defer_compaction_while_pending"
# The package is not on a package index: a team installs it from a clone of this repository (the
# folder `approval-compaction`), into its application's environment. tests/test_install.py runs
# these lines in a fresh environment.
INSTALL_CORE = "pip install ./approval-compaction"
INSTALL_DOCTOR = 'pip install "./approval-compaction[doctor]"'
# The error table's two call ids: the study's scripted cases name the pending call (the Python
# SDK's harness, reached by name), the stand-in names a call its own answer makes
# (``wire.standin``), as in a driver's runs and notebook 09.
STANDIN_CALL_ID = "call_standin_1"


def call_ids() -> str:
    """The error table's call ids in words: the scripted call's and the stand-in's."""
    pending = sdk_module("python", "harness").PENDING_CALL_ID
    return (
        f"`{pending}` is the call the study's set replies make, `{STANDIN_CALL_ID}` one the "
        "stand-in's own replies made, as in notebook 01's first run; where the sources name no "
        "endpoint, it is the stand-in's (notebook 09)"
    )


class ReadmeMarkersError(InvestigationError):
    """A page lacks a pair of block markers."""


class MissingFindingsError(InvestigationError):
    """A result file a block needs is missing under ``data/``."""


def markers(name: str) -> tuple[str, str]:
    """The start and end comments of the block ``name``."""
    return f"<!-- {name}:start -->", f"<!-- {name}:end -->"


START, END = markers("answers")
INVARIANTS_START, INVARIANTS_END = markers("invariants")
RULES_START, RULES_END = markers("rules")
UPSTREAM_START, UPSTREAM_END = markers("upstream-suite")
WORDS_START, WORDS_END = markers("words")

# The README's words no two notebooks share, so not the glossary's (``glossary.TERMS``): each row's
# names, then its meaning. The words table ends with them, after the glossary's rows, one table.
README_WORDS: tuple[tuple[str, str], ...] = (
    (
        "*bug*, *documented contract*, *summary_only*",
        "a liveness failure's kind: the SDK's code is wrong; the SDK documents it"
        ' (`previous_response_id` mode "requires complete coverage", its docstring says); or only'
        " when the compaction endpoint answers with its item alone, as the SDK's test fakes do and"
        " no public source shows (not counted)",
    ),
)


def _table(frame: pd.DataFrame) -> str:
    return markdown_table(frame)


def _poisoned_line(found: Findings, errors: pd.DataFrame, source: str) -> list[str]:
    """The error a store the pinned release poisoned meets on the newest release, which the
    sweep's fresh stores never show (r24: 07 shows it on 0.24.0, the table stops at 0.23.1)."""
    upgrade = found.upgrade
    if upgrade is None or upgrade.heals:
        return []
    texts = [str(t) for t in errors.index if str(t) in upgrade.poisoned.api_answer]
    if not texts:
        return []
    return [
        "",
        f'A store {upgrade.pinned} *poisoned* meets "{texts[0].split(" for ")[0]}" on '
        f"{upgrade.newest} too, "
        f"at its next turn (`{source}`, notebook 07).",
    ]


def _need(found: Findings, folder: Path) -> Findings:
    if not (found.releases and found.fixed_in and found.liveness and found.pinned):
        raise MissingFindingsError(f"the answers need every result file under {folder}")
    if not found.verdicts:
        raise MissingFindingsError(f"the answers need every result file under {folder}")
    return found


def answers_block(found: Findings, folder: Path = paths.DATA) -> str:
    """The front page's answers: tables from the data, each with its source files, and the
    one-line workaround, doctor and reproduction."""
    found = _need(found, folder)
    assert found.releases is not None and found.liveness is not None
    files = paths.data(folder)
    sweep, met = files.shown(files.sweep), files.shown(files.sweep_meetings)
    live = files.shown(files.sweep_liveness)
    pinned = found.pinned.releases[0] if found.pinned and found.pinned.releases else ""
    releases, errors = affected_frame(found.releases), errors_frame(found.errors_met)
    errors = _unstored_modes(errors, found.stores)
    fronts = []
    for plugin in plugins():  # each SDK's rows below Python's, and its paragraphs (lab.plugins)
        if plugin.front is not None:
            front = plugin.front(folder, releases, errors)
            releases, errors = front.releases, front.errors
            fronts.append(front)
    sources = "".join(f", `{source}`" for front in fronts for source in front.sources)
    regression = paths.REGRESSION_TEST.relative_to(paths.ROOT).as_posix()
    checks, test = files.shown(files.doctor_check_modes), files.shown(files.liveness_patch_test)
    newest = found.verdicts[-1]
    return "\n".join(
        [
            f"**Which releases, in each compaction mode** (the sixteen cases over HTTP to the "
            f"stand-in, the hook always saying yes in the 8 with compaction on, no in the 8 off; "
            f"`{met}`{sources}; `{sweep}` also holds the scripted runs the verdict table reads):",
            "",
            _table(releases),
            "",
            f"**The error texts to search your logs for** (the same runs: `{met}`{sources}; the "
            f"call id is yours: {call_ids()}):",
            "",
            _table(errors),
            *_poisoned_line(found, errors, files.shown(files.doctor_upgrade)),
            "",
            f"**openai-agents: the verdict per release** (`{sweep}`, `{live}`, `{checks}`, "
            f"`{test}`): the cases on the scripted model in `input` mode, the hook always saying "
            "yes; the "
            "default trigger: the doctor's check over HTTP, no hook, at pause positions 0 to 20; "
            f"liveness: {found.liveness.turns} later turns over HTTP, the documented compaction "
            "answer but in the last column:",
            "",
            _table(_verdicts(found)),
            "",
            f"**openai-agents {newest.release}: keep the workaround after upgrading?** (each "
            "compaction mode, later turns over HTTP, the documented compaction answer; its cost: "
            "notebook 06):",
            "",
            _table(advice_frame(newest)[[ADVICE_COLUMN]]),
            "",
            *workaround_lines(found, folder),
            *(line for front in fronts for line in front.workaround),
            f"**Reproduce** ([#5340]({ISSUE})) with the regression test "
            f"[`{regression}`]({regression}), no clone needed: save it in an empty folder and run "
            f"{code(one_line(pinned))}; {outcomes(pinned, found.fixed_in, found.crosscheck)}.",
            *(line for front in fronts for line in front.closing),
        ]
    )


# The liveness table's column the README's words table already says (each situation's meaning).
WHAT_HAPPENED = "what happened"
# The advice table's one column the README shows: the others repeat the verdict table's last row.
ADVICE_COLUMN = "after upgrading"
# The verdict table's last column, named where it is shown by the answer and the runs it holds.
UNKNOWN_COLUMN = "only with a compaction answer no public source shows"


def _verdicts(found: Findings) -> pd.DataFrame:
    """The verdict per release (``tables.verdict_frame``), its last column named by the
    compaction answer and the runs its cells come from."""
    return verdict_frame(found.verdicts).rename(columns={UNKNOWN_COLUMN: SUMMARY_ONLY_COLUMN})


def workaround_lines(found: Findings, folder: Path = paths.DATA) -> list[str]:
    """The workarounds' paragraph: the Python SDK's, with the releases it is tested on from the
    data (the regression test with it on every swept release), followed by a blank line; each
    plugin's own paragraph follows it (``FrontPage.workaround``)."""
    files = paths.data(folder)
    tested = ""
    if found.crosscheck is not None and found.crosscheck.wrapped:
        cross = found.crosscheck
        order = sort_versions({*cross.failing, *cross.passing, *cross.wrapped})
        ranges = marked_ranges(order, {v: v in cross.wrapped for v in order})
        tested = (
            ": the regression test (its four `json` cases with compaction `on`, on its own "
            f"scripted model) passes with it on `openai-agents` {', '.join(ranges)}, the fixing "
            "release too "
            f"(`{files.shown(files.fix_releases)}`)"
        )
    fixed = found.fixed
    if fixed is not None and fixed.releases and not any(i.violated for i in fixed.invariants):
        tested += (
            f"; all {fixed.cases} cases, `input` mode on the scripted model, break no invariant "
            f"with it on {', '.join(fixed.releases)} (notebook 06)"
        )
    return [
        f"**Where `defer_compaction_while_pending` is tested**{tested}.",
        "",
    ]


def liveness_block(found: Findings, folder: Path = paths.DATA) -> str:
    """Each liveness situation by release range (``tables.liveness_frame``)."""
    found = _need(found, folder)
    assert found.liveness is not None
    live = paths.data(folder).shown(paths.data(folder).sweep_liveness)
    return "\n".join(
        [
            f"**openai-agents: sessions the API refuses, and sessions that stop compacting** "
            f"(`{live}`, {found.liveness.turns} later turns each over HTTP, the hook always "
            "saying yes, the compaction endpoint answering as documented; a cell names the modes "
            "of each word when not all modes read the same):",
            "",
            _table(liveness_frame(found.liveness).drop(columns=WHAT_HAPPENED)),
        ]
    )


def _unstored_modes(errors: pd.DataFrame, stores: Sequence[StoreStory]) -> pd.DataFrame:
    """The error table's ``modes`` with ``auto, store=False`` added to each error its runs met
    (the store table's, on the releases it ran): the sweep runs the three modes with the store
    unset, so without it the table read "input" alone for a refusal notebook 09 meets in
    ``auto`` too."""
    errors = errors.copy()
    for story in stores:
        if story.store != STORE_WORD[False]:
            continue
        for message in errors.index:
            if f": {message}" in story.story.errors:
                modes = str(errors.at[message, "modes"])
                errors.at[message, "modes"] = f"{modes}; auto, store=False on {story.story.span}"
    return errors


def store_block(found: Findings, folder: Path = paths.DATA) -> str:
    """``auto`` by the agent's ``ModelSettings(store=...)`` on the pinned release: its source
    files and the table (``tables.store_frame``)."""
    if not found.stores:
        raise MissingFindingsError(
            f"the store table needs data/meetings.json and its runs in {folder}"
        )
    files = paths.data(folder)
    sources = [files.meetings, files.runs(paths.STORE_FALSE_MATRIX)]
    shown = ", ".join(f"`{files.shown(path)}`" for path in sources)
    release = found.stores[0].story.span
    head = (
        f"`auto` by the agent's `ModelSettings(store=...)` on openai-agents {release}, the "
        f"sixteen cases over HTTP, the hook always saying yes in the 8 with compaction on, no in"
        f" the 8 off ({shown}):"
    )
    return "\n".join([head, "", _table(store_frame(found.stores))])


def doctor_block(found: Findings, folder: Path = paths.DATA) -> str:
    """The doctor's experiments as tables: the check, the upgrade, the scan and repair."""
    if not (found.affected and found.upgrade and found.heal):
        raise MissingFindingsError(f"the doctor's tables need data/doctor-*.json in {folder}")
    files = paths.data(folder)
    heal = found.heal
    counts = pd.DataFrame(
        {
            "items": {
                "sessions": heal.sessions,
                "repaired": heal.repaired,
                "items rewritten": heal.items_rewritten,
                "items backed up": heal.items_backed_up,
                "backed-up items that differ": heal.items_backed_up_differently,
                "items equal after restore": f"{heal.items_restored_same} of {heal.items_compared}",
            }
        }
    ).rename_axis("scan, repair, restore")
    return "\n".join(
        [
            f"Am I affected with the SDK's defaults? (`{files.shown(files.doctor_check_pinned)}`, "
            f"`{files.shown(files.doctor_check_newest)}`)",
            "",
            _table(check_frame(found.affected)),
            "",
            f"Does upgrading heal a stored session? (`{files.shown(files.doctor_upgrade)}`)",
            "",
            _table(upgrade_frame(found.upgrade)),
            "",
            f"Scan and repair a store of test sessions (`{files.shown(files.doctor_heal)}`)",
            "",
            _table(verdicts_frame(heal.before, heal.after)),
            "",
            _table(counts),
        ]
    )


def notebooks_block(record: Path = paths.DATA_FILES.notebooks) -> str:
    """The notebook table, from what each notebook did when ``make run`` executed it."""
    return provenance.table(provenance.load(record))


def invariants_block() -> str:
    """The invariants table: each name with its one meaning (``analysis.invariants``)."""
    rows = [f"| `{i.name}` | {i.meaning} |" for i in (*DEFINITIONS, *LIVENESS)]
    return "\n".join(["| invariant | holds when |", "|---|---|", *rows])


def rules_block() -> str:
    """The stand-in's rules, each with what it rejects, its endpoints, its answer and its
    sources, each source with what of the answer it shows; what an accepted compaction answers,
    with its sources; then each check whose real answer is unknown (not enforced), with why."""
    rows = [
        f"| {code(r.name)} | {r.rejects} | {', '.join(map(code, r.endpoints))} | "
        f"{r.status} `invalid_request_error`: {code(r.example)} | "
        f"{'; '.join(s.cited() for s in r.sources)} |"
        for r in RULES
    ]
    answer = COMPACTION_OUTPUT
    rows.append(
        f"| {code(answer.name)} | nothing: what an accepted compaction answers | "
        f"{', '.join(map(code, answer.endpoints))} | {answer.says} ({code(answer.shape)}); "
        f"{code(answer.variant)}: {answer.variant_says} | "
        f"{'; '.join(s.cited() for s in answer.sources)} |"
    )
    rows += [
        f"| {code(u.name)} | {u.what} | {', '.join(map(code, u.endpoints))} | "
        f"unknown: not enforced | {u.why} |"
        for u in UNKNOWN
    ]
    head = "| rule | rejects | endpoints | answer | sources |\n|---|---|---|---|---|"
    return "\n".join([head, *rows])


def words_block() -> str:
    """The README's words table: every glossary term with its meaning, in the glossary's order
    (``glossary.table``), then the README's own rows (``README_WORDS``), in the same table. r15:
    the notebooks' terms blocks say each word holds "on every page of the collection", and two
    of them listed terms (*STORE*, *responses stored*) the README's table, cut to the words the
    README uses, lacked."""
    rows = [f"| {said} | {meaning} |" for said, meaning in README_WORDS]
    return "\n".join([glossary.table(glossary.TERMS), *rows])


def commands_block(parser: argparse.ArgumentParser | None) -> str:
    """Every command of ``python -m approval_compaction``, with its help line, from the command
    line's parser (``cli.parser()``, which the ``readme`` command passes in: the lab does not
    import the command line)."""
    if parser is None:
        raise MissingFindingsError("the commands table needs the command line's parser")
    found = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    rows = [(c.dest, c.help or "") for a in found for c in a._choices_actions]
    lines = ["| command | what it does |", "|---|---|"]
    return "\n".join([*lines, *(f"| {code(name)} | {said} |" for name, said in rows)])


def upstream_block(folder: Path = paths.DATA) -> str:
    """The SDK's own suite per release, from its committed results."""
    return upstream.readme_block(folder)


@dataclass(frozen=True)
class Block:
    """One generated block: its marker name and what writes it from a data folder."""

    name: str
    write: Callable[[Path, Callable[[], Findings], argparse.ArgumentParser | None], str]


BLOCKS: tuple[Block, ...] = (
    Block("answers", lambda folder, found, _: answers_block(found(), folder)),
    Block("liveness", lambda folder, found, _: liveness_block(found(), folder)),
    Block("doctor", lambda folder, found, _: doctor_block(found(), folder)),
    Block("store", lambda folder, found, _: store_block(found(), folder)),
    Block("notebooks", lambda folder, _, __: notebooks_block(paths.data(folder).notebooks)),
    Block("upstream-suite", lambda folder, _, __: upstream_block(folder)),
    Block("rules", lambda _folder, _found, _parser: rules_block()),
    Block("invariants", lambda _folder, _found, _parser: invariants_block()),
    Block("commands", lambda _folder, _found, parser: commands_block(parser)),
)


def with_block(text: str, block: str, start: str = START, end: str = END) -> str:
    """The page's text with the block between ``start`` and ``end`` replaced."""
    head, found_start, rest = text.partition(start)
    _, found_end, tail = rest.partition(end)
    if not found_start or not found_end:
        raise ReadmeMarkersError(f"the page has no {start} ... {end} block")
    return f"{head}{start}\n{block}\n{end}{tail}"


def blocks(
    folder: Path = paths.DATA, text: str = "", parser: argparse.ArgumentParser | None = None
) -> list[tuple[str, str, str]]:
    """Every block whose start marker ``text`` carries, as (start marker, end marker, text),
    written from ``folder`` (and ``parser``, for the commands table), the words table last, from
    the page with the others written; the findings are loaded once, and only if a block needs
    them."""
    cache: list[Findings] = []

    def found() -> Findings:
        if not cache:
            cache.append(load_findings(folder))
        return cache[0]

    written = []
    for block in BLOCKS:
        start, end = markers(block.name)
        if start in text:
            written.append((start, end, block.write(folder, found, parser)))
    for plugin in plugins():  # the blocks each SDK's folder writes (lab.plugins)
        for name, write in plugin.blocks.items():
            start, end = markers(name)
            if start in text:
                written.append((start, end, write(folder)))
    if WORDS_START in text:
        written.append((WORDS_START, WORDS_END, words_block()))
    return written


def pages(root: Path = paths.ROOT) -> list[Path]:
    """The README and every page under ``docs/``."""
    return [root / paths.README.name, *sorted((root / paths.DOCS.name).glob("*.md"))]


def update(
    readme: Path = paths.README,
    folder: Path = paths.DATA,
    parser: argparse.ArgumentParser | None = None,
) -> bool:
    """Rewrite every block of one page; return whether it changed."""
    before = after = readme.read_text()
    for start, end, block in blocks(folder, before, parser):
        after = with_block(after, block, start, end)
    if after != before:
        write_atomic(readme, after)
    return after != before


def update_all(
    root: Path = paths.ROOT,
    folder: Path = paths.DATA,
    parser: argparse.ArgumentParser | None = None,
) -> list[Path]:
    """Rewrite the blocks of the README and of every page under ``docs/``; the changed pages."""
    return [page for page in pages(root) if update(page, folder, parser)]
