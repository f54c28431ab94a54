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
from typing import Any

import pandas as pd

from ..errors import InvestigationError
from ..formats.files import write_atomic
from ..formats.markdown import GITHUB_LIMIT, fence, github_length, markdown_table, one_comment
from ..formats.records import read_records
from ..lab import paths
from ..lab.findings.fixes import checks, checks_frame, mutants, upstream
from ..lab.findings.searched import fix_words, searched_cases, searched_frame
from ..lab.findings.verdict import SUMMARY_ONLY, SUMMARY_ONLY_WHY
from ..lab.mutation import mutants_frame
from ..lab.releases.driven import SdkTestRecord, SweepRecord
from .files import FILES, data_file
from .finding import COLUMNS, cell, js_errors_frame, js_ranges_frame
from .front import js_usage
from .harness import WORKAROUND
from .packages import pinned
from .sdk_test import JS_REGRESSION_TEST
from .stall_finding import (
    StallFinding,
    load_stall,
    ranges_frame,
    stall_figure,
    summary_frame,
    turns_frame,
    vitest_frame,
)
from .sweep import PLANS, JsExposure

PYTHON_ISSUE = "https://github.com/openai/openai-agents-python/issues/5340"
SWEEP_LABELS = {plan.label for plan in PLANS}


def js_suite_frame(record: dict[str, Any]) -> pd.DataFrame:
    """The agents-openai suite of a snapshot on each package: counts, the touched module's own
    tests, and the tests whose outcome differs from the release's again when rerun."""
    rows = [
        {
            "package": run["package"],
            "tests": run["tests"],
            "passed": run["passed"],
            "failed": run["failed"],
            "the session's own tests passed": f"{run['session_passed']} of {run['session_tests']}",
            "outcomes that differ from the release (rerun)": (
                f"{run['differ_from_release']} ({run['differ_again']} again)"
            ),
        }
        for run in record["runs"]
    ]
    return pd.DataFrame(rows).set_index("package")


def _records(path: Path) -> list[SweepRecord]:
    return read_records(path, SweepRecord) if path.is_file() else []


def js_fix_frame(folder: Path = paths.DATA) -> pd.DataFrame:
    """Each compaction mode on the pinned release: bare, with the workaround, patched."""
    columns = {
        f"{pinned()}": _records(data_file("modes", folder)),
        "with js/workaround.mjs": _records(data_file("workaround", folder)),
        "patched (agents-openai-0.20.0.diff)": _records(data_file("patched", folder)),
    }
    rows = []
    for plan, label in COLUMNS.items():
        found = {
            name: next((r for r in records if _base(r) == plan), None)
            for name, records in columns.items()
        }
        rows.append({"mode": label, **{n: cell(r) if r else "" for n, r in found.items()}})
    return pd.DataFrame(rows).set_index("mode")


def _base(record: SweepRecord) -> str:
    return record.plan.removesuffix("-workaround")


def js_workaround_ranges(folder: Path = paths.DATA) -> pd.DataFrame | None:
    """The workaround's sweep: each run of releases that read the same."""
    rows = _records(data_file("workaround_sweep", folder))
    if not rows:
        return None
    return js_ranges_frame([SweepRecord(**{**r.__dict__, "plan": _base(r)}) for r in rows])


def workaround_parts(module: Path = WORKAROUND) -> list[str]:
    """The workaround as a user takes it: its two lines of use (as its header shows them), and
    a link to the module, which says in its header what it changes."""
    use, wrap = js_usage(module)
    where = module.relative_to(paths.ROOT).as_posix()
    return [
        f"Save [`{where}`](../{where}) (one module, no dependency; its header says what it "
        "changes) beside the code that builds the session, and wrap the session:",
        fence(f"{use}\n{wrap}", "js"),
    ]


FIX_TS = paths.ROOT / "js" / "fix" / "agents-openai-0.20.0.ts"
FIX_DIFF = paths.ROOT / "js" / "fix" / "agents-openai-0.20.0.diff"


def _shown(path: Path) -> str:
    """A file of this project as a link from a report in ``data/``."""
    where = path.relative_to(paths.ROOT).as_posix()
    return f"[`{where}`](../{where})"


def _exposure_parts(folder: Path) -> list[str]:
    """Who meets it with the SDK's defaults: the pause positions the default trigger breaks."""
    path = data_file("exposure", folder)
    if not path.is_file():
        return []
    rows = read_records(path, JsExposure)
    positions = sorted({r.position for r in rows})
    frame = pd.DataFrame(
        [
            {
                "mode": label,
                "pauses that break (plain turns before the pausing one)": ", ".join(
                    str(r.position)
                    for r in rows
                    if r.plan == f"{plan}-default-trigger" and r.violating
                )
                or "none",
            }
            for plan, label in COLUMNS.items()
        ]
    ).set_index("mode")
    return [
        "Who meets it with the defaults (no hook: the SDK's trigger compacts at 10 stored items "
        "that are neither user messages nor compaction items): a run whose pause falls on the "
        "turn that reaches the trigger. One case (run, approve, state through "
        f"`toString`/`fromString`) after {positions[0]} to {positions[-1]} plain turns:",
        markdown_table(frame),
        "On 0.19.0 and later only the first compaction can fall on a pause: the stall (below) "
        "stops every later one.",
    ]


def _where_tests_ran(folder: Path) -> str:
    """Where the regression tests ran, and why there (the words around the upstream record)."""
    found = upstream(data_file("upstream", folder))
    parts = (
        f"The tests ran in this project's `js/sdk-test` (vitest) against `@openai/agents` "
        f"{pinned()} as npm publishes it, `dist/` and source maps only, so their `../src` is the "
        "installed `@openai/agents-openai`; the patched packages are copies with the dist form "
        "of each fix applied."
    )
    if found is None:
        return parts
    snap = found["snapshot"]
    return (
        parts + f" The newest snapshot of openai-agents-js this project could read is "
        f"{snap['commit'][:12]} ({snap['date'][:10]}, `@openai/agents-openai` "
        f"{snap['agents_openai']}): it predates #1953 and holds none of the code these fixes "
        "change, so they could not be applied to its source; its own `packages/agents-openai` "
        "suite ran against the same packages instead (below)."
    )


def _upstream_suite(folder: Path) -> list[str]:
    found = upstream(data_file("upstream", folder))
    if found is None:
        return []
    snap = found["snapshot"]
    return [
        f"`packages/agents-openai/test` at {snap['commit'][:12]} on each package "
        "(`python -m approval_compaction js-upstream --checkout PATH`). The suite is "
        f"{snap['agents_openai']}'s and the package {pinned()}: the tests that fail, fail on the "
        "release as published too. A test whose outcome differs from the release's is run "
        "again on both, and counts only if it differs again:",
        markdown_table(js_suite_frame(found), cell=str),
    ]


def _checks(folder: Path, subjects: list[str]) -> list[str]:
    rows = checks(data_file("typecheck", folder))
    if not rows:
        return []
    tsconfig = _shown(paths.ROOT / "js" / "fix" / "typecheck" / "tsconfig.json")
    return [
        "Checked as the repository checks its code (`python -m approval_compaction "
        f"js-typecheck`): tsc with its compiler options ({tsconfig}: `lib` ES2018, `strict`, "
        "`noUnusedLocals`) against the release's declarations, its prettier settings and its "
        "eslint rules, the pieces compiled in place in a host that holds what they read:",
        markdown_table(checks_frame(rows, subjects), cell=str),
    ]


def _mutants(folder: Path, fix: str) -> list[str]:
    rows = mutants(data_file("mutants", folder), fix)
    if not rows:
        return []
    said = (
        "fails a regression test, or no test can tell it from the fix (the table says why)"
        if any(r.equivalent for r in rows)
        else "fails a regression test"
    )
    return [
        "Each plausible simplification of the fix (`python -m approval_compaction js-mutants`, "
        f"applied to the patched dist) {said}:",
        markdown_table(mutants_frame(rows).droplevel("fix"), cell=str),
    ]


def build_js_report(folder: Path = paths.DATA) -> str:
    modes = [r for r in _records(data_file("modes", folder)) if r.plan in SWEEP_LABELS]
    if not modes:
        raise InvestigationError("no data/js-modes.json: run `python -m approval_compaction data`")
    tests_path = data_file("sdk_test", folder)
    tests = read_records(tests_path, SdkTestRecord) if tests_path.is_file() else []
    sweep = _records(data_file("sweep", folder))
    errors = js_errors_frame(modes).set_index("error text")
    parts = [
        "### Describe the bug",
        "A run that pauses for a tool approval, with `OpenAIResponsesCompactionSession`, loses the "
        "pending call: automatic compaction runs at the pause and summarises the call away. After "
        "approve or reject and resume, the call's output is stored without its call, and the API "
        "refuses the conversation. What the user sees, by compaction mode (HTTP 400):",
        markdown_table(errors),
        *_exposure_parts(folder),
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
            "A workaround users can apply today, without a new release, on every release:",
            markdown_table(fixed),
            *workaround_parts(),
        ]
    if data_file("stall_sweep", folder).is_file():
        stall = FILES["stall_report"]
        parts.append(
            "A second bug, with or without an approval, is reported on its own: after its first "
            "compaction the session never compacts automatically again "
            f"([{stall}]({stall}), beside this report; "
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
            *fix_words(searched),
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
        "drops into `packages/agents-openai/test/`: the runner's own cases, a call of each kind "
        "the runner pairs with its result, waiting and then answered, and a compaction the "
        "application asks for, which runs on the release too (it keeps the fix to automatic "
        "compaction). " + _where_tests_ran(folder),
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
        "Automatic compaction waits while the history it reads holds a tool call without its "
        "result, as the Python SDK does since its fix; it runs again once the result is stored, "
        "and after every later turn its trigger asks for. A compaction the application asks for "
        "runs as asked.",
        *_fix_parts(folder),
    ]
    return one_comment(parts, "the JS report")


def _fix_parts(folder: Path) -> list[str]:
    """The fix in TypeScript, where it goes, how it was checked and what kills its mutants."""
    from .source import SESSION, permalink

    read = permalink(SESSION, "const history = await this.underlyingSession.getItems(modelExchange")
    return [
        "The fix in TypeScript: `runCompaction` skips, after it reads the history "
        f"([here]({read})), while the runner's own pairing finds a call there without its "
        "result. The runner pairs function, computer, shell, apply_patch and program calls, "
        "client tool searches and hosted MCP approval requests "
        "(`getUnresolvedToolResultCorrelationsForResponse`, `runner/toolResultCorrelation.ts`); "
        "agents-core exports it for agents-openai as it exports `getModelVisibleSessionItems`:",
        fence(FIX_TS.read_text(), "ts"),
        *_checks(folder, ["pending", "tests"]),
        *_mutants(folder, FIX_DIFF.name),
        *_upstream_suite(folder),
        f"The same fix against the published dist, which the tables above ran: {_shown(FIX_DIFF)}.",
    ]


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
BOTH_DIFF = paths.ROOT / "js" / "fix" / "agents-openai-0.20.0-both.diff"


def _stall_finding(folder: Path) -> StallFinding:
    found = load_stall(folder)
    if found is None:
        raise InvestigationError("no data/js-stall*.json: run `make js-stall`")
    return found


def stall_png(folder: Path = paths.DATA) -> bytes:
    """The stall's figure (stored items per turn, ``stall_finding.turns_frame``) as PNG."""
    from ..lab.releases.heatmap import png_bytes

    return png_bytes(stall_figure(turns_frame(_stall_finding(folder))))


def _fakes_frame(folder: Path) -> pd.DataFrame | None:
    from .fakes import SHAPES, FakeShape, tally

    path = data_file("stall_fakes", folder)
    if not path.is_file():
        return None
    counts = tally(read_records(path, FakeShape))
    rows = [
        {"tests": f"{repo}: {file}", **{s: counts[(repo, file)].get(s, 0) for s in SHAPES}}
        for repo, file in counts
    ]
    return pd.DataFrame(rows).set_index("tests")


def _fakes_provenance(folder: Path) -> str:
    """Where the SDK's tests were counted, and that the snapshot predates #1953."""
    found = upstream(data_file("upstream", folder))
    if found is None:
        return ""
    snap = found["snapshot"]
    return (
        f" (the SDK's at {snap['commit'][:12]}, {snap['date'][:10]}, `@openai/agents-openai` "
        f"{snap['agents_openai']}: the newest snapshot of the repository this project could "
        "read, which predates #1953, so the tests #1953 added are not among them)"
    )


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
        f"is reached). The same numbers are the figure `{FILES['stall_figure']}`, "
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
    from ..wire.rules import COMPACTED_OUTPUT_DOC, COMPACTION_OUTPUT, KEEPS_USERS, SUMMARY_ONLY

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
            "below, by shape" + _fakes_provenance(folder) + ":",
            markdown_table(fakes),
        ]
    return parts


def _stall_cause(found: StallFinding) -> list[str]:
    """The cause, each step linked at the release's line, and the change that brought it."""
    from .source import PERSISTENCE, SESSION, permalink

    edge = found.boundary
    trim = permalink(PERSISTENCE, "const history = trimToLatestCompaction(storedItems);")
    read = permalink(SESSION, "const history = await this.underlyingSession.getItems(modelExchange")
    check = permalink(SESSION, "if (!automaticInput || automaticInput.length === 0)")
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


def _stall_repro(found: StallFinding, folder: Path) -> list[str]:
    """The debug information, the steps, and the regression tests with their results."""
    from .sdk_test import JS_FILTERED_TEST, JS_STALL_TEST

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
        "protects: stored history a `callModelInputFilter` left out is not compacted, before "
        "a compaction and after one (a turn after the compaction item, a user message, the "
        "compaction item itself), and a third that a backend answering a read without a limit "
        "with a window loses no question to the compaction. " + _where_tests_ran(folder),
        markdown_table(vitest_frame(found), cell=str),
        f"<details><summary>{JS_STALL_TEST.name}</summary>\n\n"
        f"{fence(JS_STALL_TEST.read_text(), 'ts')}\n\n</details>",
        f"<details><summary>{JS_FILTERED_TEST.name}: the guard</summary>\n\n"
        f"{fence(JS_FILTERED_TEST.read_text(), 'ts')}\n\n</details>",
    ]


def _stall_fix(found: StallFinding, folder: Path) -> list[str]:
    """What is expected, and the fix: in the TypeScript source's terms, why its read is safe,
    how it was checked, what kills its mutants; the dist form linked."""
    from .source import SESSION, permalink

    check = permalink(SESSION, "automaticInput = getModelVisibleSessionItems")
    cache = permalink(SESSION, "this.sessionItems = history;")
    turn = permalink(SESSION, "const items = await this.underlyingSession.getItems();")
    rollback = permalink(SESSION, "previousItems = await this.getAllUnderlyingSessionItems();")
    return [
        "### Expected behavior",
        "Automatic compaction runs after every turn its trigger asks for, as it did before "
        f"{found.boundary.first_bad}, while history an application filtered out of the model "
        "input is still kept, as #1953 intends. The user messages stored before the latest "
        "compaction item are what that item stands for: the runner itself leaves them out of "
        "the model input. A fix that counts them as covered, and sends them to the compaction "
        "with the rest, does both (the tables above, patched).",
        f"In TypeScript: the check of the history read ([here]({check})) and the two lines "
        f"that cache it ([here]({cache})) take a new private method:",
        fence(STALL_TS.read_text(), "ts"),
        "What it reads. The first read keeps its explicit finite limit (the exchange's length "
        "plus one). Only when that read is not covered does the method read on, with explicit "
        "finite limits doubled until the backend returns fewer items than asked, so a "
        "backend's default window is never taken for the whole history, the reason the SDK "
        "gives for its limit (a test pins it with a backend whose unlimited read is a window). "
        "It reads no more than the turn already reads: the runner reads the whole stored "
        f"history when the turn starts ([here]({turn})), and the session reads it again after "
        f"each compaction request for its rollback ([here]({rollback})). And while compaction "
        "keeps running the history stays bounded: the user messages, one compaction item, "
        "and fewer than the trigger's threshold of other items.",
        *_checks(folder, ["stall", "both", "tests"]),
        *_mutants(folder, STALL_DIFF.name),
        *_upstream_suite(folder),
        "The same fix against the published dist, which the tables above ran: "
        f"{_shown(STALL_DIFF)} (with the pending call's: {_shown(BOTH_DIFF)}).",
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
        *_stall_repro(found, folder),
        *_stall_fix(found, folder),
    ]
    return one_comment(parts, "the JS stall report")
