"""Arguments: the JavaScript SDK's commands as the command line declares them, loading nothing
heavy (each is run by ``js.commands`` or ``js.report``, imported when it runs): its matrix, the
regression test and the report, the fix's evidence, and the sweeps over every release."""

from __future__ import annotations

from ..formats.arguments import (
    STORE_HELP,
    AddCommand,
    Lazy,
    matrix_options,
    report_options,
    sweep_options,
)
from ..lab import paths
from ..study.words import MODES, STORE_WORDS, STUDY_MODE

HERE = ".js.commands"
JS_WORKAROUND_HELP = "the session wrapped by js/workaround.mjs (the JS workaround)"
JS_PATCH_HELP = (
    "a diff of @openai/agents-openai's dist/ (js/fix/), applied to a copy of the pinned one"
)


def register(add: AddCommand, lazy: Lazy) -> None:
    """The JavaScript SDK's study: its matrix, regression test, report, fix and sweep."""
    _js_matrix(add, lazy)
    _js_test_and_report(add, lazy)
    _js_fix(add, lazy)
    _js_sweeps(add, lazy)


def _js_matrix(add: AddCommand, lazy: Lazy) -> None:
    """``js-matrix``: the 16 cases on one JS release, in one plan."""
    js = add(
        "js-matrix",
        lazy(HERE, "matrix_command"),
        "run the 16 cases on @openai/agents (the JS SDK) over HTTP to the stand-in",
    )
    matrix_options(js)
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


def _js_test_and_report(add: AddCommand, lazy: Lazy) -> None:
    """``js-sdk-test`` and ``report-js``: the regression test, and the report built from data/."""
    js_test = add(
        "js-sdk-test",
        lazy(HERE, "sdk_test_command"),
        "a regression test for openai-agents-js (vitest, js/sdk-test) on the pinned package",
    )
    js_test.add_argument("--patch", help=JS_PATCH_HELP)
    js_test.add_argument(
        "--test",
        choices=("pending", "stall", "filtered", "windowed"),
        default="pending",
        help="the pending call's test, the stall's, the guard the stall's fix keeps, or the "
        "windowed backend its read copes with",
    )
    js_test.add_argument(
        "--expect",
        choices=("pass", "fail"),
        default="pass",
        help="the outcome that exits 0: every test passing, or some failing (the bug shown)",
    )
    report_js = add(
        "report-js",
        lazy(".js.report", "report_js_command"),
        "the paste-ready report for openai-agents-js (data/report-js.md), from data/",
    )
    report_options(report_js, str(paths.DATA))
    report_js.add_argument(
        "--stall",
        action="store_true",
        help="the stall's report instead (data/report-js-stall.md; its figure beside --output)",
    )


def _js_fix(add: AddCommand, lazy: Lazy) -> None:
    """The JS fixes' evidence: the fix's runs, the repository's tools and suite, the mutants,
    and the liveness situations."""
    add(
        "js-fix",
        lazy(HERE, "fix_command"),
        "the JS workaround, the patched package and the regression test on the pinned release",
    ).add_argument("--folder", default=str(paths.DATA))
    add(
        "js-typecheck",
        lazy(HERE, "typecheck_command"),
        "the TypeScript forms of the JS fixes and the regression tests, checked with "
        "openai-agents-js's tsc, prettier and eslint settings (data/js-typecheck.json)",
    ).add_argument("--folder", default=str(paths.DATA))
    add(
        "js-mutants",
        lazy(HERE, "mutants_command"),
        "each plausible simplification of the JS fixes against every regression test "
        "(data/js-mutants.json)",
    ).add_argument("--folder", default=str(paths.DATA))
    js_upstream = add(
        "js-upstream",
        lazy(HERE, "upstream_command"),
        "record a snapshot of openai-agents-js: what it holds, and its agents-openai suite on "
        "the release and each patched package (data/js-upstream.json; needs the checkout)",
    )
    js_upstream.add_argument(
        "--checkout", required=True, help="a git checkout (or mirror) of openai-agents-js"
    )
    js_upstream.add_argument("--ref", default="HEAD", help="the commit to read (default: HEAD)")
    js_upstream.add_argument("--folder", default=str(paths.DATA))
    add(
        "js-liveness",
        lazy(HERE, "liveness_command"),
        "the liveness situations on the pinned JS release: bare, with the workaround, patched",
    ).add_argument("--folder", default=str(paths.DATA))


def _js_sweeps(add: AddCommand, lazy: Lazy) -> None:
    """``js-stall`` and ``js-sweep``: the slow runs over every JS release."""
    js_stall = add(
        "js-stall",
        lazy(HERE, "stall_command"),
        "a plain conversation on every @openai/agents release, judged for the stall, with the "
        "pinned release's workaround and patches and the Python row (data/js-stall*.json, slow)",
    )
    js_stall.add_argument("--release", action="append", help="only this release (repeatable)")
    js_stall.add_argument("--no-sweep", action="store_true", help="keep the committed sweep")
    js_stall.add_argument(
        "--checkout", help="a git checkout of openai-agents-js: record its tests' compact fakes"
    )
    js_stall.add_argument("--folder", default=str(paths.DATA))
    js_sweep = add(
        "js-sweep",
        lazy(HERE, "sweep_command"),
        "every @openai/agents release with the compaction session into data/js-sweep.json (slow)",
    )
    sweep_options(js_sweep, "npm's registry")
    js_sweep.add_argument(
        "--workaround",
        action="store_true",
        help=f"{JS_WORKAROUND_HELP}, into data/js-workaround-sweep.json",
    )
