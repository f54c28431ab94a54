"""Report (ADK): the issue for adk-python, in its bug-report form (describe the bug, steps to
reproduce, expected behaviour, desktop and model information, how the agent is set up),
every table computed from ``data/``.

It reads the pinned release's kinds and liveness situations (``adk-data``), the patched
package's kinds, the regression test on both, the late answers split by what the fix changes,
the fix's lint and mutants (``adk-fix``), adk-python's own tests of the touched module
(``adk-upstream``, recorded by hand) and the sweep when it is there (``adk-sweep``). The words
around the tables are written here, by hand, and state no figure of their own; every line of
ADK they cite is linked at the release's tag, its number read from the installed package.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..errors import InvestigationError
from ..formats.files import write_atomic
from ..formats.markdown import GITHUB_LIMIT, fence, github_length, markdown_table, one_comment
from ..formats.records import read_records
from ..lab import paths
from ..lab.findings.fixes import checks, checks_frame, mutants, upstream
from ..lab.findings.searched import fixes_left, load_searches, searched_cases, searched_frame
from ..lab.mutation import mutants_frame
from ..lab.releases.driven import SdkTestRecord, SweepRecord
from ..wire.rules import OPEN_CALL, ORPHAN_OUTPUT
from .files import data_file
from .finding import (
    TRIGGERS,
    adk_changes_frame,
    adk_liveness_frame,
    adk_verdict_frame,
    late_split_frame,
    load_adk,
)
from .late import LateAnswer
from .packages import pinned
from .patched import BOTH_FIXES, FIX, LONG_RUNNING_FIX, label
from .sdk_test import ADK_REGRESSION_TEST, LONG_RUNNING_TEST

REPOSITORY = "https://github.com/google/adk-python"
# The linked issues, each with how this report differs from it (words by hand).
LINKED = (
    (
        f"{REPOSITORY}/issues/4740",
        "a confirmation call summarized before the user answered, so the resume raised "
        "(closed). Here the resume works: the call is summarized only as dead, and the late "
        "answer is what reaches the summarizer alone.",
    ),
    (
        f"{REPOSITORY}/issues/5602",
        "a long-running call's interim response made the guard treat the call as answered, "
        "so the resume raised `No function call event found` (closed). Here the resume "
        "works, prompt assembly restores the call; the summarizer's window lacks it.",
    ),
    (
        f"{REPOSITORY}/issues/6179",
        "asks whether compaction can orphan a long-running call whose final response comes "
        "after its interim one (a question, closed): these `long_running` rows are that "
        "case, for what the summarizer is given.",
    ),
    (
        f"{REPOSITORY}/issues/7236",
        "an orphaned call stopped compaction for good; its fix, "
        f"{REPOSITORY}/pull/7237, passes calls proven dead. 2.13.0 has such a pass, which "
        "summarizes a confirmation that waits once a newer invocation exists: the late "
        "answer then follows a summarized call, the case this fix completes.",
    ),
)
GEMINI_ORDER = "https://github.com/google-gemini/gemini-cli/pull/26691"
PYLINTRC = paths.ROOT / "adk" / "fix" / "pylintrc"


def late_frame(folder: Path = paths.DATA) -> pd.DataFrame:
    """The late answers on the pinned release and patched, split by what the fix changes."""
    path = data_file("late", folder)
    if not path.is_file():
        raise InvestigationError(
            "no data/adk-late.json: run `python -m approval_compaction adk-fix`"
        )
    return late_split_frame(read_records(path, LateAnswer), pinned(), label())


def _who_is_hit() -> str:
    from .source import permalink

    default = permalink(
        "apps/compaction.py", "config.summarizer = LlmEventSummarizer(llm=agent.canonical_model)"
    )
    rendered = permalink(
        "apps/llm_event_summarizer.py", "Tool response from {part.function_response.name}"
    )
    return (
        "Who is hit. With the defaults (no `summarizer` in `EventsCompactionConfig`), ADK "
        f"summarizes with `LlmEventSummarizer` on the agent's own model ([here]({default})), "
        f"which renders the window as text ([here]({rendered})): nothing is refused, but the "
        "summary model reads `Tool response from _lookup: {...}` with no `called tool` line "
        "before it, a result without the call and arguments that produced it, and the summary "
        "that stands for the answer from then on is written from that. A summarizer that hands "
        "the window to a model as contents (function call and response parts, as prompt "
        "assembly does) sends a response without its call, which the Gemini API refuses "
        f"(`Please ensure that function response turn comes immediately after a function call "
        f"turn.`, {GEMINI_ORDER}) and so does the OpenAI Responses API "
        f"(`{ORPHAN_OUTPUT.example}`, {ORPHAN_OUTPUT.sources[0].url})."
    )


def _linked() -> list[str]:
    return [
        "How it differs from the linked issues:",
        "\n".join(f"- {url}: {words}" for url, words in LINKED),
    ]


def _shown(path: Path) -> str:
    where = path.relative_to(paths.ROOT).as_posix()
    return f"[`{where}`](../{where})"


def _where_ran(folder: Path) -> str:
    return (
        f"It ran with pytest and pytest-asyncio in the environment of `google-adk` {pinned()} "
        "installed from PyPI (the wheel's `google/adk/` is the repository's `src/google/adk/`, "
        "the same text), and in a copy of it with the fix applied (`patch -p2` in "
        "`site-packages`); `adk/sdk-test/pytest.ini` stands in for the `[tool.pytest]` "
        "settings of adk-python's `pyproject.toml`."
    )


def _fix_parts(folder: Path) -> list[str]:
    from .source import permalink

    here = permalink("apps/compaction.py", "async def _summarize_events_with_trace(")
    recover = permalink(
        "flows/llm_flows/context/_compaction.py", "def _recover_compacted_function_calls("
    )
    parts = [
        f"The fix, in `_summarize_events_with_trace` ([here]({here})): the window is given "
        f"the calls `_recover_compacted_function_calls` restores ([here]({recover})), the "
        "function prompt assembly already calls. `git apply` in adk-python:",
        fence(FIX.read_text(), "diff"),
    ]
    lint = checks(data_file("lint", folder))
    if lint:
        parts += [
            "Checked with adk-python's own tools and settings (`python -m approval_compaction "
            "adk-fix`: the sdist's `pyproject.toml`, the `dev` extra's pins, and pylint with "
            f"its pylintrc's messages and format, {_shown(PYLINTRC)}), "
            "on the patched module and the regression test. The new import line is longer "
            "than 80 columns, which its pylintrc exempts (import lines) and pyink keeps, as in "
            "adk-python's own modules:",
            markdown_table(checks_frame(lint, ["adk"]).rename(columns={"adk": "result"}), cell=str),
        ]
    rows = mutants(data_file("mutants", folder), FIX.name)
    if rows:
        parts += [
            "Each plausible simplification of the fix fails the regression test "
            "(`adk-fix`, applied to the patched package):",
            markdown_table(mutants_frame(rows).droplevel("fix"), cell=str),
        ]
    found = upstream(data_file("upstream", folder))
    if found is not None:
        parts += [
            f"adk-python's own tests of the touched module ({', '.join(found['files'])}, from "
            f"{found['source']}), on the release and patched: {found['mapping']}; "
            f"{found['conftest']}. The tests that fail on the release fail patched too "
            f"({', '.join(t.split('::')[-1] for t in found['failing_on_release'])}: it passes "
            "`skip_token_compaction`, which 2.13.0's `_run_compaction_for_sliding_window` does "
            "not take):",
            markdown_table(adk_suite_frame(found), cell=str),
        ]
    return parts


def adk_suite_frame(record: dict[str, Any]) -> pd.DataFrame:
    """adk-python's tests of the touched module on the release and patched."""
    rows = [
        {
            "package": run["package"],
            "tests": run["tests"],
            "passed": run["passed"],
            "failed": run["failed"],
            "outcomes that differ from the release": run["differ_from_release"],
        }
        for run in record["runs"]
    ]
    return pd.DataFrame(rows).set_index("package")


def build_adk_report(folder: Path = paths.DATA) -> str:
    found = load_adk(folder)
    if found is None or not found.liveness:
        raise InvestigationError(
            "no data/adk-kinds.json: run `python -m approval_compaction adk-data`"
        )
    tests_path = data_file("sdk_test", folder)
    tests = read_records(tests_path, SdkTestRecord) if tests_path.is_file() else []
    patched = (
        read_records(data_file("patched", folder), SweepRecord)
        if data_file("patched", folder).is_file()
        else []
    )
    parts = [
        "**Describe the bug**",
        "A tool call answered late, after later turns, reaches the events summarizer without "
        "its function call. A confirmation (`FunctionTool(require_confirmation=True)`) that the "
        "user answers after asking other questions, or a `LongRunningFunctionTool` whose result "
        "arrives then, follows a call that an earlier compaction already summarized: the "
        "dead-call pass of `_longest_self_contained_prefix` lets the window pass a call that "
        "waits once a newer invocation exists. Prompt assembly restores the call "
        "(`_recover_compacted_function_calls`), so the model is sent a paired history; the "
        "summarizer is not: the window it is given holds the `function_response` alone.",
        _who_is_hit(),
        "Each late situation on the pinned release and patched, ten later turns each: what "
        "the fix changes (first column), and what it leaves, the same on both:",
        markdown_table(late_frame(folder)),
        "What the fix leaves, and why. A confirmation's calls are summarized while they wait: "
        "the dead-call pass counts a synthetic confirmation call in an older invocation as "
        "dead, the trade that keeps an abandoned call from stopping compaction for good; the "
        "`resumed` rows show it on both packages. ADK's event log is append-only: with a "
        "token threshold that keeps raw events, the late answer stays stored after the "
        "summary that covers its call, and the session reads it back there on both packages; "
        "prompt assembly restores the call before every model request, so nothing is sent to "
        "the model unpaired on either. The fix changes what the summarizer is given, not what "
        "is stored.",
        *_linked(),
        "**To Reproduce**",
        "1. An `App` with `EventsCompactionConfig` (a sliding window of one invocation, or a "
        "token threshold), an agent with a tool that requires confirmation.\n"
        "2. Ask for the tool: the run pauses on `adk_request_confirmation`.\n"
        "3. Ask three other questions; the session compacts after each.\n"
        "4. Answer the confirmation, then ask one more question.\n"
        "5. The summarizer's last windows hold the tool's `function_response` without its call.",
        "The regression test below (pytest, no network: a fake `BaseLlm` and a recording "
        "summarizer) drops into `tests/unittests/apps/`. " + _where_ran(folder),
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
        "the call restored into the window, as prompt assembly restores it. With the fix the "
        "16 cases (run or streamed, approve or reject, compaction on or off, in memory or a "
        "SQLite `DatabaseSessionService` read by a second process) hold in every kind:",
    ]
    if patched:
        frame = pd.DataFrame([r.__dict__ for r in patched])
        parts.append(
            markdown_table(frame[["sdk_version", "plan", "cases", "violating"]].set_index("plan"))
        )
    parts += _fix_parts(folder)
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
    cases = searched_cases("adk", folder)
    released = [c for c in cases if "+" not in c.package]
    new = [c for c in released if c.label == "new"]
    if not new:
        return []
    stalls = [c for c in new if c.stops_compacting]
    parts = [
        "**Also found: a long-running call nobody answers stops compaction for good, and is "
        "sent to the model without its result**",
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
    sent = [c for c in new if "model_input_complete" in {i for i, _ in c.pairs}]
    if sent:
        parts += [
            "`drop_orphaned_function_calls` keeps every long-running call in the request, also "
            "one an earlier invocation left without any response, so each later question sends "
            "it without its result; and a pending one is sent so in its own invocation when a "
            "call beside it is answered and the model asked again. A model that pairs calls "
            "with their results by id (`OpenAIResponsesLlm`, LiteLLM, Anthropic) is refused, "
            f"over HTTP with `{OPEN_CALL.example}` ({OPEN_CALL.sources[0].url}). "
            f"Replay: `{sent[0].replay}`.",
        ]
    tests_path = data_file("long_running_sdk_test", folder)
    if tests_path.is_file():
        tests = read_records(tests_path, SdkTestRecord)
        parts += [
            "Their regression test (same style, `tests/unittests/apps/`), on the pinned "
            "package, with the fix below and with both fixes:",
            markdown_table(
                pd.DataFrame([t.__dict__ for t in tests]).set_index("package"), cell=str
            ),
            f"<details><summary>{LONG_RUNNING_TEST.name}</summary>\n\n"
            f"{fence(LONG_RUNNING_TEST.read_text(), 'python')}\n\n</details>",
        ]
    fixed = [f for f in fixes_left(cases) if f.patched.endswith(BOTH_FIXES.name)]
    patched = [c for f in fixed for c in f.found]
    both = [r for r in load_searches("adk", folder) if r["sdk_version"].endswith(BOTH_FIXES.name)]
    parts += [
        "A long-running call an earlier invocation left without any response can be compacted "
        "past, and left out of the request: should its result still arrive, prompt assembly "
        "restores the compacted call (`_recover_compacted_function_calls`) and sends it with "
        "its result. The fix keeps long-running calls open only in the newest invocation, as "
        "confirmations are, in the compactor and in the request; and a model that pairs calls "
        "by id is sent none without its result (prompt assembly says which models do, as it "
        "does to keep their ids):",
        "<details><summary>The fix, as adk-python takes it (src/google/adk)</summary>\n\n"
        + fence(LONG_RUNNING_FIX.read_text(), "diff")
        + "\n\n</details>",
    ]
    lint = checks(data_file("lint", folder))
    if any(row.subject == "long-running" for row in lint):
        parts += [
            "Checked as the first fix is, with the same tools and settings:",
            markdown_table(
                checks_frame(lint, ["long-running"]).rename(columns={"long-running": "result"}),
                cell=str,
            ),
        ]
    rows = mutants(data_file("mutants", folder), LONG_RUNNING_FIX.name)
    if rows:
        parts += [
            "Each plausible simplification of it fails its regression test:",
            markdown_table(mutants_frame(rows).droplevel("fix"), cell=str),
        ]
    if both:
        left = _left(sorted({name for f in fixed for name in f.broken}))
        stops = any(f.stops_compacting for f in fixed)
        parts += [
            f"The same search on the package with both fixes ({BOTH_FIXES.name}) finds the rest "
            f"below: {'a session still' if stops else 'no session'} stops compacting."
            + (f" What is left is {left}:" if left else ""),
            markdown_table(searched_frame(patched)) if patched else "nothing.",
        ]
    return parts


# What each invariant a finding on the patched package breaks says there, in words.
LEFT = {
    "compaction_input_complete": "the trade #7237 makes (a call summarized as dead while it "
    "waits; ADK's summarizer renders it as text, which no API refuses)",
    "model_input_complete": "a pending long-running call sent within its own invocation to "
    "a model that does not pair calls by id, as ADK means to (the driver's scripted model; the "
    "stand-in's rules, the Responses API's, predict the refusal a model that pairs by id "
    "would get; with the fix, such a model is sent none)",
    "stored_history_paired": "a late result read back after the summary that covers its "
    "call (prompt assembly restores the call before the model is sent it)",
}


def _left(broken: Sequence[str]) -> str:
    """What the findings on a patched package leave (``FixLeft.broken``), in words, one phrase
    an invariant."""
    said = [LEFT.get(name, f"`{name}`") for name in broken if name != "next_turn_accepted"]
    return ", ".join(said[:-1]) + f" and {said[-1]}" if len(said) > 1 else "".join(said)


def report_adk_command(args: argparse.Namespace) -> int:
    """``report-adk``: the issue for adk-python, to ``--output`` or stdout."""
    text = build_adk_report(Path(args.folder))
    if args.output:
        write_atomic(Path(args.output), text)
        print(f"wrote {args.output} ({github_length(text)} of {GITHUB_LIMIT} characters)")
    else:
        print(text, end="")
    return 0
