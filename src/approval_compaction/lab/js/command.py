"""Commands: ``js-matrix`` (the 16 cases on one ``@openai/agents`` release) and ``js-sweep``
(every release with the compaction session), both judged by the study's invariants."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from ...analysis.matrix import records
from ...formats.files import write_atomic
from ...study.scenario import select_cases
from ...study.words import STORE_SETTINGS
from ..share.results import matrix_text
from .harness import Plan, run_plan
from .packages import fetch_release_dates, package_folder, pinned


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
    from .sweep import sweep, write_pinned

    if args.dates:
        print(f"wrote {fetch_release_dates()}")
    for path in sweep(args.release or None):
        print(f"wrote {path}")
    if not args.release:
        for path in write_pinned():
            print(f"wrote {path}")
    return 0
