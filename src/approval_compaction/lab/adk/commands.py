"""The ADK study's commands, declared (each runs a module of ``lab.share.adk`` or
``lab.share.report_adk``, imported when it runs): declaring them loads nothing heavy."""

from __future__ import annotations

from ...formats.arguments import CASE_HELP, FORMATS, AddCommand, Lazy
from ...study.words import ADK_KINDS
from .. import paths


def register(add: AddCommand, lazy: Lazy) -> None:
    """Declare ``adk-matrix``, ``adk-data``, ``adk-sweep``, ``adk-fix`` and ``report-adk``."""
    matrix = add(
        "adk-matrix",
        lazy(".lab.share.adk", "matrix_command"),
        "run the 16 cases on google-adk (its own environment, a scripted model)",
    )
    matrix.add_argument("--format", choices=FORMATS, default="table")
    matrix.add_argument("--case", help=CASE_HELP)
    matrix.add_argument("--output", help="write to this file instead of stdout")
    matrix.add_argument(
        "--kind",
        choices=ADK_KINDS,
        default=ADK_KINDS[0],
        help="EventsCompactionConfig: window-N (one invocation, overlap N) or tokens-N "
        "(threshold 1, N raw events kept)",
    )
    matrix.add_argument("--release", help="a google-adk release (default: the pinned one)")
    matrix.add_argument(
        "--model",
        choices=("scripted", "responses"),
        default="scripted",
        help="the driver's scripted BaseLlm, or ADK's OpenAIResponsesLlm on the stand-in "
        "over HTTP (from 2.4.0)",
    )
    add(
        "adk-data",
        lazy(".lab.share.adk", "data_command"),
        "the pinned google-adk release: its matrix, every kind, the liveness situations "
        "(scripted, and over HTTP)",
    ).add_argument("--folder", default=str(paths.DATA))
    add(
        "adk-fix",
        lazy(".lab.share.adk", "fix_command"),
        "the patched google-adk (adk/fix) in every kind, the adk-python regression test, the "
        "fix's lint and mutants, and the late answers split by what it changes",
    ).add_argument("--folder", default=str(paths.DATA))
    upstream = add(
        "adk-upstream",
        lazy(".lab.share.adk", "upstream_command"),
        "adk-python's own tests of the touched module on the pinned release and patched "
        "(data/adk-upstream.json; needs the tests saved from the repository)",
    )
    upstream.add_argument(
        "--tests", required=True, help="a folder holding adk-python's tests/unittests/..."
    )
    upstream.add_argument(
        "--source", required=True, help="where the tests came from (repository, commit, path)"
    )
    upstream.add_argument("--folder", default=str(paths.DATA))
    report = add(
        "report-adk",
        lazy(".lab.share.report_adk", "report_adk_command"),
        "the issue for adk-python (data/report-adk.md), from data/",
    )
    report.add_argument("--output", help="write here instead of stdout")
    report.add_argument("--folder", default=str(paths.DATA))
    sweep = add(
        "adk-sweep",
        lazy(".lab.share.adk", "sweep_command"),
        "every google-adk release with confirmation and compaction into data/adk-sweep.json",
    )
    sweep.add_argument("--release", action="append", help="only this release (repeatable)")
    sweep.add_argument(
        "--dates", action="store_true", help="ask the package index for the release dates first"
    )
    sweep.add_argument("--folder", default=str(paths.DATA), help="where adk-sweep.json goes")
    sweep.add_argument(
        "--model",
        choices=("scripted", "responses"),
        default="scripted",
        help="responses: each release from 2.4.0 with OpenAIResponsesLlm over HTTP, the cases "
        "only (data/adk-sweep-responses.json)",
    )
