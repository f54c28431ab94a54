"""The JS study's commands: ``js-matrix`` (the 16 cases on one ``@openai/agents`` release, or
the pinned one with ``--patch``),
``js-sweep`` (every release with the compaction session; ``--workaround``: the session wrapped
by ``js/workaround.mjs``), both judged by the study's
invariants, and the pinned release's files that ``make run`` writes; ``js-sdk-test`` (the
regression test for openai-agents-js, with vitest) and ``js-fix`` (the workaround, the patch and
the test on the pinned release, into ``data/js-workaround.json``, ``js-patched.json``,
``js-sdk-test.json``); ``js-liveness`` (the liveness situations on the pinned release, bare,
with the workaround and patched, into ``data/js-liveness.json``); ``js-stall`` (a plain
conversation on every release, the pinned one's workaround and patches, the Python SDK's newest
release and the stall's tests, into ``data/js-stall*.json``)."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..analysis.matrix import matrix_text, records
from ..formats.files import write_or_print
from ..formats.records import read_records, write_records
from ..lab import paths
from ..lab.releases.driven import SdkTestRecord, SweepRecord
from ..lab.share.results import write_matrix
from ..study.scenario import select_cases
from ..study.words import STORE_SETTINGS
from .files import MATRIX, data_file
from .harness import Plan, run_plan, run_plans
from .packages import fetch_release_dates, package_folder, pinned
from .sweep import (
    EXPOSURE_PLANS,
    PINNED_PLANS,
    JsExposure,
    exposure_records,
    release_records,
    run_release,
)


def matrix_command(args: argparse.Namespace) -> int:
    """``js-matrix``: run the cases on a release (the pinned one by default) and print them."""
    plan = Plan(
        mode=args.mode,
        response_store=STORE_SETTINGS[args.response_store],
        trigger=args.trigger,
        session="file" if args.process else args.session,
        process=args.process,
        workaround=args.workaround,
    )
    plan = replace(plan, cases=tuple(select_cases(args.case)))
    if args.patch:
        from .patched import patched_folder

        folder = patched_folder(Path(args.patch))
    else:
        folder = package_folder(args.release or pinned())
    runs = run_plan(plan, folder)
    text = matrix_text(records(runs), args.format)
    write_or_print(text, args.output)
    return 0


def sweep_command(args: argparse.Namespace) -> int:
    """``js-sweep``: every release (or those named) into data/js-sweep.json; ``--dates`` asks
    npm's registry for the release dates first."""
    from .sweep import sweep

    if args.dates:
        print(f"wrote {fetch_release_dates()}")
    for path in sweep(args.release or None, workaround=args.workaround):
        print(f"wrote {path}")
    if not args.release and not args.workaround:
        for path in write_pinned():
            print(f"wrote {path}")
    return 0


def write_pinned(folder: Path = paths.DATA) -> list[Path]:
    """The pinned release: its input-mode matrix (``js-matrix.*``, beside the Python one) and
    every plan's record (``js-modes.json``), and each pause position under the SDK's default
    trigger (``js-exposure.json``)."""
    ran = run_release(pinned(), (*PINNED_PLANS, *EXPOSURE_PLANS))
    cases, exposed = ran[: len(PINNED_PLANS)], ran[len(PINNED_PLANS) :]
    written = write_matrix(cases[0][1], folder, MATRIX)
    written += write_records(data_file("modes", folder), release_records(cases), SweepRecord)
    rows = [row for plan, runs in exposed for row in exposure_records(plan, runs)]
    written += write_records(data_file("exposure", folder), rows, JsExposure)
    return written


def _patched_label(patch: Path) -> str:
    return f"{pinned()}+{patch.name}"


def sdk_test_command(args: argparse.Namespace) -> int:
    """``js-sdk-test``: an SDK-style regression test (``--test``: the pending call's, the
    stall's, or the guard the stall's fix keeps) with vitest on the pinned package, or on a copy
    with ``--patch`` applied; the exit status says whether the outcome is the one ``--expect``
    names (by default, every test passing)."""
    from .patched import patched_folder
    from .sdk_test import (
        JS_FILTERED_TEST,
        JS_REGRESSION_TEST,
        JS_STALL_TEST,
        JS_WINDOWED_TEST,
        run_sdk_test,
    )

    tests = {
        "pending": JS_REGRESSION_TEST,
        "stall": JS_STALL_TEST,
        "filtered": JS_FILTERED_TEST,
        "windowed": JS_WINDOWED_TEST,
    }
    test = tests[getattr(args, "test", "pending")]
    patch = Path(args.patch) if args.patch else None
    ran = run_sdk_test(patched_folder(patch) if patch else paths.ROOT, test)
    label = _patched_label(patch) if patch else pinned()
    print(
        f"@openai/agents {label}, {test.name}: {ran.tests} tests, {ran.passed} passed, "
        f"{ran.failed} failed"
    )
    passed = ran.tests > 0 and ran.failed == 0
    return 0 if passed == (getattr(args, "expect", "pass") == "pass") else 1


def write_fix(folder: Path = paths.DATA) -> list[Path]:
    """The pinned release with the workaround (``js-workaround.json``), the patched package's
    plans (``js-patched.json``), and the regression test on both (``js-sdk-test.json``)."""
    from .patched import FIX, patched_folder
    from .sdk_test import run_sdk_test
    from .sweep import PLANS, WORKAROUND_PLANS

    patched = patched_folder(FIX)
    label = _patched_label(FIX)
    written = write_records(
        data_file("workaround", folder),
        release_records(run_release(pinned(), WORKAROUND_PLANS)),
        SweepRecord,
    )
    rows = [
        replace(row, sdk_version=label)
        for row in release_records(list(zip(PLANS, run_plans(PLANS, patched), strict=True)))
    ]
    written += write_records(data_file("patched", folder), rows, SweepRecord)
    tests = [
        SdkTestRecord(name, run.tests, run.passed, run.failed)
        for name, run in ((pinned(), run_sdk_test()), (label, run_sdk_test(patched)))
    ]
    written += write_records(data_file("sdk_test", folder), tests, SdkTestRecord)
    return written


def write_typecheck(folder: Path = paths.DATA) -> list[Path]:
    """The TypeScript forms of both fixes (each alone, and both) and the regression tests,
    checked with the repository's tsc, prettier and eslint settings (``js-typecheck.json``)."""
    from ..lab.releases.driven import CheckRecord
    from .patched import patched_folder
    from .sdk_test import regression_tests
    from .typecheck import check_fixes, check_tests

    fix = paths.ROOT / "js" / "fix"
    packages = {
        "pending": patched_folder(fix / "agents-openai-0.20.0.diff"),
        "stall": patched_folder(fix / "agents-openai-0.20.0-stall.diff"),
        "both": patched_folder(fix / "agents-openai-0.20.0-both.diff"),
    }
    rows = check_fixes(packages) + check_tests(regression_tests())
    return write_records(data_file("typecheck", folder), rows, CheckRecord)


def typecheck_command(args: argparse.Namespace) -> int:
    """``js-typecheck``: write the checks; exit 1 when any tool finds a problem."""
    from ..lab.releases.driven import CheckRecord

    written = write_typecheck(Path(args.folder))
    for path in written:
        print(f"wrote {path}")
    rows = read_records(data_file("typecheck", Path(args.folder)), CheckRecord)
    for row in rows:
        print(f"{row.subject}: {row.tool} on {row.files} files, {row.problems} problems")
    return 1 if any(row.problems for row in rows) else 0


def write_mutants(folder: Path = paths.DATA) -> list[Path]:
    """Each mutant of both fixes against every regression test (``js-mutants.json``)."""
    from ..lab.mutation import MutantRecord
    from .mutants import run_mutants

    return write_records(data_file("mutants", folder), run_mutants(), MutantRecord)


def mutants_command(args: argparse.Namespace) -> int:
    """``js-mutants``: write the mutants' file; exit 1 when one survives."""
    from ..lab.mutation import MutantRecord, survivors

    for path in write_mutants(Path(args.folder)):
        print(f"wrote {path}")
    left = survivors(read_records(data_file("mutants", Path(args.folder)), MutantRecord))
    print(f"survivors: {', '.join(left) or 'none'}")
    return 1 if left else 0


def upstream_command(args: argparse.Namespace) -> int:
    """``js-upstream``: record a snapshot of openai-agents-js and its agents-openai suite on
    the release and each patched package (``js-upstream.json``)."""
    from ..formats.records import write_json
    from .upstream import upstream_record

    path = data_file("upstream", Path(args.folder))
    write_json(path, upstream_record(Path(args.checkout), args.ref))
    print(f"wrote {path}")
    return 0


def fix_command(args: argparse.Namespace) -> int:
    """``js-fix``: write the workaround's, the patched package's and the test's files, the
    TypeScript forms' checks and the mutants."""
    folder = Path(args.folder)
    for path in [*write_fix(folder), *write_typecheck(folder), *write_mutants(folder)]:
        print(f"wrote {path}")
    return 0


def write_liveness(folder: Path = paths.DATA) -> list[Path]:
    """Every liveness situation in every plan on the pinned release as it is, with
    ``js/workaround.mjs``, patched with the approval fix, and patched with it and the stall's
    fix, judged by ``analysis.liveness`` (``js-liveness.json``)."""
    from ..analysis.liveness import LivenessRecord, liveness_records
    from .patched import BOTH, FIX, patched_folder
    from .sweep import run_js_liveness

    bare = package_folder(pinned())
    runs = run_js_liveness(bare) + run_js_liveness(bare, workaround=True)
    for patch in (FIX, BOTH):  # the approval fix alone, then with the stall's fix
        runs += run_js_liveness(patched_folder(patch), release=_patched_label(patch))
    return write_records(data_file("liveness", folder), liveness_records(runs), LivenessRecord)


def liveness_command(args: argparse.Namespace) -> int:
    """``js-liveness``: write the JS liveness file."""
    for path in write_liveness(Path(args.folder)):
        print(f"wrote {path}")
    return 0


# The patches the stall's study runs on the pinned release: the pending call's alone, the
# stall's alone, and both together.
STALL_PATCHES: tuple[str, ...] = (
    "agents-openai-0.20.0.diff",
    "agents-openai-0.20.0-stall.diff",
    "agents-openai-0.20.0-both.diff",
)


def python_stall(turns: tuple[int, int] | None = None) -> list[Any]:
    """The plain conversation on the Python SDK's newest release, in its own environment (made
    when missing): each mode, the hook always saying yes and the SDK's default trigger, judged
    as the JS runs are."""
    from ..lab.releases import environments
    from ..lab.releases.versions import PACKAGE as PYTHON_PACKAGE
    from ..sdks import sdk_module
    from .stall import ALWAYS_TURNS, DEFAULT_TURNS, SITUATION, STALL_MODES, stall_record

    always, default = turns or (ALWAYS_TURNS, DEFAULT_TURNS)
    newest = environments.newest_release()
    env = environments.release_environment(newest, environments.default_envs())
    records = []
    worker_of = sdk_module("python", "worker").Worker  # the Python SDK's folder, by name (sdks)
    run_situation = sdk_module("python", "later_turns").run_situation
    with worker_of(str(env.python), environments.isolated_environ()) as worker:
        for trigger, count in (("always", always), ("default", default)):
            for mode in STALL_MODES:
                run = run_situation(
                    SITUATION, mode, count, worker=worker, trigger=trigger, tools=False
                )
                records.append(
                    stall_record(
                        run,
                        sdk=PYTHON_PACKAGE,
                        release=newest,
                        variant="",
                        runner="run",
                        trigger=trigger,
                        shape="keeps_users",
                    )  # fmt: skip
                )
    return records


def write_stall(folder: Path = paths.DATA) -> list[Path]:
    """The plain conversation on the pinned release with ``js/workaround.mjs`` and with each of
    ``STALL_PATCHES``, and on the Python SDK's newest release (``js-stall.json``)."""
    from .patched import patched_folder
    from .stall import StallRecord, run_stall

    fix = paths.ROOT / "js" / "fix"
    rows = run_stall(paths.ROOT, pinned(), "workaround")
    for name in STALL_PATCHES:
        rows += run_stall(patched_folder(fix / name), pinned(), name)
    rows += python_stall()
    return write_records(data_file("stall", folder), rows, StallRecord)


def write_stall_tests(folder: Path = paths.DATA) -> list[Path]:
    """The stall's regression test and the guard its fix keeps, on the last release before the
    sweep's boundary, the first one after it, the pinned one, and the pinned one patched with
    the stall's patch and with both (``js-stall-sdk-test.json``)."""
    from .patched import patched_folder
    from .sdk_test import JS_FILTERED_TEST, JS_STALL_TEST, JS_WINDOWED_TEST, run_sdk_test
    from .stall import StallRecord, StallTestRecord
    from .stall_finding import stall_boundary

    found = stall_boundary(read_records(data_file("stall_sweep", folder), StallRecord))
    fix = paths.ROOT / "js" / "fix"
    packages = {
        version: package_folder(version)
        for version in dict.fromkeys((found.last_good, found.first_bad, pinned()))
    }
    for name in STALL_PATCHES[1:]:
        packages[f"{pinned()}+{name}"] = patched_folder(fix / name)
    rows = [
        StallTestRecord(label, test.name, ran.tests, ran.passed, ran.failed)
        for label, package in packages.items()
        for test in (JS_STALL_TEST, JS_FILTERED_TEST, JS_WINDOWED_TEST)
        for ran in (run_sdk_test(package, test),)
    ]
    return write_records(data_file("stall_sdk_test", folder), rows, StallTestRecord)


def write_fakes(checkout: Path, folder: Path = paths.DATA) -> list[Path]:
    """The answer shape of every fake ``responses.compact`` in a checkout's ``agents-openai``
    tests and in this project's regression tests (``js-stall-fakes.json``)."""
    from .fakes import FakeShape, own, scan
    from .sdk_test import SDK_TEST

    rows = scan(checkout) + own(SDK_TEST / "test")
    return write_records(data_file("stall_fakes", folder), rows, FakeShape)


def stall_command(args: argparse.Namespace) -> int:
    """``js-stall``: the stall's sweep (every release, or those named with ``--release``; none
    with ``--no-sweep``), then the pinned release's variants and the Python row, then the
    regression tests around the boundary, and with ``--checkout`` the fakes of the SDK's own
    tests; prints where the sweep puts the boundary."""
    from .stall import StallRecord, sweep
    from .stall_finding import stall_boundary

    folder = Path(args.folder)
    if args.checkout:
        for path in write_fakes(Path(args.checkout), folder):
            print(f"wrote {path}")
    written = [] if args.no_sweep else sweep(args.release or None, folder)
    written += write_stall(folder)
    written += write_stall_tests(folder)
    for path in written:
        print(f"wrote {path}")
    found = stall_boundary(read_records(data_file("stall_sweep", folder), StallRecord))
    print(f"stalls from {found.first_bad} (last release that keeps compacting: {found.last_good})")
    return 0
