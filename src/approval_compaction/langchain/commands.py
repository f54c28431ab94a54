"""Commands: the LangChain study's command line, and the files each command writes.

``langchain-matrix`` runs the 16 cases on one ``langchain`` release in one setting and prints
them; ``langchain-data`` (what ``make run`` writes) runs the pinned release's settings and
liveness situations (``data/langchain-settings.json``, ``langchain-liveness.json``, the
``langchain-matrix.*`` files) and the sweep's boundaries; ``langchain-sweep`` every 1.x release
(``make langchain-sweep``); ``report-langchain`` the issue in langchain's form. Each judged by
the study's invariants. Declaring them loads nothing heavy: each handler is imported when its
command runs.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from ..formats.arguments import (
    AddCommand,
    Lazy,
    matrix_options,
    report_options,
    sweep_options,
)
from ..lab import paths
from .words import APIS, KINDS

HERE = ".langchain.commands"


def register(add: AddCommand, lazy: Lazy) -> None:
    """Declare ``langchain-matrix``, ``langchain-data``, ``langchain-sweep``, ``langchain-fix``
    and ``report-langchain``."""
    matrix = add(
        "langchain-matrix",
        lazy(HERE, "matrix_command"),
        "run the 16 cases on langchain's create_agent (its own environment, ChatOpenAI over "
        "HTTP to the stand-in)",
    )
    matrix_options(matrix)
    matrix.add_argument(
        "--kind",
        choices=KINDS,
        default=KINDS[0],
        help="keep-N: SummarizationMiddleware keeping N messages; trim: the docs' trim step",
    )
    matrix.add_argument("--api", choices=APIS, default=APIS[0], help="Chat Completions, Responses")
    matrix.add_argument("--release", help="a langchain release (default: the pinned one)")
    add(
        "langchain-data",
        lazy(HERE, "data_command"),
        "the pinned langchain release: its matrix, every setting, the liveness situations",
    ).add_argument("--folder", default=str(paths.DATA))
    sweep = add(
        "langchain-sweep",
        lazy(HERE, "sweep_command"),
        "every langchain 1.x release into data/langchain-sweep.json (slow)",
    )
    sweep_options(sweep, "the package index", str(paths.DATA), "where the sweep's files go")
    add(
        "langchain-fix",
        lazy(HERE, "fix_command"),
        "the patched langchain (langchain/fix) in every setting's situations, the regression "
        "test on the pinned and patched package, and its mutants",
    ).add_argument("--folder", default=str(paths.DATA))
    report = add(
        "report-langchain",
        lazy(".langchain.report", "command"),
        "the issue for langchain (data/report-langchain.md), from data/",
    )
    report_options(report, str(paths.DATA))


def matrix_command(args: argparse.Namespace) -> int:
    """``langchain-matrix``: the cases on a release (the pinned one by default), printed."""
    from ..analysis.matrix import matrix_text, records
    from ..formats.files import write_or_print
    from ..study.scenario import select_cases
    from .harness import Plan, run_plans
    from .packages import pinned, release_environment

    plan = Plan(args.kind, args.api, cases=tuple(select_cases(args.case)))
    (runs,) = run_plans([plan], release_environment(args.release or pinned()).python)
    write_or_print(matrix_text(records(runs), args.format), args.output)
    return 0


def write_pinned(folder: Path = paths.DATA) -> list[Path]:
    """The pinned release: every setting's record (``langchain-settings.json``), the first
    setting's matrix (``langchain-matrix.*``), the liveness situations in every setting
    (``langchain-liveness.json``), and the sweep's boundaries when it is there."""
    from ..analysis.liveness import LivenessRecord, liveness_records
    from ..formats.records import write_records
    from ..lab.releases.driven import SweepRecord
    from ..lab.share.results import write_matrix
    from .files import MATRIX, data_file
    from .packages import pinned, release_environment
    from .sweep import CONTROLS, PLANS, run_all

    ran = run_all(release_environment(pinned()).python, live=(*PLANS, *CONTROLS))
    written = write_matrix(ran.cases[0][1], folder, MATRIX)
    written += write_records(data_file("settings", folder), ran.records(), SweepRecord)
    live = liveness_records(ran.liveness)
    written += write_records(data_file("liveness", folder), live, LivenessRecord)
    return written + write_boundaries(folder)


def write_boundaries(folder: Path = paths.DATA) -> list[Path]:
    """Where each setting's result changes between two swept releases, with the change that
    moved it (``langchain-boundaries.json``), when the sweep is there."""
    from ..formats.records import write_records
    from .files import data_file
    from .finding import Boundary, boundaries, load

    found = load(folder)
    if found is None or not found.sweep:
        return []
    found_boundaries = boundaries(found.sweep, found.sweep_liveness)
    return write_records(data_file("boundaries", folder), found_boundaries, Boundary)


def data_command(args: argparse.Namespace) -> int:
    """``langchain-data``: write the pinned release's files."""
    for path in write_pinned(Path(args.folder)):
        print(f"wrote {path}")
    return 0


def sweep_command(args: argparse.Namespace) -> int:
    """``langchain-sweep``: every release (or those named); ``--dates`` asks the package index
    for the release dates first."""
    from .packages import fetch_release_dates
    from .sweep import sweep

    if args.dates:
        print(f"wrote {fetch_release_dates()}")
    for path in sweep(args.release or None, Path(args.folder)):
        print(f"wrote {path}")
    return 0


@dataclass(frozen=True)
class SdkTestRecord:
    """The regression test on one package (the pinned release, the patched one, a mutant of
    the fix): its cases, how many passed and failed, and the failing cases' ids."""

    package: str
    tests: int
    passed: int
    failed: int
    failing: str


def write_fix(folder: Path = paths.DATA) -> list[Path]:
    """The patched package's situations in every setting (``langchain-patched.json``), and the
    regression test on the pinned package, the patched one and each mutant of the fix
    (``langchain-sdk-test.json``)."""
    from ..analysis.liveness import LivenessRecord, liveness_records
    from ..formats.records import write_records
    from .files import data_file
    from .packages import pinned, release_environment
    from .patched import label, patched_environment
    from .sdk_test import run_mutants, run_sdk_test
    from .sweep import CONTROLS, PLANS, run_all

    patched = patched_environment()
    controls = (*PLANS, *CONTROLS)
    ran = run_all(patched.python, plans=(), release=label(), live=controls)
    live = liveness_records(ran.liveness)
    written = write_records(data_file("patched", folder), live, LivenessRecord)
    runs = {pinned(): run_sdk_test(release_environment(pinned()).python)}
    runs[label()] = run_sdk_test(patched.python)
    runs |= {f"{label()}, mutant: {name}": run for name, run in run_mutants(patched.python).items()}
    rows = [
        SdkTestRecord(name, r.tests, r.passed, r.failed, " ".join(r.failing))
        for name, r in runs.items()
    ]
    return written + write_records(data_file("sdk_test", folder), rows, SdkTestRecord)


def fix_command(args: argparse.Namespace) -> int:
    """``langchain-fix``: write the patched package's and the regression test's files."""
    for path in write_fix(Path(args.folder)):
        print(f"wrote {path}")
    return 0
