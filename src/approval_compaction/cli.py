"""Command line: ``python -m approval_compaction COMMAND``; bad input exits 2 with one line.

Each command imports what it uses when it runs, so ``--help`` and the parser load nothing but
this module; ``matrix`` (every format) loads the study and the records, not pandas or
matplotlib, and shares its cases between the cores.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import paths
from .errors import InvestigationError, MissingExtra, printable
from .study.words import COMPACT_RULES, MODELS, MODES, NEWEST, STORE_WORDS, STUDY_MODE

Handler = Callable[[argparse.Namespace], int]
FORMATS = ("table", "json", "csv", "markdown")  # matrix_text's formats (checked by a test)
CASE_HELP = "filter, e.g. decision=reject,compaction=on"
JS_WORKAROUND_HELP = "the session wrapped by js/workaround.mjs (the JS workaround)"
JS_PATCH_HELP = (
    "a diff of @openai/agents-openai's dist/ (js/fix/), applied to a copy of the pinned one"
)
STORE_HELP = (
    "the agent's ModelSettings(store=...): default leaves it unset (auto compacts by "
    "previous_response_id); false: the responses are not stored (auto compacts by input)"
)


class Parser(argparse.ArgumentParser):
    """An argument parser whose every refusal is one line on stderr and exit 2 (argparse's
    own prints the usage first); its subcommands' parsers are of this class too."""

    def error(self, message: str) -> Any:
        self.exit(2, f"error: {printable(message)} (see {self.prog} --help)\n")


def bounded_int(low: int, high: int | None = None, what: str = "a number") -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` (to ``high``), else one line saying so."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if value < low or (high is not None and value > high):
            span = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"{value} is not {what} ({span})")
        return value

    return parse


PORT = bounded_int(0, 65535, "a TCP port")
SECONDS = bounded_int(1, None, "a number of seconds")


def _lazy(module: str, function: str = "command") -> Handler:
    """A handler that imports ``module`` only when its command runs; a lab command whose
    dependencies are not installed (a ``[doctor]`` install) is one line naming ``[lab]``."""

    def handler(args: argparse.Namespace) -> int:
        try:
            loaded = importlib.import_module(module, __package__)
        except ModuleNotFoundError as missing:
            name = missing.name or ""
            if not module.startswith(".lab.") or not name or name.startswith(f"{__package__}."):
                raise
            raise MissingExtra("this command", [name.partition(".")[0]], "lab") from None
        collect_from_here()
        return int(getattr(loaded, function)(args))

    return handler


def collect_from_here() -> None:
    """Turn the cyclic garbage collector back on once a command's modules are imported
    (``__main__`` turns it off for the imports), with what is loaded so far frozen out of its
    work. A long command makes cycles that only the collector frees: ``explore`` makes some in
    every example (hypothesis's runs, event loops, tracebacks), and grew past 3 GB in 27 rounds
    without it (issue 34)."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _fix_anatomy(args: argparse.Namespace) -> int:
    """``fix-anatomy``, each approval kind's pause made as the explorer makes its calls."""
    from .lab.explore.kinds import call_id, call_item
    from .lab.mechanism import anatomy

    collect_from_here()
    pauses = {kind: call_item(kind, call_id(kind, 1, 0)) for kind in anatomy.OTHER_KINDS}  # type: ignore[arg-type]
    return anatomy.command(args, pauses)


def _liveness(args: argparse.Namespace) -> int:
    """``liveness``: the released runs (``fix.liveness``), or with ``--patch``/``--sdk`` the
    patched SDK's (``releases.liveness_patch``)."""
    if args.patch or args.sdk:
        return _lazy(".lab.releases.liveness_patch", "liveness_command")(args)
    output = args.output or str(paths.DATA_FILES.liveness)
    return _lazy(".lab.releases.liveness_comparison")(
        argparse.Namespace(**vars(args) | {"output": output})
    )


def _matrix(args: argparse.Namespace) -> int:
    from .analysis.matrix import records
    from .formats.files import write_or_print
    from .lab.share.results import matrix_text
    from .study.driver import SessionWrapper
    from .study.harness import run_matrix
    from .study.scenario import select_cases
    from .study.wiring import backend_for
    from .study.words import STORE_SETTINGS

    cases = select_cases(args.case)  # a bad filter fails before anything runs
    store = STORE_SETTINGS[args.response_store]
    if store is not None and (args.patch or args.sdk):
        raise InvestigationError("--response-store does not apply to a patched run")
    patched = _patched(args)
    if patched is not None:
        return _patched_matrix(args, patched)
    wrap: SessionWrapper | None = None
    if args.fix:
        from .fix.workaround import defer_compaction_while_pending

        wrap = defer_compaction_while_pending
    backend = backend_for(args.model, args.compact_rules)
    runs = run_matrix(
        cases, wrap_session=wrap, backend=backend, mode=args.mode, jobs=0, response_store=store
    )
    text = matrix_text(records(runs), args.format)
    write_or_print(text, args.output)
    return 0


def _patched(args: argparse.Namespace) -> Any:
    """The ``Patched`` that ``--patch``/``--sdk``/``--release`` name, or None (released)."""
    if not getattr(args, "patch", None) and not getattr(args, "sdk", None):
        return None
    from .lab.mechanism.catalogue import PINNED
    from .lab.releases.patched import from_namespace

    return from_namespace(args, PINNED)


def _patched_matrix(args: argparse.Namespace, patched: Any) -> int:
    from .formats.files import write_or_print
    from .lab.releases.patched import patched_matrix, patched_text

    text = patched_text(patched_matrix(patched, args.case), args.format, patched)
    write_or_print(text, args.output)
    return 0


def _data(args: argparse.Namespace) -> int:
    from .formats.progress import Progress
    from .lab.releases.sweep import write_pinned_meetings
    from .lab.share.results import write_matrix
    from .study.harness import run_matrix
    from .study.wiring import responses_backend

    folder = Path(args.folder)
    from .lab.share.js import write_pinned as write_js

    with Progress(
        "data", 5, "steps (the matrix, its files, store=False, the meetings, the JS study)"
    ) as progress:
        runs = run_matrix(jobs=0)
        progress.step()
        written = write_matrix(runs, folder)
        progress.step()
        # ``auto`` with ModelSettings(store=False), over HTTP: what its user meets.
        unstored = run_matrix(mode="auto", backend=responses_backend, jobs=0, response_store=False)
        written += write_matrix(unstored, folder, paths.STORE_FALSE_MATRIX)
        progress.step()
        written += write_pinned_meetings(folder)
        progress.step()
        written += write_js(folder)
        progress.step()
    for path in written:
        print(f"wrote {path.relative_to(Path(args.folder).parent)}")
    return 0


def _notebook_targets(args: argparse.Namespace) -> list[Path]:
    from .lab.share.notebooks import notebook_paths

    targets = [Path(p) for p in args.paths] or notebook_paths(paths.NOTEBOOKS)
    for path in targets:
        if not path.is_file():
            raise InvestigationError(f"no notebook at {path}")
    return targets


def _notebooks(args: argparse.Namespace) -> int:
    from .formats.progress import Progress, tracked
    from .lab.share.headlines import update_all
    from .lab.share.notebooks import execute_in_place

    targets = _notebook_targets(args)
    for path in update_all(targets):
        print(f"answer written in {path.name}")
    for path in tracked(targets, Progress("notebooks", len(targets), "notebooks executed")):
        changed = execute_in_place(path)
        print(f"executed {path.name}{' (changed)' if changed else ''}")
    return 0


def _render(args: argparse.Namespace) -> int:
    from .formats.markdown import github_length
    from .lab.share.render import check_folder, render_all

    targets = _notebook_targets(args)
    check_folder(Path(args.folder), args.force)
    for path, rendered in zip(targets, render_all(targets, Path(args.folder)), strict=True):
        length = github_length(rendered.markdown.read_text())
        attach = f"; attach {', '.join(rendered.attachments)}" if rendered.attachments else ""
        print(f"rendered {path.name}: {len(rendered.paths)} files, {length:,} characters{attach}")
    return 0


def _report(args: argparse.Namespace) -> int:
    from .formats.markdown import github_length
    from .lab.findings.load import load_findings
    from .lab.share.comment import check_output
    from .lab.share.report import attach_hint, build_report, write_report
    from .study.harness import run_matrix
    from .study.scenario import select_cases
    from .study.wiring import responses_backend

    output = Path(args.output) if args.output else None
    if output is not None:
        check_output(output, args.force, with_heatmap=True)
    cases = select_cases(args.case)
    report = build_report(
        run_matrix(cases),
        spec=args.case,
        output=output,
        wire_runs=run_matrix(cases, backend=responses_backend),
        committed=load_findings(),
    )
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
    from .lab.mechanism.catalogue import RELEASES
    from .lab.releases.environments import command

    args.versions = args.versions or list(RELEASES)
    return command(args)


def _fix_data(args: argparse.Namespace) -> int:
    """The pinned release with the workaround, and the newest release unfixed, under data/."""
    from .formats.progress import Progress
    from .lab.releases.comparison import FIXED_STEM, NEWEST_STEM, fixed_runs, newest_runs
    from .lab.releases.environments import default_envs, newest_release
    from .lab.share.results import write_matrix

    folder = Path(args.folder)
    version = args.version or newest_release()
    envs = Path(args.envs) if args.envs else default_envs()
    with Progress("fix-data", 2, "matrices (with the workaround, the newest release)") as progress:
        written = write_matrix(fixed_runs(), folder, FIXED_STEM)
        progress.step()
        written += write_matrix(newest_runs(version, envs), folder, NEWEST_STEM)
        progress.step()
    for path in written:
        print(f"wrote {path.relative_to(folder.parent)}")
    return 0


def _readme(args: argparse.Namespace) -> int:
    from .lab.share.readme import update_all

    changed = update_all(parser=parser())
    print("pages updated: " + (", ".join(p.name for p in changed) if changed else "none"))
    return 0


PATCH_HELP = (
    "a unified diff of the SDK (paths src/agents/... as git diff writes them, or agents/...): "
    "run on the base release with it applied, in a scratch environment; repeatable"
)


RELEASE_HELP = (
    "with --patch/--sdk, the release whose environment the run copies (default: the pinned "
    "release for --patch; for --sdk the release the tree declares, else the newest)"
)


def patch_options(command: argparse.ArgumentParser, release: bool = True) -> None:
    """``--patch FILE`` (repeatable), ``--sdk PATH`` and (unless the command has its own)
    ``--release V``, the release a patched run copies."""
    command.add_argument("--patch", action="append", metavar="FILE", help=PATCH_HELP)
    command.add_argument(
        "--sdk",
        metavar="PATH",
        help="an openai-agents source tree (a checkout or an unpacked sdist): run its src/agents "
        "on a release's dependencies, in a scratch environment",
    )
    if release:
        command.add_argument("--release", metavar="V", help=RELEASE_HELP)


def parser() -> argparse.ArgumentParser:
    main = Parser(prog="python -m approval_compaction", description=__doc__)
    commands = main.add_subparsers(dest="command", required=True)

    def add(name: str, handler: Handler, help: str) -> argparse.ArgumentParser:
        command = commands.add_parser(name, help=help)
        command.set_defaults(handler=handler)
        return command

    matrix = add("matrix", _matrix, "run the 16 cases on the installed SDK")
    matrix.add_argument("--format", choices=FORMATS, default="table")
    matrix.add_argument("--case", help=CASE_HELP)
    matrix.add_argument("--output", help="write to this file instead of stdout")
    matrix.add_argument(
        "--fix", action="store_true", help="apply the workaround (defer_compaction_while_pending)"
    )
    matrix.add_argument(
        "--model",
        choices=MODELS,
        default=MODELS[0],
        help="scripted: the scripted model; responses: the SDK's OpenAIResponsesModel over HTTP "
        "to the local stand-in (in-process); a patched run takes both, as the sweep does",
    )
    matrix.add_argument(
        "--mode",
        choices=MODES,
        default=STUDY_MODE,
        help="the compaction session's compaction_mode (the study's: input)",
    )
    matrix.add_argument(
        "--compact-rules",
        choices=COMPACT_RULES,
        default=COMPACT_RULES[0],
        help="faithful: the compaction endpoint answers by the API's rules; lenient: it accepts "
        "anything (the original report's world)",
    )
    matrix.add_argument("--response-store", choices=STORE_WORDS, default="default", help=STORE_HELP)
    patch_options(matrix)

    js = add(
        "js-matrix",
        _lazy(".lab.share.js", "matrix_command"),
        "run the 16 cases on @openai/agents (the JS SDK) over HTTP to the stand-in",
    )
    js.add_argument("--format", choices=FORMATS, default="table")
    js.add_argument("--case", help=CASE_HELP)
    js.add_argument("--output", help="write to this file instead of stdout")
    js.add_argument("--mode", choices=MODES, default=STUDY_MODE, help="compactionMode")
    js.add_argument("--response-store", choices=STORE_WORDS, default="default", help=STORE_HELP)
    js.add_argument(
        "--trigger",
        choices=("case", "default"),
        default="case",
        help="case: compact as the case says (always or never); default: the SDK's own trigger",
    )
    js.add_argument(
        "--session",
        choices=("memory", "file"),
        default="memory",
        help="the underlying session: MemorySession, or one kept in a JSON file",
    )
    js.add_argument(
        "--process",
        action="store_true",
        help="a json boundary crosses to a second Node process (the session in a file)",
    )
    js.add_argument("--release", help="an @openai/agents release (default: the pinned one)")
    js.add_argument("--workaround", action="store_true", help=JS_WORKAROUND_HELP)
    js.add_argument("--patch", help=JS_PATCH_HELP)
    js_test = add(
        "js-sdk-test",
        _lazy(".lab.share.js", "sdk_test_command"),
        "the regression test for openai-agents-js (vitest, js/sdk-test) on the pinned package",
    )
    js_test.add_argument("--patch", help=JS_PATCH_HELP)
    report_js = add(
        "report-js",
        _lazy(".lab.share.report_js", "report_js_command"),
        "the paste-ready report for openai-agents-js (data/report-js.md), from data/",
    )
    report_js.add_argument("--output", help="write here instead of stdout")
    report_js.add_argument("--folder", default=str(paths.DATA))
    add(
        "js-fix",
        _lazy(".lab.share.js", "fix_command"),
        "the JS workaround, the patched package and the regression test on the pinned release",
    ).add_argument("--folder", default=str(paths.DATA))
    add(
        "js-liveness",
        _lazy(".lab.share.js", "liveness_command"),
        "the liveness situations on the pinned JS release: bare, with the workaround, patched",
    ).add_argument("--folder", default=str(paths.DATA))
    js_sweep = add(
        "js-sweep",
        _lazy(".lab.share.js", "sweep_command"),
        "every @openai/agents release with the compaction session into data/js-sweep.json (slow)",
    )
    js_sweep.add_argument("--release", action="append", help="only this release (repeatable)")
    js_sweep.add_argument(
        "--dates", action="store_true", help="ask npm's registry for the release dates first"
    )
    js_sweep.add_argument(
        "--workaround",
        action="store_true",
        help=f"{JS_WORKAROUND_HELP}, into data/js-workaround-sweep.json",
    )

    add("data", _data, "write the matrix files under data/").add_argument(
        "--folder", default=str(paths.DATA)
    )
    add("readme", _readme, "rewrite the README's and docs/ pages' tables from data/")
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

    sweep = add(
        "sweep", _lazy(".lab.releases.sweep"), "run the matrix on every openai-agents release"
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
        _lazy(".lab.mechanism.command"),
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
        _lazy(".lab.mechanism.permalink"),
        "fetch the installed release's sdist once; check its src/agents/ is what is installed",
    )
    permalinks.add_argument("--cache", help="folder for the sdist (default: the user's cache)")
    bisect = add(
        "bisect", _lazy(".lab.releases.bisect"), "find the releases where an invariant breaks"
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

    fix = add(
        "fix-data", _fix_data, "write the matrix with the workaround, and the newest release's"
    )
    fix.add_argument("--version", help="the release to run unfixed (default: the newest)")
    fix.add_argument("--envs", help="the sweep's environment folder (default: its cache)")
    fix.add_argument("--folder", default=str(paths.DATA))

    live = add(
        "liveness",
        _liveness,
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

    proof = add(
        "liveness-patch",
        _lazy(".lab.releases.liveness_patch"),
        "prove the liveness patch: its test, the SDK's suite, the matrix, the liveness runs",
    )
    proof.add_argument("--patch", help="the patch (default: the committed liveness patch)")
    proof.add_argument("--release", help=f"the release it is against (default: {NEWEST})")
    proof.add_argument(
        "--part",
        action="append",
        choices=("test", "suite", "matrix", "liveness", "http"),
        help="only",
    )
    proof.add_argument("--turns", type=int, default=10, help="later turns (default: 10)")
    proof.add_argument("--folder", default=str(paths.DATA), help="where to write (default: data/)")

    cross = add(
        "crosscheck",
        _lazy(".lab.releases.crosscheck"),
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
        _lazy(".lab.releases.upstream.command"),
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

    explore = add(
        "explore",
        _lazy(".lab.explore.command"),
        "search conversations for invariant violations (hypothesis); `explore replay FILE`",
    )
    explore.add_argument("--release", help="run in this release's environment (default: here)")
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
        _lazy(".lab.share.comment"),
        "one notebook, or one case, as a paste-ready comment, and the files to attach",
    )
    share.add_argument("notebook", nargs="?", help="e.g. notebooks/03-inside-the-sdk.ipynb")
    share.add_argument("--case", help="one case: a label (run/approve/on/json) or a filter")
    share.add_argument("--output", help="write the comment here (default: stdout)")
    share.add_argument("--force", action="store_true", help="replace an existing output file")
    share.add_argument(
        "--folder", default=str(paths.DATA_FILES.rendered), help="where a notebook is rendered"
    )

    snippet = add(
        "snippet", _lazy(".lab.share.snippet"), "write the markdown comment for the upstream thread"
    )
    snippet.add_argument("--output", default=str(paths.DATA_FILES.snippet))

    liveness_comment = add(
        "upstream-liveness",
        _lazy(".lab.share.upstream_liveness"),
        "write the upstream comment on compaction liveness, its test, patch and proofs",
    )
    liveness_comment.add_argument("--output", default=str(paths.DATA_FILES.upstream_liveness))

    # The user's steps are the doctor's (``doctor.command``, the ``[doctor]`` extra); ``data``
    # writes the study's data files (``lab.affected.command``, the ``[lab]`` extra).
    doctor = add("doctor", _lazy(".doctor.command"), "scan, repair and restore stored sessions")
    steps = doctor.add_subparsers(dest="doctor_command", required=True)
    store_help = (
        "a SQLite file (SQLiteSession, AsyncSQLiteSession, AdvancedSQLiteSession), an "
        "SQLAlchemy URL (postgresql+asyncpg://, mysql+asyncmy://...) or redis://host:port/db"
    )
    scan = steps.add_parser("scan", help="each session's verdict: healthy, poisoned or pending")
    repair = steps.add_parser("repair", help="show (or --apply) the rewrites that heal sessions")
    for step in (scan, repair):
        step.add_argument("store", help=store_help)
        which = step.add_mutually_exclusive_group()
        which.add_argument("--session-id", help="only this session")
        which.add_argument("--all", action="store_true", help="every session (the default)")
        step.add_argument(
            "--key-env",
            default="SESSION_ENCRYPTION_KEY",
            help="the variable holding EncryptedSession's key (never printed)",
        )
        step.add_argument(
            "--ttl", type=SECONDS, help="judge as EncryptedSession with this ttl (seconds) reads"
        )
    scan.add_argument("--format", choices=("table", "json", "csv"), default="table")
    scan.add_argument(
        "--in-database",
        action="store_true",
        help="list the poisoned and stuck sessions with `doctor sql`",
    )
    sql = steps.add_parser(
        "sql", help="print the read-only SQL query that lists poisoned and stuck sessions"
    )
    sql.add_argument("--dialect", choices=("sqlite", "postgresql", "mysql"), required=True)
    sql.add_argument(
        "--branches", action="store_true", help="an AdvancedSQLiteSession file (sqlite)"
    )
    repair.add_argument("--format", choices=("table", "json"), default="table")
    repair.add_argument("--apply", action="store_true", help="write (after a backup)")
    repair.add_argument("--backup", help="backup file to write (default: beside the store)")
    restore = steps.add_parser("restore", help="put the sessions of a backup back exactly")
    restore.add_argument("backup", help="a backup written by doctor repair --apply")
    restore.add_argument("--store", help="the store to restore into (default: the backup's)")
    restore.add_argument(
        "--exact",
        action="store_true",
        help="remove the rows added since the backup (default: keep them, and name them)",
    )
    restore.add_argument(
        "--force", action="store_true", help="restore into a store that is not the backup's"
    )
    check = steps.add_parser("check", help="whether and when the bug strikes a configuration")
    check.add_argument("--mode", default="auto", help="auto, input or previous_response_id")
    check.add_argument("--trigger", default="default", help="default, always, never or N items")
    check.add_argument(
        "--decision", default="approve", help="approve, reject or abandon (the user asks on)"
    )
    check.add_argument(
        "--tool", default="function", help="the tool that pauses: function, or mcp (hosted MCP)"
    )
    check.add_argument("--turns", type=int, default=24, help="pause positions 0..N prior turns")
    check.add_argument(
        "--later",
        type=int,
        default=10,
        help="later turns after each position, to judge whether compaction keeps running "
        "(default: 10; 0: not judged)",
    )
    check.add_argument("--format", choices=("table", "json"), default="table")
    check.add_argument("--response-store", choices=STORE_WORDS, default="default", help=STORE_HELP)
    data = steps.add_parser(
        "data", help="the newest release on a poisoned store (make doctor-data)"
    )
    data.set_defaults(handler=_lazy(".lab.affected.command"))
    data.add_argument("--version", help="the release to compare (default: the newest)")
    data.add_argument("--envs", help="the sweep's environment folder (default: its cache)")
    data.add_argument("--folder", default=str(paths.DATA))

    serve = add(
        "serve", _lazy(".wire.server"), "serve the Responses API stand-in on a port, with a log"
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=PORT, default=8000, help="0 picks a free port")
    serve.add_argument(
        "--compact-rules",
        choices=COMPACT_RULES,
        default=COMPACT_RULES[0],
        help="faithful: /v1/responses/compact answers by the API's rules; lenient: anything goes",
    )
    return main


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except InvestigationError as error:
        print(f"error: {printable(str(error))}", file=sys.stderr)
        return 2
