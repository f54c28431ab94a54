"""Command line: ``python -m approval_compaction COMMAND``; bad input exits 2 with one line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from . import paths
from .errors import InvestigationError
from .files import write_atomic
from .formats import FORMATS, render
from .invariants import UnknownInvariantError
from .matrix import records, run_matrix
from .scenario import CaseValueError, select_cases
from .workaround import defer_compaction_while_pending

USER_ERRORS = (InvestigationError, CaseValueError, UnknownInvariantError)


def _matrix(args: argparse.Namespace) -> int:
    wrap = defer_compaction_while_pending if args.fix else None
    runs = run_matrix(select_cases(args.case), wrap_session=wrap)
    text = render(records(runs), args.format)
    if args.output:
        write_atomic(Path(args.output), text)
    else:
        sys.stdout.write(text)
    return 0


def _data(args: argparse.Namespace) -> int:
    from .results import write_matrix

    for path in write_matrix(run_matrix(), Path(args.folder)):
        print(f"wrote {path.relative_to(Path(args.folder).parent)}")
    return 0


def _notebooks(args: argparse.Namespace) -> int:
    from .notebooks import execute_in_place, notebook_paths

    targets = [Path(p) for p in args.paths] or notebook_paths(paths.NOTEBOOKS)
    for path in targets:
        changed = execute_in_place(path)
        print(f"executed {path.name}{' (changed)' if changed else ''}")
    return 0


def _render(args: argparse.Namespace) -> int:
    from .notebooks import notebook_paths
    from .render import render_notebook

    targets = [Path(p) for p in args.paths] or notebook_paths(paths.NOTEBOOKS)
    for path in targets:
        if not path.is_file():
            raise InvestigationError(f"no notebook at {path}")
        rendered = render_notebook(path, Path(args.folder))
        print(f"rendered {path.name}: {len(rendered.paths)} files")
    return 0


def _report(args: argparse.Namespace) -> int:
    from .report import build_report, github_length, write_report

    output = Path(args.output) if args.output else None
    if output is not None and output.is_dir():
        raise InvestigationError(f"--output {output} is a folder, not a file")
    report = build_report(run_matrix(select_cases(args.case)), spec=args.case, output=output)
    if output is None:
        sys.stdout.write(report.text)
        return 0
    for path in write_report(report, output):
        print(f"wrote {path}")
    left = ", ".join(report.left_out) or "nothing"
    print(f"{github_length(report.text):,} characters as GitHub counts them; left out: {left}")
    return 0


def _readme(args: argparse.Namespace) -> int:
    from .readme import update

    print("README findings " + ("updated" if update() else "unchanged"))
    return 0


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(prog="python -m approval_compaction", description=__doc__)
    commands = main.add_subparsers(dest="command", required=True)

    matrix = commands.add_parser("matrix", help="run the 16 cases on the installed SDK")
    matrix.add_argument("--format", choices=FORMATS, default="table")
    matrix.add_argument("--case", help="filter, e.g. decision=reject,compaction=on")
    matrix.add_argument("--output", help="write to this file instead of stdout")
    matrix.add_argument(
        "--fix", action="store_true", help="apply the workaround (defer_compaction_while_pending)"
    )
    matrix.set_defaults(handler=_matrix)

    data = commands.add_parser("data", help="write the matrix files under data/")
    data.add_argument("--folder", default=str(paths.DATA))
    data.set_defaults(handler=_data)

    readme = commands.add_parser("readme", help="rewrite the README's findings from data/")
    readme.set_defaults(handler=_readme)

    notebooks = commands.add_parser("notebooks", help="execute notebooks in place")
    notebooks.add_argument("paths", nargs="*")
    notebooks.set_defaults(handler=_notebooks)

    render = commands.add_parser("render", help="render notebooks to HTML and markdown")
    render.add_argument("paths", nargs="*")
    render.add_argument("--folder", default=str(paths.RENDERED))
    render.set_defaults(handler=_render)

    report = commands.add_parser("report", help="write a paste-ready markdown report")
    report.add_argument("--case", help="filter, e.g. decision=reject,compaction=on")
    report.add_argument("--output", help="write here (and its heatmap PNG beside it)")
    report.set_defaults(handler=_report)

    from . import bisect, sweep  # the release sweep and its bisect add their own subcommands

    sweep.register(commands)
    bisect.register(commands)
    from . import comparison, crosscheck, snippet  # the workaround's data, test and snippet

    for module in (comparison, crosscheck, snippet):
        module.register(commands)
    return main


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except USER_ERRORS as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
