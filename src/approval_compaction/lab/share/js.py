"""The JS study's commands: ``js-matrix`` (the 16 cases on one ``@openai/agents`` release),
``js-sweep`` (every release with the compaction session), both judged by the study's
invariants, and the pinned release's files that ``make run`` writes."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from ... import paths
from ...analysis.matrix import records
from ...formats.files import write_atomic
from ...formats.records import write_records
from ...study.scenario import select_cases
from ...study.words import STORE_SETTINGS
from ..js.harness import Plan, run_plan
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
from .results import matrix_text, write_matrix


def matrix_command(args: argparse.Namespace) -> int:
    """``js-matrix``: run the cases on a release (the pinned one by default) and print them."""
    plan = Plan(
        mode=args.mode,
        response_store=STORE_SETTINGS[args.response_store],
        trigger=args.trigger,
        session="file" if args.process else args.session,
        process=args.process,
    )
    plan = replace(plan, cases=tuple(select_cases(args.case)))
    runs = run_plan(plan, package_folder(args.release or pinned()))
    text = matrix_text(records(runs), args.format)
    if args.output:
        write_atomic(Path(args.output), text)
    else:
        sys.stdout.write(text)
    return 0


def sweep_command(args: argparse.Namespace) -> int:
    """``js-sweep``: every release (or those named) into data/js-sweep.json; ``--dates`` asks
    npm's registry for the release dates first."""
    from ..js.sweep import sweep

    if args.dates:
        print(f"wrote {fetch_release_dates()}")
    for path in sweep(args.release or None):
        print(f"wrote {path}")
    if not args.release:
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
