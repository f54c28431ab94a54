"""Mutants (ADK): the plausible simplifications of the adk-python fix, each run against the
regression test (``adk/sdk-test``).

Each mutant edits a module as the patched environment has it (``google/adk/apps/compaction.py``
for the late answer's fix; that one, ``flows/llm_flows/tools/_rearranger.py`` or
``flows/llm_flows/context/_contents.py`` for the long-running call's), in a copy of its
``google/adk`` (an overlay put first on the interpreter's path: ``google`` is a namespace
package, so ``google.genai`` and the rest still come from the environment); a mutant is killed
when a case of the fix's test that passes patched fails.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ..lab.mutation import Mutant, MutantRecord, MutationError, mutate, record
from .patched import FIX, LONG_RUNNING_FIX, patched_environment
from .sdk_test import ADK_REGRESSION_TEST, LONG_RUNNING_TEST, run_sdk_test

MODULE = Path("google") / "adk" / "apps" / "compaction.py"
REARRANGER = Path("google") / "adk" / "flows" / "llm_flows" / "tools" / "_rearranger.py"
CONTENTS = Path("google") / "adk" / "flows" / "llm_flows" / "context" / "_contents.py"
TEST = "test_late_answer_reaches_the_summarizer_with_its_call"
_RECOVER = (
    "  events_to_compact = _recover_compacted_function_calls(\n"
    "      events_to_compact, events\n"
    "  )\n"
)
_NOT_ANSWERED = (
    "  called = {c.id for e in events_to_compact for c in e.get_function_calls()}\n"
    "  events_to_compact = [\n"
    "      e for e in events_to_compact\n"
    "      if all(r.id in called for r in e.get_function_responses())\n"
    "  ]\n"
)

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        FIX.name,
        "released",
        "no restored call (the release as published)",
        ((_RECOVER, ""),),
        killer=f"{TEST}[confirmation-tokens_retention2]",
    ),
    Mutant(
        FIX.name,
        "window-only",
        "the calls are looked up in the window, not in the session's events",
        (
            (
                _RECOVER,
                _RECOVER.replace(
                    "events_to_compact, events\n", "events_to_compact, events_to_compact\n"
                ),
            ),
        ),
        killer=f"{TEST}[confirmation-tokens_retention2]",
    ),
    Mutant(
        FIX.name,
        "sliding-window-only",
        "the call is restored in the sliding window's summaries only",
        ((_RECOVER, "  if trigger == 'sliding_window':\n  " + _RECOVER.replace("\n  ", "\n    ")),),
        killer=f"{TEST}[confirmation-tokens_retention2]",
    ),
    Mutant(
        FIX.name,
        "drop-late-answer",
        "a simpler fix: a response whose call is not in the window is left out of it",
        ((_RECOVER, _NOT_ANSWERED),),
        killer=f"{TEST}[confirmation-",
    ),
)


_PROTECTED = (
    "    if event.long_running_tool_ids and is_newest_or_unscoped:\n"
    "      protected_ids.update(event.long_running_tool_ids)\n"
)
_NEWEST_ONLY = (
    "  long_running_ids: set[str] = set()\n"
    "  if not pairs_by_id:\n"
    "    long_running_ids = _collect_long_running_tool_ids([\n"
    "        event\n"
    "        for event in events\n"
    "        if not event.invocation_id\n"
    "        or event.invocation_id == newest_invocation_id\n"
    "    ])\n"
)
_FLAGGED = (
    "  result_events = drop_orphaned_function_calls(\n"
    "      result_events, pairs_by_id=preserve_function_call_ids\n"
    "  )\n"
)
_LR = "test_unanswered_long_running_call"
# The long-running call's fix: its module, and the mutants of each of its two hunks.
LONG_RUNNING_MUTANTS: tuple[tuple[Path, Mutant], ...] = (
    (
        MODULE,
        Mutant(
            LONG_RUNNING_FIX.name,
            "protect-every",
            "the compactor protects every long-running call, of any invocation",
            ((_PROTECTED, _PROTECTED.replace(" and is_newest_or_unscoped", "")),),
            killer=f"{_LR}_does_not_stop_compaction[",
        ),
    ),
    (
        MODULE,
        Mutant(
            LONG_RUNNING_FIX.name,
            "protect-none",
            "the compactor protects no long-running call, even one its invocation may answer",
            ((_PROTECTED, ""),),
            killer="test_long_running_call_in_flight_stays_protected",
        ),
    ),
    (
        REARRANGER,
        Mutant(
            LONG_RUNNING_FIX.name,
            "send-every",
            "the request keeps every long-running call without its result (as released)",
            ((_NEWEST_ONLY, "  long_running_ids = _collect_long_running_tool_ids(events)\n"),),
            killer=f"{_LR}_is_not_sent_without_its_result[",
        ),
    ),
    (
        REARRANGER,
        Mutant(
            LONG_RUNNING_FIX.name,
            "send-none",
            "the request drops every long-running call without its result, also one its "
            "invocation may answer, whatever the model",
            ((_NEWEST_ONLY, "  long_running_ids: set[str] = set()\n"),),
            killer="test_pending_long_running_call_of_the_newest_invocation_is_sent[",
        ),
    ),
    (
        REARRANGER,
        Mutant(
            LONG_RUNNING_FIX.name,
            "scoped-only",
            "a call of an event without an invocation is dropped once a newer one has an id",
            (("        if not event.invocation_id\n        or event", "        if event"),),
            killer="test_pending_long_running_call_of_the_newest_invocation_is_sent[-inv-2]",
        ),
    ),
    (
        REARRANGER,
        Mutant(
            LONG_RUNNING_FIX.name,
            "any-model",
            "a pending call of the newest invocation is kept whatever the model",
            (("  if not pairs_by_id:\n", "  if True:\n"),),
            killer="test_a_model_that_pairs_by_id_is_sent_no_pending_long_running_call",
        ),
    ),
    (
        CONTENTS,
        Mutant(
            LONG_RUNNING_FIX.name,
            "unflagged",
            "prompt assembly does not say whether the model pairs calls by id",
            ((_FLAGGED, "  result_events = drop_orphaned_function_calls(result_events)\n"),),
            killer="test_pending_long_running_call_is_sent_only_to_a_model_that_takes_it[True]",
        ),
    ),
)


def overlay(site: Path, mutant: Mutant, scratch: Path, module: Path = MODULE) -> Path:
    """A folder whose ``google/adk`` is the environment's with ``mutant`` applied to
    ``module``."""
    folder = scratch / mutant.name
    shutil.copytree(site / "google" / "adk", folder / "google" / "adk")
    path = folder / module
    path.write_text(mutate(path.read_text(), mutant.edits, f"{mutant.fix} {mutant.name}"))
    return folder


def _run(patch: Path, test: Path, mutants: Sequence[tuple[Path, Mutant]]) -> list[MutantRecord]:
    env = patched_environment(patch)
    baseline = run_sdk_test(env.python, test)
    if baseline.failed or not baseline.tests:
        raise MutationError(f"{patch.name}: {baseline.failed} regression cases fail unmutated")
    site = next(env.folder.glob("lib/python*/site-packages"))
    records = []
    with tempfile.TemporaryDirectory(prefix="approval-compaction-adk-mutants-") as scratch:
        for module, mutant in mutants:
            ran = run_sdk_test(env.python, test, overlay(site, mutant, Path(scratch), module))
            records.append(record(mutant, ran.tests, ran.failing))
    return records


def run_mutants(mutants: Sequence[Mutant] = MUTANTS) -> list[MutantRecord]:
    """Every mutant of each fix against that fix's regression test, after the patched package
    passes it: the late answer's, then the long-running call's."""
    late = _run(FIX, ADK_REGRESSION_TEST, [(MODULE, mutant) for mutant in mutants])
    return late + _run(LONG_RUNNING_FIX, LONG_RUNNING_TEST, LONG_RUNNING_MUTANTS)
