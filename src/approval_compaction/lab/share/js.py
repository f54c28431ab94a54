"""The JS study's commands: ``js-matrix`` (the 16 cases on one ``@openai/agents`` release, or
the pinned one with ``--patch``),
``js-sweep`` (every release with the compaction session; ``--workaround``: the session wrapped
by ``js/workaround.mjs``), both judged by the study's
invariants, and the pinned release's files that ``make run`` writes; ``js-sdk-test`` (the
regression test for openai-agents-js, with vitest) and ``js-fix`` (the workaround, the patch and
the test on the pinned release, into ``data/js-workaround.json``, ``js-patched.json``,
``js-sdk-test.json``); ``js-liveness`` (the liveness situations on the pinned release, bare,
with the workaround and patched, into ``data/js-liveness.json``)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from pathlib import Path

from ...analysis.matrix import matrix_text, records
from ...formats.files import write_or_print
from ...formats.records import write_records
from ...js.harness import Plan, run_plan, run_plans
from ...study.scenario import select_cases
from ...study.words import STORE_SETTINGS
from .. import paths
from ..js.packages import fetch_release_dates, package_folder, pinned
from ..js.sweep import (
    EXPOSURE_PLANS,
    PINNED_PLANS,
    JsExposure,
    JsRecord,
    exposure_records,
    release_records,
    run_release,
)
from .results import write_matrix


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
        from ..js.patched import patched_folder

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
    from ..js.sweep import sweep

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
    files = paths.data(folder)
    written = write_matrix(cases[0][1], folder, paths.JS_MATRIX)
    written += write_records(files.js_modes, release_records(cases), JsRecord)
    rows = [row for plan, runs in exposed for row in exposure_records(plan, runs)]
    written += write_records(files.js_exposure, rows, JsExposure)
    return written


@dataclass(frozen=True)
class SdkTestRecord:
    """The regression test (``js/sdk-test``) on one package: the pinned release or patched."""

    package: str
    tests: int
    passed: int
    failed: int


def _patched_label(patch: Path) -> str:
    return f"{pinned()}+{patch.name}"


def sdk_test_command(args: argparse.Namespace) -> int:
    """``js-sdk-test``: the SDK-style regression test with vitest on the pinned package, or on
    a copy with ``--patch`` applied; the exit status says whether every test passed."""
    from ..js.patched import patched_folder
    from ..js.sdk_test import run_sdk_test

    patch = Path(args.patch) if args.patch else None
    ran = run_sdk_test(patched_folder(patch) if patch else paths.ROOT)
    label = _patched_label(patch) if patch else pinned()
    print(f"@openai/agents {label}: {ran.tests} tests, {ran.passed} passed, {ran.failed} failed")
    return 0 if ran.failed == 0 else 1


def write_fix(folder: Path = paths.DATA) -> list[Path]:
    """The pinned release with the workaround (``js-workaround.json``), the patched package's
    plans (``js-patched.json``), and the regression test on both (``js-sdk-test.json``)."""
    from ..js.patched import FIX, patched_folder
    from ..js.sdk_test import run_sdk_test
    from ..js.sweep import PLANS, WORKAROUND_PLANS

    files = paths.data(folder)
    patched = patched_folder(FIX)
    label = _patched_label(FIX)
    written = write_records(
        files.js_workaround,
        release_records(run_release(pinned(), WORKAROUND_PLANS)),
        JsRecord,
    )
    rows = [
        replace(row, sdk_version=label)
        for row in release_records(list(zip(PLANS, run_plans(PLANS, patched), strict=True)))
    ]
    written += write_records(files.js_patched, rows, JsRecord)
    tests = [
        SdkTestRecord(name, run.tests, run.passed, run.failed)
        for name, run in ((pinned(), run_sdk_test()), (label, run_sdk_test(patched)))
    ]
    written += write_records(files.js_sdk_test, tests, SdkTestRecord)
    return written


def fix_command(args: argparse.Namespace) -> int:
    """``js-fix``: write the workaround's, the patched package's and the test's files."""
    for path in write_fix(Path(args.folder)):
        print(f"wrote {path}")
    return 0


def write_liveness(folder: Path = paths.DATA) -> list[Path]:
    """Every liveness situation in every plan on the pinned release as it is, with
    ``js/workaround.mjs`` and patched, judged by ``analysis.liveness`` (``js-liveness.json``)."""
    from ...analysis.liveness import LivenessRecord, liveness_records
    from ..js.patched import FIX, patched_folder
    from ..js.sweep import run_js_liveness

    bare = package_folder(pinned())
    runs = run_js_liveness(bare) + run_js_liveness(bare, workaround=True)
    runs += run_js_liveness(patched_folder(FIX), release=_patched_label(FIX))
    return write_records(paths.data(folder).js_liveness, liveness_records(runs), LivenessRecord)


def liveness_command(args: argparse.Namespace) -> int:
    """``js-liveness``: write the JS liveness file."""
    for path in write_liveness(Path(args.folder)):
        print(f"wrote {path}")
    return 0
