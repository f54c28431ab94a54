"""Mutants (ADK): the plausible simplifications of the adk-python fix, each run against the
regression test (``adk/sdk-test``).

Each mutant edits ``google/adk/apps/compaction.py`` as the patched environment has it, in a
copy of its ``google/adk`` (an overlay put first on the interpreter's path: ``google`` is a
namespace package, so ``google.genai`` and the rest still come from the environment); a mutant
is killed when a case of the test that passes patched fails.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ..mutation import Mutant, MutantRecord, MutationError, mutate, record
from .patched import FIX, patched_environment
from .sdk_test import run_sdk_test

MODULE = Path("google") / "adk" / "apps" / "compaction.py"
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


def overlay(site: Path, mutant: Mutant, scratch: Path) -> Path:
    """A folder whose ``google/adk`` is the environment's with ``mutant`` applied."""
    folder = scratch / mutant.name
    shutil.copytree(site / "google" / "adk", folder / "google" / "adk")
    path = folder / MODULE
    path.write_text(mutate(path.read_text(), mutant.edits, f"{mutant.fix} {mutant.name}"))
    return folder


def run_mutants(mutants: Sequence[Mutant] = MUTANTS) -> list[MutantRecord]:
    """Every mutant against the regression test, after the patched package passes it."""
    env = patched_environment()
    baseline = run_sdk_test(env.python)
    if baseline.failed or not baseline.tests:
        raise MutationError(f"{FIX.name}: {baseline.failed} regression cases fail unmutated")
    site = next(env.folder.glob("lib/python*/site-packages"))
    records = []
    with tempfile.TemporaryDirectory(prefix="approval-compaction-adk-mutants-") as scratch:
        for mutant in mutants:
            ran = run_sdk_test(env.python, overlay=overlay(site, mutant, Path(scratch)))
            failing = [f"{TEST}[{case}]" for case in ran.failing]
            records.append(record(mutant, ran.tests, failing))
    return records
