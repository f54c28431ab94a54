"""Mutants (JS): the plausible simplifications of both openai-agents-js fixes, each run against
every regression test of ``js/sdk-test``.

Each mutant edits the ESM build vitest loads (``agents-openai/dist/memory/
openaiResponsesCompactionSession.mjs``) in a copy of the package patched with both fixes
(``agents-openai-0.20.0-both.diff``), on which every test passes; a mutant is killed when a test
fails. The copy is a folder of its own: ``node_modules/@openai`` copied, every other package
linked to the patched folder's.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ..lab import paths
from ..lab.mutation import Mutant, MutantRecord, MutationError, mutate, record
from .patched import patched_folder
from .sdk_test import regression_tests, run_sdk_test

BOTH = paths.ROOT / "js" / "fix" / "agents-openai-0.20.0-both.diff"
MODULE = (
    Path("@openai") / "agents-openai" / "dist" / "memory" / "openaiResponsesCompactionSession.mjs"
)
PENDING, STALL = "agents-openai-0.20.0.diff", "agents-openai-0.20.0-stall.diff"

_CHECK = "if (getUnresolvedToolResultCorrelationsForResponse(history).length > 0) {"
_BLOCK = (
    f"                {_CHECK}\n"
    "                    logger.debug("
    "'skip: a tool call in the stored history awaits its result');\n"
    "                    return null;\n"
    "                }\n"
)
_OPERATION = "    async runCompactionOperation(args, automaticInput) {\n"
_EARLY = (
    "        const input = getModelVisibleSessionItems(this, history, exchange);\n"
    "        if (input) {\n"
    "            return { input, history };\n"
    "        }\n"
)
_READ = (
    "        for (let limit = exchange.items.length + 1; stored.length >= limit;) {\n"
    "            limit *= 2;\n"
    "            stored = await this.underlyingSession.getItems(limit);\n"
    "        }\n"
)
_LATEST = (
    "        let at = stored.length - 1;\n"
    "        while (at >= 0 && stored[at].type !== 'compaction') {\n"
    "            at -= 1;\n"
    "        }\n"
)
_COVERED = "? { input: [...stored.slice(0, at), ...covered], history: stored }"
_NOT_USER = "(item) => !(item.type === 'message' && item.role === 'user')"

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        PENDING,
        "released",
        "no check (the release as published)",
        ((_BLOCK, ""),),
        killer="keeps the call until its output is stored",
    ),
    Mutant(
        PENDING,
        "function-calls-only",
        "only a function call without its function_call_result waits",
        (
            (
                _CHECK,
                "if (history.some((call) => call.type === 'function_call' && !history.some("
                "(result) => result.type === 'function_call_result' && "
                "result.callId === call.callId))) {",
            ),
        ),
        killer="only once the 'program' has its answer",
    ),
    Mutant(
        PENDING,
        "answered-too",
        "a call waits whether or not its result is stored",
        ((_CHECK, "if (history.some((item) => item.type === 'function_call')) {"),),
        killer="only once the 'function_call' has its answer",
    ),
    Mutant(
        PENDING,
        "manual-too",
        "every compaction waits, the one the application asks for too",
        (
            (_BLOCK, ""),
            (
                _OPERATION,
                _OPERATION + "        if (getUnresolvedToolResultCorrelationsForResponse(await "
                "this.underlyingSession.getItems()).length > 0) {\n"
                "            return null;\n        }\n",
            ),
        ),
        killer="compacts when the application asks",
    ),
    Mutant(
        STALL,
        "released",
        "no fallback (the release as published)",
        (
            (
                _EARLY,
                "        const input = getModelVisibleSessionItems(this, history, exchange);\n"
                "        return { input, history };\n",
            ),
        ),
        killer="compacts again whenever the default trigger reaches its threshold",
    ),
    Mutant(
        STALL,
        "unchecked-after",
        "the items after the stored compaction item are compacted unchecked, as if covered",
        (
            (
                ": getModelVisibleSessionItems(this, stored.slice(at), exchange);",
                ": stored.slice(at);",
            ),
        ),
        killer="retains a turn stored after the compaction item that the filter left out",
    ),
    Mutant(
        STALL,
        "users-covered",
        "a simpler fix: user messages count as covered, and the history read is compacted",
        (
            (
                _EARLY,
                "        const input = getModelVisibleSessionItems(this, "
                f"history.filter({_NOT_USER}), exchange) ? history : undefined;\n"
                "        if (input || !input) {\n"
                "            return { input, history };\n"
                "        }\n",
            ),
        ),
        killer="retains a user message the filter left out",
    ),
    Mutant(
        STALL,
        "prefix-dropped",
        "the items before the compaction item are not sent to the compaction",
        ((_COVERED, "? { input: covered, history: stored }"),),
        killer="compacts after every turn the hook asks it to",
    ),
    Mutant(
        STALL,
        "cache-read",
        "the decision and its cache keep the history read, not the whole history",
        ((_COVERED, "? { input: [...stored.slice(0, at), ...covered], history }"),),
        killer="compacts after every turn the hook asks it to",
    ),
    Mutant(
        STALL,
        "one-unlimited-read",
        "one read without a limit instead of explicit doubling limits",
        ((_READ, "        stored = await this.underlyingSession.getItems();\n"),),
        killer="keeps every question when its unlimited read is a window",
    ),
    Mutant(
        STALL,
        "read-bound",
        "the reads stop when the backend returns as many items as asked",
        (("stored.length >= limit;)", "stored.length > limit;)"),),
        killer="compacts after every turn the hook asks it to",
    ),
    Mutant(
        STALL,
        "first-compaction",
        "the first stored compaction item instead of the latest",
        (
            (
                _LATEST,
                "        const at = stored.findIndex((item) => item.type === 'compaction');\n",
            ),
        ),
        equivalent="the store holds one compaction item at most: a compaction (the endpoint's, "
        "or the server's inside a response) replaces the stored history with its output",
    ),
)


def mutant_folder(base: Path, mutant: Mutant, scratch: Path) -> Path:
    """A package folder like ``base`` with ``mutant`` applied to its compaction session."""
    folder = scratch / mutant.fix.removesuffix(".diff") / mutant.name
    modules = folder / "node_modules"
    modules.mkdir(parents=True)
    shutil.copyfile(base / "package.json", folder / "package.json")
    for entry in (base / "node_modules").iterdir():
        if entry.name == "@openai":
            shutil.copytree(entry, modules / entry.name, symlinks=True)
        else:
            (modules / entry.name).symlink_to(entry.resolve())
    path = modules / MODULE
    path.write_text(mutate(path.read_text(), mutant.edits, f"{mutant.fix} {mutant.name}"))
    return folder


def run_mutants(mutants: Sequence[Mutant] = MUTANTS) -> list[MutantRecord]:
    """Every mutant against every regression test, after the patched package passes them."""
    base = patched_folder(BOTH)
    tests = regression_tests()
    baseline = run_sdk_test(base, tests)
    if baseline.failed or not baseline.tests:
        raise MutationError(f"{BOTH.name}: {baseline.failed} regression tests fail unmutated")
    records = []
    with tempfile.TemporaryDirectory(prefix="approval-compaction-mutants-") as scratch:
        for mutant in mutants:
            ran = run_sdk_test(mutant_folder(base, mutant, Path(scratch)), tests)
            records.append(record(mutant, ran.tests, ran.failing))
    return records
