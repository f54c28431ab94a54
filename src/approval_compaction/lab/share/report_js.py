"""Report (JS): the comment for openai-agents-js, in its issue form (describe the bug, debug
information, repro steps, expected behaviour), every table computed from ``data/``.

It reads the pinned release's files (``js-matrix``, ``js-modes``), the workaround's, the
patched package's and the regression test's (``js-fix``), and the sweeps when they are there
(``js-sweep``, ``js-workaround-sweep``). The stall (compaction stops after its first run) has a
report of its own, built here too (``build_js_stall_report``, ``report-js --stall``), from the
stall's files (``js-stall*``), with its figure; the pending call's report links it. The words
around the tables are written here, by hand, and state no figure of their own.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from ...errors import InvestigationError
from ...formats.files import write_atomic
from ...formats.markdown import GITHUB_LIMIT, fence, github_length, markdown_table, one_comment
from ...formats.records import read_records
from .. import paths
from ..findings.js import COLUMNS, cell, js_errors_frame, js_ranges_frame
from ..findings.searched import searched_cases, searched_frame
from ..findings.stall import (
    StallFinding,
    load_stall,
    ranges_frame,
    stall_figure,
    summary_frame,
    turns_frame,
    vitest_frame,
)
from ..findings.verdict import SUMMARY_ONLY, SUMMARY_ONLY_WHY
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
        "patched (agents-openai-0.20.0.diff)": _records(files.js_patched),
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
    if files.js_stall_sweep.is_file():
        parts.append(
            "A second bug, with or without an approval, is reported on its own: after its first "
            "compaction the session never compacts automatically again "
            f"([{files.js_stall_report.name}]({files.js_stall_report.name}), beside this report; "
            "`python -m approval_compaction share --js stall`)."
        )
    searched = searched_cases("js", folder)
    if searched:
        parts += [
            "A state-space search over the SDK's own moves (modes, runners, the compaction "
            "answer's shapes, approvals answered late, abandoned or lost, `make explore-drivers`) "
            "shrinks each violation it finds to a minimal sequence that replays "
            "(`python -m approval_compaction explore replay FILE`); each with the hand-picked case "
            "or situation it reduces to, or none:",
            markdown_table(searched_frame(searched)),
        ]
        if any(c.label == "new" and SUMMARY_ONLY in c.settings for c in searched):
            parts.append(
                f"A new one that needs `shape {SUMMARY_ONLY}` rests on {SUMMARY_ONLY_WHY}: it is "
                "shown, not counted as a failure."
            )
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
    return one_comment(parts, "the JS report")


def report_js_command(args: argparse.Namespace) -> int:
    """``report-js``: the comment for openai-agents-js, to ``--output`` or stdout; with
    ``--stall``, the stall's (its figure written beside ``--output``)."""
    folder = Path(args.folder)
    stall = getattr(args, "stall", False)
    text = build_js_stall_report(folder) if stall else build_js_report(folder)
    if args.output:
        write_atomic(Path(args.output), text)
        print(f"wrote {args.output} ({github_length(text)} of {GITHUB_LIMIT} characters)")
        if stall:
            figure = Path(args.output).with_suffix(".png")
            write_atomic(figure, stall_png(folder))
            print(f"wrote {figure}")
    else:
        print(text, end="")
    return 0


# The introducing change, from the public record (openai/openai-agents-js#1953, merged between
# the last release that keeps compacting and the first that stalls), and what it protects, in
# its description's words.
INTRODUCING_PR = "https://github.com/openai/openai-agents-js/pull/1953"
INTRODUCING_SAYS = (
    "This pull request fixes automatic Responses compaction reloading and replacing stored "
    "history that `sessionInputCallback` or `callModelInputFilter` excluded from the model "
    "request. The runner captures the latest successful filtered input and response, and "
    "automatic compaction proceeds only when that exchange covers every stored item in order, "
    "including repeated occurrences."
)
STALL_TS = paths.ROOT / "js" / "fix" / "agents-openai-0.20.0-stall.ts"
STALL_DIFF = paths.ROOT / "js" / "fix" / "agents-openai-0.20.0-stall.diff"


def _stall_finding(folder: Path) -> StallFinding:
    found = load_stall(folder)
    if found is None:
        raise InvestigationError("no data/js-stall*.json: run `make js-stall`")
    return found


def stall_png(folder: Path = paths.DATA) -> bytes:
    """The stall's figure (stored items per turn, ``findings.stall.turns_frame``) as PNG."""
    from ..releases.heatmap import png_bytes

    return png_bytes(stall_figure(turns_frame(_stall_finding(folder))))


def _fakes_frame(folder: Path) -> pd.DataFrame | None:
    from ..js.fakes import SHAPES, FakeShape, tally

    path = paths.data(folder).js_stall_fakes
    if not path.is_file():
        return None
    counts = tally(read_records(path, FakeShape))
    rows = [
        {"tests": f"{repo}: {file}", **{s: counts[(repo, file)].get(s, 0) for s in SHAPES}}
        for repo, file in counts
    ]
    return pd.DataFrame(rows).set_index("tests")


def _stall_symptom(found: StallFinding) -> list[str]:
    """The numbers first: each package, then the figure's numbers, then every release."""
    edge = found.boundary
    return [
        "### Describe the bug",
        "In a plain conversation, with no tool and no approval, `OpenAIResponsesCompactionSession` "
        "compacts once and then never again by itself: the stored history and every model input "
        f"grow with each turn. It starts with `@openai/agents` {edge.first_bad} ({edge.span}); "
        f"{edge.last_good} and the releases before it keep compacting. Each package below answers "
        "the same plain questions with `compactionMode: 'input'` and `run()`, the compaction "
        "endpoint answering as the API documents it (below):",
        markdown_table(summary_frame(found)),
        "Stored items after each turn under the SDK's default trigger (it asks for a compaction "
        "once its threshold of stored items that are neither user messages nor compaction items "
        f"is reached). The same numbers are the figure `{paths.DATA_FILES.js_stall_figure.name}`, "
        "written beside this report; it shows here only when attached to the comment.",
        "<details><summary>Stored items per turn (the figure's numbers)</summary>\n\n"
        + markdown_table(turns_frame(found))
        + "\n\n</details>",
        "Every release with the session, in both compaction modes and with `run()` and the "
        "streamed runner (a cell reads alike for all four, or names each mode):",
        markdown_table(ranges_frame(found.sweep)),
    ]


def _stall_shape(folder: Path) -> list[str]:
    """What ``responses.compact`` answers, with its source, and what the tests' fakes answer."""
    from ...wire.rules import COMPACTED_OUTPUT_DOC, COMPACTION_OUTPUT, KEEPS_USERS, SUMMARY_ONLY

    parts = [
        "#### It depends on what `responses.compact` answers",
        "The API's answer holds the user messages, then the compaction item: the `openai` "
        f'client\'s `CompactedResponse.output` reads "{COMPACTED_OUTPUT_DOC}" '
        f"([openai-node]({COMPACTION_OUTPUT.sources[0].url}), "
        f"[openai-python]({COMPACTION_OUTPUT.sources[1].url})), and #760 shows a real answer of "
        f"that shape. The columns `{KEEPS_USERS}` above answer so; `{SUMMARY_ONLY}` answers with "
        "the compaction item alone, and with it every release keeps compacting. A test whose "
        "fake answers with the item alone will not reproduce this.",
    ]
    fakes = _fakes_frame(folder)
    if fakes is not None:
        parts += [
            "The fake `responses.compact` answers in the SDK's own tests, and in the tests "
            "below, by shape:",
            markdown_table(fakes),
        ]
    return parts


def _stall_cause(found: StallFinding) -> list[str]:
    """The cause, each step linked at the release's line, and the change that brought it."""
    from ..js.source import PERSISTENCE, SESSION, permalink

    edge = found.boundary
    trim = permalink(PERSISTENCE, "const history = trimToLatestCompaction(storedItems);")
    read = permalink(SESSION, "const history = await this.underlyingSession.getItems(modelExchange")
    check = permalink(SESSION, "automaticInput = getModelVisibleSessionItems")
    cover = permalink(
        "agents-core/dist/runner/sessionItems.mjs", "export function getModelVisibleSessionItems"
    )
    return [
        "#### Cause",
        "After a compaction the store holds the user messages, then the compaction item. The "
        f"runner sends the model the history from the latest compaction item on "
        f"([`trimToLatestCompaction`]({trim})). After the turn, `runCompaction` reads "
        f"one stored item more than the model exchange ([`getItems(modelExchange.items.length + "
        f"1)`]({read})): the last user message kept before the compaction item. "
        f"[`getModelVisibleSessionItems`]({cover}) requires every stored item it reads "
        "to be in the exchange, in order, so it finds that message uncovered and "
        f"[`runCompaction` skips]({check}) (`skip: stored history is not covered by the "
        "successful model exchange`), at every later turn.",
        f"The check came with {INTRODUCING_PR}, merged between {edge.last_good} and "
        f"{edge.first_bad}, which says what it protects:",
        "> " + INTRODUCING_SAYS,
    ]


def _stall_repro(found: StallFinding) -> list[str]:
    """The debug information, the steps, and the regression tests with their results."""
    from ..js.sdk_test import JS_STALL_TEST

    return [
        "### Debug information",
        f"- Agents SDK version: `@openai/agents` {found.boundary.span} (the sweep above)\n"
        "- Runtime environment: Node.js, the `openai` client over HTTP to a local stand-in that "
        "checks each request by the Responses API's rules and answers `responses.compact` as "
        "documented",
        "### Repro steps",
        "1. `new OpenAIResponsesCompactionSession({ underlyingSession: new MemorySession(), "
        "compactionMode: 'input' })` with any agent that answers in text.\n"
        "2. Ask a question per turn with `run(agent, question, { session })`, until the default "
        "trigger has asked for a second compaction.\n"
        "3. Read `session.getItems()` after each turn: after the first compaction it only grows.",
        "The regression test below drops into `packages/agents-openai/test/` (vitest, no network, "
        "a fake client answering as documented). With it, a second test keeps what #1953 "
        "protects: stored history a `callModelInputFilter` left out is not compacted.",
        markdown_table(vitest_frame(found), cell=str),
        f"<details><summary>{JS_STALL_TEST.name}</summary>\n\n"
        f"{fence(JS_STALL_TEST.read_text(), 'ts')}\n\n</details>",
    ]


def _stall_fix(found: StallFinding) -> list[str]:
    """What is expected, and the fix: in the TypeScript source's terms, and against the dist."""
    from ..js.source import SESSION, permalink

    check = permalink(SESSION, "automaticInput = getModelVisibleSessionItems")
    cache = permalink(SESSION, "this.sessionItems = history;")
    return [
        "### Expected behavior",
        "Automatic compaction runs after every turn its trigger asks for, as it did before "
        f"{found.boundary.first_bad}, while history an application filtered out of the model "
        "input is still kept, as #1953 intends. The user messages stored before the latest "
        "compaction item are what that item stands for: the runner itself leaves them out of "
        "the model input. A fix that counts them as covered, and sends them to the compaction "
        "with the rest, does both (the tables above, patched):",
        f"In TypeScript, `runCompaction` ([line]({check})) and the two lines that "
        f"cache the history ([from here]({cache})) take a new private method:",
        fence(STALL_TS.read_text(), "ts"),
        "<details><summary>The same fix against the published dist</summary>\n\n"
        + fence(STALL_DIFF.read_text(), "diff")
        + "\n\n</details>",
    ]


def build_js_stall_report(folder: Path = paths.DATA) -> str:
    """The stall's report for openai-agents-js, in its issue form, from the stall's files: the
    symptom in numbers, the answer's shape and its source, the cause, the repro and the tests,
    the fix."""
    found = _stall_finding(folder)
    parts = [
        *_stall_symptom(found),
        *_stall_shape(folder),
        *_stall_cause(found),
        *_stall_repro(found),
        *_stall_fix(found),
    ]
    return one_comment(parts, "the JS stall report")
