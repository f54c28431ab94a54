"""The lab's commands: declared here, each run by a module of the lab imported when it runs.

``register`` declares the lab's commands on the command line's parser, in the order ``--help``
lists them, and ``register_doctor_steps`` the doctor step that writes the study's data
(``doctor data``). Declaring them loads nothing heavy; a command whose extra is missing says so
in one line (``cli``'s ``Lazy``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from ..errors import InvestigationError
from ..formats.arguments import (
    CASE_HELP,
    AddCommand,
    Handler,
    Lazy,
    collect_from_here,
    patch_options,
)
from ..sdks import sdk_module, words
from ..study.words import MODELS, NEWEST
from . import paths
from .explore.sdks import registry
from .plugins import plugins, sharing


def _fix_anatomy(args: argparse.Namespace) -> int:
    """``fix-anatomy``, each approval kind's pause made as the explorer makes its calls."""
    from .explore.kinds import call_id

    collect_from_here()
    # the Python SDK's folder, by name (sdks): the experiment and the explorer's calls
    anatomy, kinds = (sdk_module("python", m) for m in ("anatomy", "kinds"))
    pauses = {kind: kinds.call_item(kind, call_id(kind, 1, 0)) for kind in anatomy.OTHER_KINDS}
    return int(anatomy.command(args, pauses))


def _liveness(lazy: Lazy) -> Handler:
    """``liveness``: the released runs (the Python SDK's ``later_turns``), or with
    ``--patch``/``--sdk`` the patched SDK's (``releases.later_turns_patch``)."""

    def handler(args: argparse.Namespace) -> int:
        if args.patch or args.sdk:
            return lazy(".lab.releases.later_turns_patch", "liveness_command")(args)
        output = args.output or str(paths.DATA_FILES.liveness)
        later_turns = sdk_module("python", "later_turns")  # the Python SDK's folder, by name
        return int(later_turns.command(argparse.Namespace(**vars(args) | {"output": output})))

    return handler


def _data(args: argparse.Namespace) -> int:
    from ..formats.progress import Progress
    from .releases.sweep import write_pinned_meetings
    from .share.results import write_matrix

    folder = Path(args.folder)
    studies = [p.data for p in plugins() if p.data is not None]  # each SDK's pinned study
    with Progress(
        "data",
        4 + len(studies),
        "steps (the matrix, its files, store=False, the meetings, each SDK's pinned study)",
    ) as progress:
        # The Python SDK's folder, reached by name as every SDK's folder is (sdks).
        harness, wiring = sdk_module("python", "harness"), sdk_module("python", "wiring")
        runs = harness.run_matrix(jobs=0)
        progress.step()
        written = write_matrix(runs, folder)
        progress.step()
        # ``auto`` with ModelSettings(store=False), over HTTP: what its user meets.
        unstored = harness.run_matrix(
            mode="auto", backend=wiring.responses_backend, jobs=0, response_store=False
        )
        written += write_matrix(unstored, folder, paths.STORE_FALSE_MATRIX)
        progress.step()
        written += write_pinned_meetings(folder)
        progress.step()
        for study in studies:
            written += study(folder)
            progress.step()
    for path in written:
        print(f"wrote {path.relative_to(Path(args.folder).parent)}")
    return 0


def _notebook_targets(args: argparse.Namespace) -> list[Path]:
    from .share.notebooks import notebook_paths

    targets = [Path(p) for p in args.paths] or notebook_paths(paths.NOTEBOOKS)
    for path in targets:
        if not path.is_file():
            raise InvestigationError(f"no notebook at {path}")
    return targets


def _notebooks(args: argparse.Namespace) -> int:
    from ..formats.progress import Progress, tracked
    from .share.headlines import update_all
    from .share.notebooks import execute_in_place

    targets = _notebook_targets(args)
    for path in update_all(targets):
        print(f"answer written in {path.name}")
    for path in tracked(targets, Progress("notebooks", len(targets), "notebooks executed")):
        changed = execute_in_place(path)
        print(f"executed {path.name}{' (changed)' if changed else ''}")
    return 0


def _render(args: argparse.Namespace) -> int:
    from ..formats.markdown import github_length
    from .share.render import check_folder, render_all

    targets = _notebook_targets(args)
    check_folder(Path(args.folder), args.force)
    for path, rendered in zip(targets, render_all(targets, Path(args.folder)), strict=True):
        length = github_length(rendered.markdown.read_text())
        attach = f"; attach {', '.join(rendered.attachments)}" if rendered.attachments else ""
        print(f"rendered {path.name}: {len(rendered.paths)} files, {length:,} characters{attach}")
    return 0


def _report(args: argparse.Namespace) -> int:
    from ..formats.markdown import github_length
    from ..study.scenario import select_cases
    from .share.comment import check_output
    from .share.report import attach_hint, case_report, write_report

    output = Path(args.output) if args.output else None
    if output is not None:
        check_output(output, args.force, with_heatmap=True)
    report = case_report(select_cases(args.case), args.case, output)
    if output is None:
        sys.stdout.write(report.text)
        return 0
    for path in write_report(report, output, replace=args.force):
        print(f"wrote {path}")
    left = ", ".join(report.left_out) or "nothing"
    print(f"{github_length(report.text):,} characters as GitHub counts them; left out: {left}")
    print(attach_hint(output))
    return 0


def _envs(args: argparse.Namespace) -> int:
    from .mechanism.catalogue import RELEASES
    from .releases.environments import command

    args.versions = args.versions or list(RELEASES)
    return command(args)


def _fix_data(args: argparse.Namespace) -> int:
    """The pinned release with the workaround, and the newest release unfixed, under data/."""
    from ..formats.progress import Progress
    from .releases.environments import default_envs, newest_release
    from .share.results import write_matrix

    comparison = sdk_module("python", "comparison")  # the Python SDK's folder, by name (sdks)
    folder = Path(args.folder)
    version = args.version or newest_release()
    envs = Path(args.envs) if args.envs else default_envs()
    with Progress("fix-data", 2, "matrices (with the workaround, the newest release)") as progress:
        written = write_matrix(comparison.fixed_runs(), folder, comparison.FIXED_STEM)
        progress.step()
        newest = comparison.newest_runs(version, envs)
        written += write_matrix(newest, folder, comparison.NEWEST_STEM)
        progress.step()
    for path in written:
        print(f"wrote {path.relative_to(folder.parent)}")
    return 0


def _readme(args: argparse.Namespace) -> int:
    from .share.readme import update_all

    changed = update_all(parser=args.whole_parser())
    print("pages updated: " + (", ".join(p.name for p in changed) if changed else "none"))
    return 0


def register(add: AddCommand, lazy: Lazy, whole: Callable[[], argparse.ArgumentParser]) -> None:
    """Declare the lab's commands; ``whole`` builds the whole parser (``readme`` documents it)."""
    for plugin in plugins():  # each SDK that enters as one folder (lab.plugins), in order
        plugin.register(add, lazy)
    _publishing(add, whole)
    _releases(add, lazy)
    _fixes(add, lazy)
    _exploring(add, lazy)


def register_doctor_steps(
    steps: argparse._SubParsersAction[argparse.ArgumentParser], lazy: Lazy
) -> None:
    """Add ``doctor data``, the study's data on the newest release (``make doctor-data``), and
    ``doctor exports``, the doctor's test data from each SDK's runner (``make doctor-exports``)."""
    data = steps.add_parser(
        "data", help="the newest release on a poisoned store (make doctor-data)"
    )
    data.set_defaults(handler=lazy(".lab.affected.command"))
    data.add_argument("--version", help="the release to compare (default: the newest)")
    data.add_argument("--envs", help="the sweep's environment folder (default: its cache)")
    data.add_argument("--folder", default=str(paths.DATA))
    exports = steps.add_parser(
        "exports",
        help="the sessions each SDK's runner stores for every approval kind, the doctor's test "
        "data (make doctor-exports)",
    )
    exports.set_defaults(handler=lazy(".lab.affected.exports"))
    exports.add_argument("--folder", default=str(paths.DOCTOR_EXPORTS))


def _publishing(add: AddCommand, whole: Callable[[], argparse.ArgumentParser]) -> None:
    """What ``make run`` writes: data/, the notebooks, their renderings, the report."""
    add("data", _data, "write the matrix files under data/").add_argument(
        "--folder", default=str(paths.DATA)
    )
    add("readme", _readme, "rewrite the README's and docs/ pages' tables from data/").set_defaults(
        whole_parser=whole
    )
    add("notebooks", _notebooks, "execute notebooks in place").add_argument("paths", nargs="*")
    render = add("render", _render, "render notebooks to HTML and markdown")
    render.add_argument("paths", nargs="*")
    render.add_argument("--folder", default=str(paths.DATA_FILES.rendered))
    render.add_argument(
        "--force", action="store_true", help="write into a folder that holds other files"
    )

    report = add("report", _report, "write a paste-ready markdown report")
    report.add_argument("--case", help=CASE_HELP)
    report.add_argument("--output", help="write here (and its heatmap PNG beside it)")
    report.add_argument("--force", action="store_true", help="replace an existing output file")


def _releases(add: AddCommand, lazy: Lazy) -> None:
    """Every release: the sweep, its environments, the mechanism, the fix's anatomy."""
    sweep = add(
        "sweep", lazy(".lab.releases.sweep"), "run the matrix on every openai-agents release"
    )
    sweep.add_argument(
        "--versions",
        help="releases: 0.23.1, 0.8.0,0.23.1, 0.20.0..0.24.0 or 0.20.0.. (default: all)",
    )
    sweep.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    sweep.add_argument("--refresh", action="store_true", help="re-run releases already swept")
    sweep.add_argument(
        "--output", default=str(paths.DATA_FILES.sweep), help="results JSON (CSV beside)"
    )
    sweep.add_argument("--envs", help="folder for the release environments (default: cache)")

    envs = add(
        "envs",
        _envs,
        "make the release environments (default: those the tests and the mechanism use)",
    )
    envs.add_argument("versions", nargs="*", help="releases (default: pinned, newest, the era's)")
    envs.add_argument("--envs", help="folder for the release environments (default: cache)")

    mechanism = add(
        "mechanism",
        lazy(".lab.mechanism.command"),
        "write data/mechanism.json: SDK source, traces",
    )
    mechanism.add_argument(
        "--output",
        help="the record (default: data/mechanism.json; patched: beside its environment)",
    )
    mechanism.add_argument("--envs", help="the sweep's environment folder (default: its cache)")
    patch_options(mechanism)
    anatomy = add(
        "fix-anatomy",
        _fix_anatomy,
        f"take {NEWEST}'s fix apart by experiment: ablation and ddmin (data/fix-anatomy.json)",
    )
    anatomy.add_argument("--output", default=str(paths.DATA_FILES.fix_anatomy))
    anatomy.add_argument("--envs", help="the sweep's environment folder (default: its cache)")
    anatomy.add_argument(
        "--kinds",
        help="approval kinds, comma-separated: function, custom, shell, apply_patch, hosted MCP "
        "(default: all; function always)",
    )
    anatomy.add_argument(
        "--jobs", type=int, default=0, help="configurations at once (default: one per core)"
    )
    permalinks = add(
        "permalinks",
        lazy(".lab.mechanism.permalink"),
        "fetch the installed release's sdist once; check its src/agents/ is what is installed",
    )
    permalinks.add_argument("--cache", help="folder for the sdist (default: the user's cache)")
    bisect = add(
        "bisect", lazy(".lab.releases.bisect"), "find the releases where an invariant breaks"
    )
    bisect.add_argument(
        "--invariant", required=True, help="an invariant's name, as the matrix records spell it"
    )
    bisect.add_argument("--case", help=CASE_HELP)
    bisect.add_argument("--versions", help="releases to search (default: all)")
    bisect.add_argument("--broken", help="a release known to be broken (default: the pinned one)")
    bisect.add_argument(
        "--sweep", default=str(paths.DATA_FILES.sweep), help="sweep results to reuse"
    )
    bisect.add_argument("--envs", help="folder for the release environments (default: cache)")


def _fixes(add: AddCommand, lazy: Lazy) -> None:
    """The workaround and the fix: their matrices, liveness runs and regression tests."""
    fix = add(
        "fix-data", _fix_data, "write the matrix with the workaround, and the newest release's"
    )
    fix.add_argument("--version", help="the release to run unfixed (default: the newest)")
    fix.add_argument("--envs", help="the sweep's environment folder (default: its cache)")
    fix.add_argument("--folder", default=str(paths.DATA))

    live = add(
        "liveness",
        _liveness(lazy),
        "continue each situation and case N turns: pinned, with the workaround, newest release "
        "(with --patch/--sdk: on the patched SDK only)",
    )
    live.add_argument("--turns", type=int, default=10, help="later turns (default: 10)")
    live.add_argument(
        "--model",
        choices=MODELS,
        default="responses",
        help="responses: the SDK's model on a stand-in with the API's rules (default); "
        "scripted: the scripted model, which accepts an output without its call",
    )
    live.add_argument("--version", help="the newer release (default: the newest)")
    live.add_argument("--envs", help="the sweep's environment folder (default: its cache)")
    live.add_argument(
        "--output", help="where to write (default: data/liveness.json; patched: beside its env)"
    )
    patch_options(live)

    add(
        "liveness-mutants",
        lazy(".lab.releases.mutants", "command"),
        "each plausible simplification of the liveness patch against its regression test "
        "(data/liveness-mutants.json)",
    ).add_argument("--folder", default=str(paths.DATA))
    proof = add(
        "liveness-patch",
        lazy(".lab.releases.later_turns_patch"),
        "prove the liveness patch: its test, the SDK's suite, the matrix, the liveness runs",
    )
    proof.add_argument("--patch", help="the patch (default: the committed liveness patch)")
    proof.add_argument("--release", help=f"the release it is against (default: {NEWEST})")
    proof.add_argument(
        "--part",
        action="append",
        choices=("test", "mcp", "suite", "matrix", "liveness", "http"),
        help="only",
    )
    proof.add_argument("--turns", type=int, default=10, help="later turns (default: 10)")
    proof.add_argument("--folder", default=str(paths.DATA), help="where to write (default: data/)")

    cross = add(
        "crosscheck",
        lazy(".lab.releases.crosscheck"),
        "run the SDK-style regression test on each swept release",
    )
    cross.add_argument("--versions", help="releases, as for the sweep (default: all swept)")
    cross.add_argument("--envs", help="the sweep's environment folder (default: its cache)")
    cross.add_argument("--create", action="store_true", help="create missing environments")
    cross.add_argument(
        "--sweep", default=str(paths.DATA_FILES.sweep), help="the sweep's results JSON"
    )
    cross.add_argument(
        "--folder", help="where to write (default: data/; patched: beside its environment)"
    )
    patch_options(cross)

    upstream = add(
        "upstream-suite",
        lazy(".lab.releases.upstream.command"),
        "run the SDK's own compaction and approval tests, as they are and with the workaround",
    )
    upstream.add_argument("--release", help="the release whose sdist to test (default: 0.23.1)")
    upstream.add_argument("--fix", action="store_true", help="run again with the workaround")
    upstream.add_argument("--select", help="a regex: test files whose text matches it")
    upstream.add_argument("--format", choices=("table", "json"), default="table")
    upstream.add_argument("--workers", type=int, default=2, help="pytest-xdist workers")
    upstream.add_argument("--root", help="folder for the checkouts (default: the cache)")
    upstream.add_argument("--write", action="store_true", help="write the results under --folder")
    upstream.add_argument(
        "--folder", help="where --write writes (default: data/; patched: beside its environment)"
    )
    patch_options(upstream, release=False)


def _exploring(add: AddCommand, lazy: Lazy) -> None:
    """The property-based search, and what the lab shares upstream."""
    explore = add(
        "explore",
        lazy(".lab.explore.command"),
        "search conversations for invariant violations (hypothesis); `explore replay FILE`",
    )
    explore.add_argument("--release", help="run in this release's environment (default: here)")
    drivers = [f"{getattr(words(name), 'package', name)}: {name}" for name in registry()]
    explore.add_argument(
        "--driver",
        choices=tuple(registry()),
        help=f"search a driver's SDK instead, by its folder's name ({', '.join(drivers)}), on "
        "its pinned release (--release newest, or a version; --patch FILE: the pinned one "
        "patched)",
    )
    explore.add_argument("--fix", action="store_true", help="wrap the session in the workaround")
    explore.add_argument("--examples", type=int, default=200, help="examples per round")
    explore.add_argument("--seed", type=int, default=0)
    explore.add_argument("--rounds", type=int, default=40, help="at most this many findings")
    explore.add_argument("--kinds", help="tool kinds, comma-separated (default: all available)")
    explore.add_argument("--boundaries", default="memory,json,process")
    explore.add_argument("--database", action="store_true", help="keep hypothesis's database")
    explore.add_argument(
        "--first",
        default="ask,decide",
        help="the steps of the first rounds, until one finds nothing new ('': every step)",
    )
    explore.add_argument(
        "--folder", help="where to write (default: data/; patched: beside its environment)"
    )
    patch_options(explore, release=False)
    replay = explore.add_subparsers(dest="explore_command").add_parser(
        "replay", help="rerun a saved counterexample and show it step by step"
    )
    replay.add_argument("file")
    replay.add_argument("--saved", action="store_true", help="show the run as found, no rerun")

    share = add(
        "share",
        lazy(".lab.share.comment"),
        "one notebook, one case or an SDK's report as a paste-ready comment, and what to attach",
    )
    share.add_argument("notebook", nargs="?", help="e.g. notebooks/03-inside-the-sdk.ipynb")
    share.add_argument("--case", help="one case: a label (run/approve/on/json) or a filter")
    for sdk, option in sharing():  # each SDK's reports (lab.plugins), as --NAME [WHICH]
        share.add_argument(
            f"--{sdk.name}",
            dest=sdk.name,
            nargs="?",
            const=option.reports[0],
            choices=option.reports,
            help=option.help,
        )
    share.add_argument("--output", help="write the comment here (default: stdout)")
    share.add_argument("--force", action="store_true", help="replace an existing output file")
    share.add_argument(
        "--folder", default=str(paths.DATA_FILES.rendered), help="where a notebook is rendered"
    )

    snippet = add(
        "snippet", lazy(".lab.share.snippet"), "write the markdown comment for the upstream thread"
    )
    snippet.add_argument("--output", default=str(paths.DATA_FILES.snippet))

    liveness_comment = add(
        "upstream-liveness",
        lazy(".lab.share.later_turns_comment"),
        "write the upstream comment on compaction liveness, its test, patch and proofs",
    )
    liveness_comment.add_argument("--output", default=str(paths.DATA_FILES.upstream_liveness))
