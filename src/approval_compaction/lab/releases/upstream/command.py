"""Command: ``python -m approval_compaction upstream-suite``, one release from sdist to result.

It sets the release up, checks the upstream-form test, runs the selection (twice with
``--fix``) and prints the result; ``--write`` writes the record files under ``--folder``.
The README's block is written from them by ``python -m approval_compaction readme``. With
``--patch``/``--sdk`` the suite runs on the patched SDK, in a copy of the release's checkout
(``checkout.patched_checkout``); its records carry the patch's label and ``--write`` puts them
beside the patch's scratch environment unless ``--folder`` says where.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ... import paths
from .. import PINNED as PINNED
from .. import environments
from ..patched import from_namespace, results_folder
from .changes import SuiteChange, changes, confirm
from .checkout import (
    LIVENESS_TEST_NAME,
    default_root,
    install_upstream_test,
    patched_checkout,
    prepare,
)
from .checks import run_checks
from .results import SuiteResult, render, write
from .suite import DEFAULT_WORKERS, failures, run_suite, select_files, summarize, tally

Report = Callable[[str], None]


def upstream_suite(
    version: str,
    *,
    fix: bool = True,
    pattern: str | None = None,
    root: Path | None = None,
    workers: int = DEFAULT_WORKERS,
    run: environments.Runner = environments.run,
    report: Report = print,
    patched: Any = None,
) -> SuiteResult:
    """Set up the release, check the upstream-form test, run the selection (twice with ``fix``);
    with ``patched``, in a copy of the checkout with the patched SDK."""
    checkout = prepare(version, root or default_root(), run=run, report=report)
    if patched is not None:
        checkout = patched_checkout(checkout, patched)
        report(f"{patched.describe()}: {checkout.folder}")
    ours = install_upstream_test(checkout.folder)
    checks = run_checks(checkout, ours, run)
    # The liveness test too, always: the selection would pick it up wherever the patch lab
    # left it, and the workaround must keep compaction alive in the SDK's suite (issue 21).
    live = install_upstream_test(checkout.folder, paths.LIVENESS_TEST, LIVENESS_TEST_NAME)
    files = sorted({*select_files(checkout.folder / "tests", pattern), ours, live})
    report(f"{version}: {len(files)} test files selected")
    baseline, _ = run_suite(checkout, files, fix=False, workers=workers, run=run)
    runs = [summarize(version, "baseline", len(files), baseline, 0)]
    failed = failures(version, "baseline", baseline)
    report(tally(runs[-1]))
    found: list[SuiteChange] = []
    if fix:
        fixed, upgraded = run_suite(checkout, files, fix=True, workers=workers, run=run)
        runs.append(summarize(version, "fix", len(files), fixed, upgraded))
        failed += failures(version, "fix", fixed)
        report(tally(runs[-1]))
        found = confirm(checkout, changes(version, baseline, fixed), workers=workers, run=run)
    label = patched.label if patched is not None else ""
    return SuiteResult(runs, found, checks, label, failed)


def command(args: argparse.Namespace) -> int:
    """``upstream-suite``: exit 1 if a change is unexplained or a check of our test fails."""

    started = time.monotonic()
    patched = from_namespace(argparse.Namespace(**vars(args) | {"fix": False}), PINNED)
    version = patched.base if patched is not None else args.release or PINNED
    report: Report = (lambda line: print(line, file=sys.stderr)) if args.format == "json" else print
    result = upstream_suite(
        version,
        fix=args.fix,
        pattern=args.select,
        root=Path(args.root) if args.root else None,
        workers=args.workers,
        report=report,
        patched=patched,
    )
    sys.stdout.write(render(result, args.format))
    if args.write:
        default = results_folder(patched) if patched is not None else paths.DATA
        folder = Path(args.folder) if args.folder else default
        for path in write(result, version, folder):
            report(f"wrote {path.relative_to(folder.parent)}")
        report("the README's block is written by `python -m approval_compaction readme`")
    report(f"{version}: {time.monotonic() - started:.0f} s")
    failed_checks = [c for c in result.checks if not c.passed]
    return 1 if result.unexplained or failed_checks else 0
