"""Report (ADK): the issue for adk-python, in its bug-report form (describe the bug, steps to
reproduce, expected behaviour, desktop and model information, how the agent is set up),
every table computed from ``data/``.

It reads the pinned release's kinds and liveness situations (``adk-data``), the patched
package's kinds and the regression test on both (``adk-fix``), and the sweep when it is there
(``adk-sweep``). The words around the tables are written here, by hand, and state no figure
of their own.
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
from ..adk.packages import pinned
from ..adk.patched import BOTH_FIXES, FIX, LONG_RUNNING_FIX
from ..adk.sdk_test import ADK_REGRESSION_TEST, LONG_RUNNING_TEST
from ..findings.adk import (
    COLUMNS,
    TRIGGERS,
    adk_changes_frame,
    adk_liveness_frame,
    adk_verdict_frame,
    load_adk,
)
from ..findings.searched import load_searches, searched_cases, searched_frame
from ..js.sweep import JsRecord
from .js import SdkTestRecord

ISSUES = "https://github.com/google/adk-python/issues"
EXTENDS = (
    f"{ISSUES}/7236",
    "https://github.com/google/adk-python/pull/7237",
    f"{ISSUES}/4740",
    f"{ISSUES}/5602",
)


def late_frame(folder: Path = paths.DATA) -> pd.DataFrame:
    """The late answers on the pinned release and patched: per situation and kind, what the
    summariser was given without its call."""
    found = load_adk(folder)
    rows = [] if found is None else list(found.liveness)
    late = [r for r in rows if r.invariant == "compaction_runs" and r.resume_paired is not None]
    table = [
        {
            "package": r.sdk_version,
            "situation": r.scenario,
            "kind": COLUMNS.get(r.mode, r.mode),
            "given to the summariser or stored without its call": r.resume_unpaired or "nothing",
        }
        for r in late
    ]
    return pd.DataFrame(table).set_index(["package", "situation", "kind"])


def build_adk_report(folder: Path = paths.DATA) -> str:
    files = paths.data(folder)
    found = load_adk(folder)
    if found is None or not found.liveness:
        raise InvestigationError(
            "no data/adk-kinds.json: run `python -m approval_compaction adk-data`"
        )
    tests_path = files.adk_sdk_test
    tests = read_records(tests_path, SdkTestRecord) if tests_path.is_file() else []
    patched = read_records(files.adk_patched, JsRecord) if files.adk_patched.is_file() else []
    parts = [
        "**Describe the bug**",
        "A tool call answered late, after later turns, reaches the events summarizer without "
        "its function call. A confirmation (`FunctionTool(require_confirmation=True)`) that the "
        "user answers after asking other questions, or a `LongRunningFunctionTool` whose result "
        "arrives then, follows a call that an earlier compaction already summarized: the "
        "dead-call pass of `_longest_self_contained_prefix` (#7236, #7237) lets the window pass "
        "the waiting call once a newer invocation exists. Prompt assembly restores the call "
        "(`_recover_compacted_function_calls`), so the model is sent a paired history; the "
        "summarizer is not: the window it is given holds the `function_response` alone. ADK's "
        "own `LlmEventSummarizer` renders it as text; a summarizer that hands events to a "
        "model as function calls and responses sends an output without its call. With a token "
        "threshold that keeps raw events, the session also reads the late answer back after "
        "the summary that covers its call.",
        "Each situation on the pinned release and patched, ten later turns each:",
        markdown_table(late_frame(folder)),
        "The patched rows still send the waiting call itself: it is summarized as dead while "
        "it waits, the trade #7237 makes so that an abandoned call cannot stop compaction for "
        "good; the fix below is only about the late answer. It extends " + ", ".join(EXTENDS) + ".",
        "**To Reproduce**",
        "1. An `App` with `EventsCompactionConfig` (a sliding window of one invocation, or a "
        "token threshold), an agent with a tool that requires confirmation.\n"
        "2. Ask for the tool: the run pauses on `adk_request_confirmation`.\n"
        "3. Ask three other questions; the session compacts after each.\n"
        "4. Answer the confirmation, then ask one more question.\n"
        "5. The summarizer's last windows hold the tool's `function_response` without its call.",
        "The regression test below (pytest, no network: a fake `BaseLlm` and a recording "
        "summarizer) drops into `tests/unittests/apps/`; on the pinned release and patched:",
    ]
    if tests:
        parts.append(
            markdown_table(pd.DataFrame([t.__dict__ for t in tests]).set_index("package"), cell=str)
        )
    parts += [
        f"<details><summary>{ADK_REGRESSION_TEST.name}</summary>\n\n"
        f"{fence(ADK_REGRESSION_TEST.read_text(), 'python')}\n\n</details>",
        "**Expected behavior**",
        "Every window given to the summarizer holds each function response after its call: "
        "the call restored into the window, as prompt assembly restores it. The minimal fix "
        "below does that in `_summarize_events_with_trace`; with it the 16 cases (run or "
        "streamed, approve or reject, compaction on or off, in memory or a SQLite "
        "`DatabaseSessionService` read by a second process) hold in every kind:",
    ]
    if patched:
        frame = pd.DataFrame([r.__dict__ for r in patched])
        parts.append(
            markdown_table(frame[["sdk_version", "plan", "cases", "violating"]].set_index("plan"))
        )
    parts.append(
        "<details><summary>The fix, against the installed package</summary>\n\n"
        + fence(FIX.read_text(), "diff")
        + "\n\n</details>"
    )
    if found.sweep:
        parts += [
            "Every release with tool confirmation and events compaction, its verdict: the 16 "
            "cases by trigger, and the situations after ten later turns in every kind:",
            markdown_table(adk_verdict_frame(found.verdicts, TRIGGERS, contract=False)),
            "Where a kind's result changes between releases, and the change that moved it:",
            markdown_table(adk_changes_frame(found.sweep)),
        ]
    parts += [
        "The sliding window keeps one summary per window beside the others, so the history the "
        "model reads grows by one summary a turn, the control with nothing pending too:",
        markdown_table(adk_liveness_frame(found.liveness)),
        *long_running_parts(folder),
        "**Desktop (please complete the following information):**",
        f"- OS: Linux\n- Python version: 3.11\n- ADK version: {pinned()}",
        "**Model Information:**",
        "- Are you using LiteLLM: No\n- Which model is being used: a scripted `BaseLlm`, no "
        "network",
        "**How is the agent set up?**",
        "An `LlmAgent` with `FunctionTool(require_confirmation=True)` and a "
        "`LongRunningFunctionTool`, in an `App` with `EventsCompactionConfig`, run by `Runner` "
        "over `InMemorySessionService` or a SQLite `DatabaseSessionService`.",
    ]
    return one_comment(parts, "the ADK report")


def long_running_parts(folder: Path = paths.DATA) -> list[str]:
    """The second bug, which a state-space search found and the hand-picked situations miss:
    a long-running call nobody answers stops compaction for good (none before the search's
    data is there)."""
    files = paths.data(folder)
    cases = searched_cases("adk", folder)
    released = [c for c in cases if "+" not in c.package]
    new = [c for c in released if c.label == "new"]
    if not new:
        return []
    stalls = [c for c in new if c.stops_compacting]
    parts = [
        "**Also found: a long-running call nobody answers stops compaction for good**",
        "A state-space search over ADK's own moves (where a call lands in its invocation, "
        "overlap and retention sizes, confirmations answered late, never or by a second "
        "process, long-running tools, a worker that dies; `make explore-drivers`) shrinks each "
        "violation to a minimal sequence that replays. What it found that no hand-picked "
        "situation or case has:",
        markdown_table(searched_frame(new)),
    ]
    if stalls:
        parts += [
            "`_provably_dead_call_ids` protects a non-HITL long-running call in every "
            "invocation, so the dead-call pass of `_longest_self_contained_prefix` (#7237) stops "
            "before one that has no response at all: its worker died once the call was stored, "
            "or the tool returned nothing and its result never arrives. Every window then ends "
            "before that call, and no later invocation compacts (#7236's symptom, for this "
            f"call). Replay: `{stalls[0].replay}`.",
        ]
    tests_path = files.adk_long_running_sdk_test
    if tests_path.is_file():
        tests = read_records(tests_path, SdkTestRecord)
        parts += [
            "Its regression test (same style, `tests/unittests/apps/`), on the pinned package, "
            "with the fix below and with both fixes:",
            markdown_table(
                pd.DataFrame([t.__dict__ for t in tests]).set_index("package"), cell=str
            ),
            f"<details><summary>{LONG_RUNNING_TEST.name}</summary>\n\n"
            f"{fence(LONG_RUNNING_TEST.read_text(), 'python')}\n\n</details>",
        ]
    patched = [c for c in cases if c.package.endswith(BOTH_FIXES.name)]
    both = [r for r in load_searches("adk", folder) if r["sdk_version"].endswith(BOTH_FIXES.name)]
    parts += [
        "A long-running call an earlier invocation left without any response can be compacted "
        "past: should its result still arrive, prompt assembly restores the compacted call "
        "(`_recover_compacted_function_calls`). The fix protects long-running calls only in the "
        "newest invocation, as confirmations are:",
        "<details><summary>The fix, against the installed package</summary>\n\n"
        + fence(LONG_RUNNING_FIX.read_text(), "diff")
        + "\n\n</details>",
    ]
    if both:
        left = markdown_table(searched_frame(patched)) if patched else "nothing."
        parts += [
            f"The same search on the package with both fixes ({BOTH_FIXES.name}) finds the rest "
            "below: no session stops compacting. What is left is the trade #7237 makes (a call "
            "summarized as dead while it waits), a long-running call sent to the model while it "
            "waits without a response, and a late result read back after the summary that covers "
            "its call (prompt assembly restores the call before the model is sent it):",
            left,
        ]
    return parts


def report_adk_command(args: argparse.Namespace) -> int:
    """``report-adk``: the issue for adk-python, to ``--output`` or stdout."""
    text = build_adk_report(Path(args.folder))
    if args.output:
        write_atomic(Path(args.output), text)
        print(f"wrote {args.output} ({github_length(text)} of {GITHUB_LIMIT} characters)")
    else:
        print(text, end="")
    return 0
