"""Report (JS): the comment for openai-agents-js, in its issue form (describe the bug, debug
information, repro steps, expected behaviour), every table computed from ``data/``.

It reads the pinned release's files (``js-matrix``, ``js-modes``), the workaround's, the
patched package's and the regression test's (``js-fix``), and the sweeps and the liveness
situations when they are there (``js-sweep``, ``js-workaround-sweep``, ``js-liveness``). The
words around the tables are written here, by hand,
and state no figure of their own.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from ...errors import InvestigationError
from ...formats.files import write_atomic
from ...formats.markdown import GITHUB_LIMIT, fence, github_length, markdown_table
from ...formats.records import read_records
from .. import paths
from ..findings.js import (
    COLUMNS,
    cell,
    js_errors_frame,
    js_liveness_frame,
    js_ranges_frame,
    load_js_liveness,
)
from ..js.packages import pinned
from ..js.sdk_test import JS_REGRESSION_TEST
from ..js.sweep import PLANS, JsRecord
from .js import SdkTestRecord
from .readme import js_usage

PYTHON_ISSUE = "https://github.com/openai/openai-agents-python/issues/5340"
SWEEP_LABELS = {plan.label for plan in PLANS}


def _records(path: Path) -> list[JsRecord]:
    return read_records(path, JsRecord) if path.is_file() else []


def js_fix_frame(folder: Path = paths.DATA) -> pd.DataFrame:
    """Each compaction mode on the pinned release: bare, with the workaround, patched."""
    files = paths.data(folder)
    columns = {
        f"{pinned()}": _records(files.js_modes),
        "with js/workaround.mjs": _records(files.js_workaround),
        "patched (the diff below)": _records(files.js_patched),
    }
    rows = []
    for plan, label in COLUMNS.items():
        found = {
            name: next((r for r in records if _base(r) == plan), None)
            for name, records in columns.items()
        }
        rows.append({"mode": label, **{n: cell(r) if r else "" for n, r in found.items()}})
    return pd.DataFrame(rows).set_index("mode")


def _base(record: JsRecord) -> str:
    return record.plan.removesuffix("-workaround")


def js_workaround_ranges(folder: Path = paths.DATA) -> pd.DataFrame | None:
    """The workaround's sweep: each run of releases that read the same."""
    rows = _records(paths.data(folder).js_workaround_sweep)
    if not rows:
        return None
    return js_ranges_frame([JsRecord(**{**r.__dict__, "plan": _base(r)}) for r in rows])


def workaround_parts(module: Path = paths.JS_WORKAROUND) -> list[str]:
    """The workaround as a user takes it: its two lines of use (as its header shows them), and
    the module itself, folded."""
    use, wrap = js_usage(module)
    return [
        f"Save the module below as `{module.name}` beside the code that builds the session, "
        "and wrap the session:",
        fence(f"{use}\n{wrap}", "js"),
        f"<details><summary>{module.name}</summary>\n\n{fence(module.read_text(), 'js')}\n\n"
        "</details>",
    ]


def build_js_report(folder: Path = paths.DATA) -> str:
    files = paths.data(folder)
    modes = [r for r in _records(files.js_modes) if r.plan in SWEEP_LABELS]
    if not modes:
        raise InvestigationError("no data/js-modes.json: run `python -m approval_compaction data`")
    tests_path = files.js_sdk_test
    tests = read_records(tests_path, SdkTestRecord) if tests_path.is_file() else []
    sweep = _records(files.js_sweep)
    errors = js_errors_frame(modes).set_index("error text")
    parts = [
        "### Describe the bug",
        "A run that pauses for a tool approval, with `OpenAIResponsesCompactionSession`, loses the "
        "pending call: automatic compaction runs at the pause and summarises the call away. After "
        "approve or reject and resume, the call's output is stored without its call, and the API "
        "refuses the conversation. What the user sees, by compaction mode (HTTP 400):",
        markdown_table(errors),
        "It is the twin of the Python SDK's bug, reported and fixed there: " + PYTHON_ISSUE + ".",
        "The sixteen cases (`run` or streamed, approve or reject, the hook saying yes or no, the "
        "paused state in memory or through `toString`/`fromString`) in each mode, judged by the "
        "invariants the Python study uses (every output follows its call, in what is stored, "
        "sent to the model and sent to the compaction endpoint):",
        markdown_table(js_fix_frame(folder)),
    ]
    if sweep:
        parts += [
            "Every release with the session, in the same four modes:",
            markdown_table(js_ranges_frame(sweep)),
        ]
    fixed = js_workaround_ranges(folder)
    if fixed is not None:
        parts += [
            "A workaround users can apply today, without a new release (`workaround.mjs`, "
            "below), on every release:",
            markdown_table(fixed),
            *workaround_parts(),
        ]
    liveness = load_js_liveness(folder)
    if liveness:
        parts += [
            "A second finding, without any approval: after its first compaction the session never "
            "compacts automatically again. The runner sends the model the history from the "
            "compaction item on (`trimToLatestCompaction`), and `runCompaction` reads one stored "
            "item more than the model exchange, so the user messages kept before the compaction "
            "item are never covered. Each situation below in every compaction mode, followed by "
            "plain questions with the hook saying yes:",
            markdown_table(js_liveness_frame(liveness)),
        ]
    parts += [
        "### Debug information",
        f"- Agents SDK version: `@openai/agents` {pinned()} (and the releases above)\n"
        "- Runtime environment: Node.js, the `openai` client over HTTP to a local stand-in "
        "that checks each request by the Responses API's rules",
        "### Repro steps",
        "1. Give an agent a tool with `needsApproval: true` and run it with "
        "`new OpenAIResponsesCompactionSession({ underlyingSession, shouldTriggerCompaction: "
        "() => true })`.\n"
        "2. The run pauses for approval; the session compacts the history, call included.\n"
        "3. Approve (or reject) the interruption and resume with `run(agent, result.state, "
        "{ session })`, then ask the next question.",
        "The regression test below (vitest, no network: a fake client with `responses.compact`) "
        "drops into `packages/agents-openai/test/`.",
    ]
    if tests:
        parts.append(
            markdown_table(pd.DataFrame([t.__dict__ for t in tests]).set_index("package"), cell=str)
        )
    test_text = JS_REGRESSION_TEST.read_text()
    parts += [
        f"<details><summary>{JS_REGRESSION_TEST.name}</summary>\n\n{fence(test_text, 'ts')}\n\n"
        "</details>",
        "### Expected behavior",
        "Automatic compaction waits while the latest model exchange holds a tool call (or a "
        "hosted MCP approval request) without its output, as the Python SDK does since its fix; "
        "it runs again once the output is stored, and after every later turn the hook asks it "
        "to. A compaction the application asks for runs as asked.",
        "<details><summary>A minimal fix, against the published dist</summary>\n\n"
        + fence((paths.ROOT / "js" / "fix" / "agents-openai-0.20.0.diff").read_text(), "diff")
        + "\n\n</details>",
    ]
    text = "\n\n".join(parts) + "\n"
    if github_length(text) > GITHUB_LIMIT:
        raise InvestigationError(
            f"the JS report is {github_length(text)} characters: over one comment"
        )
    return text


def report_js_command(args: argparse.Namespace) -> int:
    """``report-js``: the comment for openai-agents-js, to ``--output`` or stdout."""
    text = build_js_report(Path(args.folder))
    if args.output:
        write_atomic(Path(args.output), text)
        print(f"wrote {args.output} ({github_length(text)} of {GITHUB_LIMIT} characters)")
    else:
        print(text, end="")
    return 0
