"""Commands: the ADK study's command line, and the files each command writes.

``adk-matrix`` runs the 16 cases on one ``google-adk`` release in one compaction kind and
prints them; ``adk-sweep`` every release with tool confirmation and events compaction (into
``data/adk-sweep.json``); ``adk-data`` (what ``make run`` writes) the pinned release's matrix,
its kinds and its liveness situations, with the scripted model and over HTTP; ``adk-fix`` the
patched package and the regression test; ``adk-upstream`` adk-python's own tests;
``report-adk`` the issue for adk-python. Each judged by the study's invariants. Declaring them
loads nothing heavy: each handler is imported when its command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..formats.arguments import (
    AddCommand,
    Lazy,
    matrix_options,
    report_options,
    sweep_options,
)
from ..lab import paths
from .files import MATRIX, data_file
from .words import KINDS as ADK_KINDS

HERE = ".adk.commands"


def register(add: AddCommand, lazy: Lazy) -> None:
    """Declare ``adk-matrix``, ``adk-data``, ``adk-sweep``, ``adk-fix`` and ``report-adk``."""
    matrix = add(
        "adk-matrix",
        lazy(HERE, "matrix_command"),
        "run the 16 cases on google-adk (its own environment, a scripted model)",
    )
    matrix_options(matrix)
    matrix.add_argument(
        "--kind",
        choices=ADK_KINDS,
        default=ADK_KINDS[0],
        help="EventsCompactionConfig: window-N (one invocation, overlap N) or tokens-N "
        "(threshold 1, N raw events kept)",
    )
    matrix.add_argument("--release", help="a google-adk release (default: the pinned one)")
    matrix.add_argument(
        "--model",
        choices=("scripted", "responses"),
        default="scripted",
        help="the driver's scripted BaseLlm, or ADK's OpenAIResponsesLlm on the stand-in "
        "over HTTP (from 2.4.0)",
    )
    add(
        "adk-data",
        lazy(HERE, "data_command"),
        "the pinned google-adk release: its matrix, every kind, the liveness situations "
        "(scripted, and over HTTP)",
    ).add_argument("--folder", default=str(paths.DATA))
    add(
        "adk-fix",
        lazy(HERE, "fix_command"),
        "the patched google-adk (adk/fix) in every kind, the adk-python regression test, the "
        "fix's lint and mutants, and the late answers split by what it changes",
    ).add_argument("--folder", default=str(paths.DATA))
    upstream = add(
        "adk-upstream",
        lazy(HERE, "upstream_command"),
        "adk-python's own tests of the touched module on the pinned release and patched "
        "(data/adk-upstream.json; needs the tests saved from the repository)",
    )
    upstream.add_argument(
        "--tests", required=True, help="a folder holding adk-python's tests/unittests/..."
    )
    upstream.add_argument(
        "--source", required=True, help="where the tests came from (repository, commit, path)"
    )
    upstream.add_argument("--folder", default=str(paths.DATA))
    report = add(
        "report-adk",
        lazy(".adk.report", "report_adk_command"),
        "the issue for adk-python (data/report-adk.md), from data/",
    )
    report_options(report, str(paths.DATA))
    sweep = add(
        "adk-sweep",
        lazy(HERE, "sweep_command"),
        "every google-adk release with confirmation and compaction into data/adk-sweep.json",
    )
    sweep_options(sweep, "the package index", str(paths.DATA), "where adk-sweep.json goes")
    sweep.add_argument(
        "--model",
        choices=("scripted", "responses"),
        default="scripted",
        help="responses: each release from 2.4.0 with OpenAIResponsesLlm over HTTP, the cases "
        "only (data/adk-sweep-responses.json)",
    )


def matrix_command(args: argparse.Namespace) -> int:
    """``adk-matrix``: run the cases on a release (the pinned one by default) and print them;
    ``--model responses`` with ADK's ``OpenAIResponsesLlm`` on the stand-in over HTTP."""
    from ..analysis.matrix import matrix_text, records
    from ..formats.files import write_or_print
    from ..study.scenario import select_cases
    from .harness import Plan, run_plan
    from .packages import pinned
    from .sweep import environment_for

    plan = Plan(kind=args.kind, cases=tuple(select_cases(args.case)), model=args.model)
    env = environment_for(args.release or pinned(), [plan])
    runs = run_plan(plan, env.python)
    write_or_print(matrix_text(records(runs), args.format), args.output)
    return 0


def write_pinned(folder: Path = paths.DATA) -> list[Path]:
    """The pinned release: its window-0 matrix (``adk-matrix.*``), every kind's record
    (``adk-kinds.json``) and the liveness situations in every kind (``adk-liveness.json``)."""
    from ..analysis.liveness import LivenessRecord, liveness_records
    from ..formats.records import write_records
    from ..lab.releases.driven import SweepRecord
    from ..lab.share.results import write_matrix
    from .packages import pinned, release_environment
    from .sweep import PLANS, release_records, run_adk_liveness, run_adk_responses, run_release

    ran = run_release(pinned(), PLANS)
    written = write_matrix(ran[0][1], folder, MATRIX)
    written += write_records(data_file("kinds", folder), release_records(ran), SweepRecord)
    from .finding import Boundary, adk_boundaries, load_adk
    from .patched import label, patched_environment

    runs = run_adk_liveness(release_environment(pinned()).python)
    runs += run_adk_liveness(patched_environment().python, release=label())
    written += write_records(data_file("liveness", folder), liveness_records(runs), LivenessRecord)
    over_http, live = run_adk_responses(pinned())
    written += write_records(
        data_file("responses", folder), release_records(over_http), SweepRecord
    )
    written += write_records(
        data_file("responses_liveness", folder), liveness_records(live), LivenessRecord
    )
    found = load_adk(folder)  # read once every pinned file is written: none is read stale
    if found is not None and found.sweep:
        written += write_records(
            data_file("boundaries", folder), adk_boundaries(found.sweep), Boundary
        )
    return written


def data_command(args: argparse.Namespace) -> int:
    """``adk-data``: write the pinned release's files."""
    for path in write_pinned(Path(args.folder)):
        print(f"wrote {path}")
    return 0


def write_fix(folder: Path = paths.DATA) -> list[Path]:
    """The patched package's kinds (``adk-patched.json``), the regression test on the pinned
    and the patched package (``adk-sdk-test.json``), and the long-running call's test on the
    pinned package, with its fix and with both (``adk-sdk-test-long-running.json``)."""
    from dataclasses import replace

    from ..formats.records import write_records
    from ..lab.releases.driven import SdkTestRecord, SweepRecord
    from .harness import run_plans
    from .packages import pinned, release_environment
    from .patched import BOTH_FIXES, LONG_RUNNING_FIX, label, patched_environment
    from .sdk_test import LONG_RUNNING_TEST, run_sdk_test
    from .sweep import PLANS, release_records

    patched = patched_environment()
    ran = list(zip(PLANS, run_plans(PLANS, patched.python), strict=True))
    rows = [replace(row, sdk_version=label()) for row in release_records(ran)]
    written = write_records(data_file("patched", folder), rows, SweepRecord)
    tests = []
    for name, python in (
        (pinned(), release_environment(pinned()).python),
        (label(), patched.python),
    ):
        run = run_sdk_test(python)
        tests.append(SdkTestRecord(name, run.tests, run.passed, run.failed))
    written += write_records(data_file("sdk_test", folder), tests, SdkTestRecord)
    long_running = []
    for name, python in (
        (pinned(), release_environment(pinned()).python),
        (label(LONG_RUNNING_FIX), patched_environment(LONG_RUNNING_FIX).python),
        (label(BOTH_FIXES), patched_environment(BOTH_FIXES).python),
    ):
        run = run_sdk_test(python, LONG_RUNNING_TEST)
        long_running.append(SdkTestRecord(name, run.tests, run.passed, run.failed))
    return written + write_records(
        data_file("long_running_sdk_test", folder), long_running, SdkTestRecord
    )


def write_checks(folder: Path = paths.DATA) -> list[Path]:
    """The fix's lint (``adk-lint.json``), its mutants (``adk-mutants.json``) and the late
    answers split by what it changes (``adk-late.json``)."""
    from ..formats.records import write_records
    from ..lab.mutation import MutantRecord
    from ..lab.releases.driven import CheckRecord
    from .late import LateAnswer, run_late
    from .lint import check_fixes
    from .mutants import run_mutants
    from .packages import pinned, release_environment
    from .patched import label, patched_environment

    written = write_records(data_file("lint", folder), check_fixes(), CheckRecord)
    written += write_records(data_file("mutants", folder), run_mutants(), MutantRecord)
    packages = [
        (pinned(), release_environment(pinned()).python),
        (label(), patched_environment().python),
    ]
    return written + write_records(data_file("late", folder), run_late(packages), LateAnswer)


def fix_command(args: argparse.Namespace) -> int:
    """``adk-fix``: write the patched package's and the regression test's files, the fix's
    lint, mutants and late answers."""
    folder = Path(args.folder)
    for path in [*write_fix(folder), *write_checks(folder)]:
        print(f"wrote {path}")
    return 0


def upstream_command(args: argparse.Namespace) -> int:
    """``adk-upstream``: adk-python's tests of the touched module, saved from the repository
    in ``--tests``, on the pinned release and patched (``adk-upstream.json``)."""
    from ..formats.records import write_json
    from .upstream import upstream_record

    path = data_file("upstream", Path(args.folder))
    write_json(path, upstream_record(Path(args.tests), args.source))
    print(f"wrote {path}")
    return 0


def sweep_command(args: argparse.Namespace) -> int:
    """``adk-sweep``: every release (or those named) into data/adk-sweep.json; ``--dates``
    asks the package index for the release dates first; ``--model responses`` runs each release
    with ``OpenAIResponsesLlm`` over HTTP instead (data/adk-sweep-responses.json)."""
    from .packages import fetch_release_dates
    from .sweep import sweep, sweep_over_http

    if args.dates:
        print(f"wrote {fetch_release_dates()}")
    run = sweep_over_http if args.model == "responses" else sweep
    for path in run(args.release or None, Path(args.folder)):
        print(f"wrote {path}")
    return 0
