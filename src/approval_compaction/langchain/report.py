"""Report: the issue for langchain, in its bug form, written from ``data/``.

langchain's bug template asks for a checked list, the package, a reproduction a maintainer can
run as it is, the error, a description and the system. Every figure here is read from the
committed data: the pinned release's situations in each setting
(``data/langchain-liveness.json``), the same on the patched package
(``data/langchain-patched.json``), the regression test and the fix's mutants
(``data/langchain-sdk-test.json``). ``RELATED`` says what each neighbouring public issue is and
how this one differs; the sentences are written here, the tables computed.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..analysis.liveness import LivenessRecord
from ..formats.files import write_or_print
from ..formats.markdown import markdown_table
from ..formats.records import read_records
from ..lab import paths
from ..lab.findings.searched import SearchedCase, searched_cases, searched_frame
from .commands import SdkTestRecord
from .files import FILES, Name, data_file
from .patched import FIX
from .sdk_test import REGRESSION_TEST
from .sweep import CONTROLS, SETTINGS

REPRO = paths.ROOT / "langchain" / "repro.py"
SITUATIONS = ("abandoned", "lost", "resumed")  # a decision left waiting while the thread moves


@dataclass(frozen=True)
class Related:
    """A neighbouring public issue or pull request: what it is, and how this one differs."""

    name: str
    url: str
    what: str
    differs: str


GH = "https://github.com/langchain-ai"
RELATED: tuple[Related, ...] = (
    Related(
        "langchain-ai/langchain#38352",
        f"{GH}/langchain/issues/38352",
        "open: `SummarizationMiddleware._find_safe_cutoff_point` keeps orphan `ToolMessage`s "
        "when the cut lands in a run of tool messages whose calls it only partly finds; the "
        "provider answers 400",
        "there an output outlives its call at the cut; here a call never gets its output, "
        "because its decision never came, and no cut is needed: the request is refused with "
        "summarization off too",
    ),
    Related(
        "langchain-ai/langchain#38357, #38360, #38435",
        f"{GH}/langchain/pull/38357",
        "fixes proposed for #38352 (the cut walks back until every tool message's call is "
        "covered, or past the run), closed",
        "they move the cut point; a call left without a decision is kept or summarised by "
        "any cut, so no cut point fixes it",
    ),
    Related(
        "langchain-ai/langchain#33245, #35313",
        f"{GH}/langchain/issues/33245",
        "open: `trim_messages(strategy='last')` can return a `ToolMessage` first, without its "
        "call; #35313 (open) drops such tool messages after trimming",
        "the docs' trim step here is not `trim_messages`; what it keeps holds the call "
        "without any output, which dropping orphan tool messages leaves as it is",
    ),
    Related(
        "langchain-ai/langmem#112",
        f"{GH}/langmem/issues/112",
        "not in the stored copy of langmem's issues this project searched; its neighbours "
        "there are #111 (`SummarizationNode` drops the `HumanMessage` after a tool call) and "
        "#126 (parallel tool calls summarised apart)",
        "langmem's `SummarizationNode` is not `create_agent`'s middleware; the pairing "
        "problem here is made by the interrupt, not by a summary",
    ),
    Related(
        "langchain-ai/langchain#33489",
        f"{GH}/langchain/pull/33489",
        "closed: a `before_agent` hook in `HumanInTheLoopMiddleware` to add `ToolMessage`s "
        "for dangling tool calls, 'when a new message comes in on a previously interrupted "
        "thread'",
        "the same place and cause, unmerged, and the bug still there on the newest release; "
        "the fix here puts each answer right after its `AIMessage` (Chat Completions refuses "
        "one after the new message, which a mutant of the fix shows), answers the unreviewed "
        "calls waiting with the reviewed one, and is proven with summarization on",
    ),
)


RAISED = re.compile(r"turns? ([\d, ]+) raised .*?HTTP (\d+) at (\S+?):")


def cell(row: LivenessRecord) -> str:
    """A situation's later turns in one setting: ``usable``, or how many the API refused, with
    the status and the endpoint (``3 of 10 later turns refused (400 at /v1/responses)``)."""
    if row.session_usable:
        return "usable"
    found = RAISED.match(row.raised)
    if found is None:
        return row.raised or row.error or "not judged"
    refused = len(found.group(1).split(","))
    return f"{refused} of {row.turns} later turns refused ({found.group(2)} at {found.group(3)})"


def situations_frame(rows: Sequence[LivenessRecord], control: bool = False) -> pd.DataFrame:
    """Situation by setting: how many later turns the API refused, or ``usable``; with
    ``control``, the *clean* session (no approval waiting) first, to compare against (r16)."""
    shown = ("clean", *SITUATIONS) if control else SITUATIONS
    table: dict[str, dict[str, str]] = {s: {} for s in shown}
    for r in rows:
        if r.invariant == "compaction_runs" and r.scenario in shown:
            table[r.scenario][r.mode] = cell(r)
    table = {s: v for s, v in table.items() if v}
    order = [*SETTINGS, *(plan.label for plan in CONTROLS)]
    frame = pd.DataFrame(table).reindex([s for s in order if any(s in v for v in table.values())])
    return frame.rename_axis("setting")


def tests_frame(rows: Sequence[SdkTestRecord]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "package": [r.package for r in rows],
            "passed": [f"{r.passed} of {r.tests}" for r in rows],
            "failing": [r.failing or "none" for r in rows],
        }
    ).set_index("package")


def _read(name: Name, kind: type, folder: Path) -> list:  # type: ignore[type-arg]
    path = data_file(name, folder)
    return list(read_records(path, kind)) if path.is_file() else []


def trim_after_fix(new: Sequence[SearchedCase]) -> bool:
    """Whether every new finding is the docs' trim step on the patched package (what the
    report and notebook 14's answer explain in words)."""
    return bool(new) and all(c.mode == "trim" and "+" in c.package for c in new)


def unpaired(case: SearchedCase) -> bool:
    """Whether a finding leaves an output without its call somewhere (a ``*_paired`` rule)."""
    return any(name.endswith("_paired") for name, _ in case.pairs)


def release_trim_said(cases: Sequence[SearchedCase]) -> str:
    """What the search found on the release itself in the docs' trim step, beside what it finds
    there on the patched package: no sequence leaving an output without its call, only the
    hand-picked shapes it reduces to (``""`` when the release's search does find one, or when
    the new findings are not all the trim step on the patched package)."""
    trim = [c for c in cases if "+" not in c.package and c.mode == "trim"]
    if not trim_after_fix([c for c in cases if c.label == "new"]) or any(map(unpaired, trim)):
        return ""
    shapes = sorted({c.known_as or c.label for c in trim})
    found = ""
    if shapes:
        names = " and ".join(f"*{s}*" for s in shapes)
        found = f" (its trim finding{'s' if len(trim) > 1 else ''}: {names}, a call left open)"
    return (
        "On the release the search finds no trim sequence that sends an output without its "
        f"call{found}."
    )


def search_said(cases: Sequence[SearchedCase]) -> str:
    """How many of the search's findings no situation has the shape of, and, where each such
    one is the docs' trim step on the patched package, why."""
    new = [c for c in cases if c.label == "new"]
    others = sorted({c.known_as for c in cases if c.label != "new" and c.known_as})
    rest = len(cases) - len(new)
    several = len({c.package for c in cases}) > 1
    together = " (on the release and the patched package together)" if several else ""
    reduce = (
        (f"; the other {rest} reduce to " if rest > 1 else "; the other one reduces to ")
        + ", ".join(f"*{name}*" for name in others)
        if others
        else ""
    )
    said = (
        f"{len(new)} of the {len(cases)} findings{together} have a shape no situation above "
        f"has{reduce}."
        if new
        else f"Each of the {len(cases)} findings reduces to a situation above: the search "
        "found nothing they miss."
    )
    if trim_after_fix(new):
        said += (
            f" Each of the {len(new)} is the docs' trim step on the patched package: the fix "
            "answers an open call "
            "with one more message, the step keeps the last three or four messages by their "
            "count alone, and a later turn's cut then keeps a call's output without its call. "
            "In the summarising middleware's settings the search breaks no pair with the fix."
        )
    return said


def searched_words(cases: Sequence[SearchedCase]) -> list[str]:
    """What the state-space search found on the release and on the patched package: the
    findings' table, and what ``search_said`` says of them."""
    if not cases:
        return []
    packages = list(dict.fromkeys(c.package for c in cases))
    return [
        "A state-space search over the middleware's own moves (each compaction step, both "
        "APIs, both checkpointers; questions with reviewed and plain calls, a worker dying "
        "before its tools run, decisions approved, rejected, sent late or by a second worker; "
        "`make explore-drivers`) shrinks each violation it finds to a minimal sequence that "
        "replays (`python -m approval_compaction explore replay FILE`). On "
        f"{' and '.join(packages)}, each finding with the situation it reduces to:",
        "",
        markdown_table(searched_frame(list(cases))),
        "",
        " ".join(filter(None, (search_said(cases), release_trim_said(cases)))),
        "",
    ]


def report(folder: Path = paths.DATA) -> str:
    """The issue's text, from the committed data under ``folder``."""
    live = _read("liveness", LivenessRecord, folder)
    patched = _read("patched", LivenessRecord, folder)
    tests = _read("sdk_test", SdkTestRecord, folder)
    version = live[0].sdk_version if live else "?"
    test = REGRESSION_TEST.relative_to(paths.ROOT).as_posix()
    fix = FIX.relative_to(paths.ROOT).as_posix()
    related = "\n".join(f"- [{r.name}]({r.url}): {r.what}. Here: {r.differs}." for r in RELATED)
    return "\n".join(
        [
            "### HumanInTheLoopMiddleware: a message sent while a decision is pending leaves "
            "the reviewed tool call unanswered; every provider refuses the next request",
            "",
            "### Checked other resources",
            "",
            "- [x] This is a bug, not a usage question.",
            "- [x] I searched existing issues (below: how this differs from each).",
            f"- [x] The bug is not resolved by updating to the latest stable version ({version}).",
            "- [x] I posted a self-contained, minimal, reproducible example.",
            "",
            "### Package",
            "",
            "- [x] langchain",
            "",
            "### Reproduction Steps / Example Code (Python)",
            "",
            "No key, no network: a fake chat model records what it is sent.",
            "",
            "```python",
            REPRO.read_text().strip(),
            "```",
            "",
            "### Error Message and Stack Trace",
            "",
            "It prints `sent: ['human', 'ai', 'human']` and `unanswered tool calls: ['call-1']`."
            " Against the API the next request is refused with 400 (Chat Completions: "
            "\"An assistant message with 'tool_calls' must be followed by tool messages "
            "responding to each 'tool_call_id'\"; the Responses API: \"No tool output found "
            'for function call ...").',
            "",
            "### Description",
            "",
            "`create_agent` with `HumanInTheLoopMiddleware` pauses on a tool call through an "
            "interrupt. If the user sends a new message instead of a `Command(resume=...)`, "
            "LangGraph starts a new run: the interrupt is dropped, and the `AIMessage` keeps "
            "its tool call with no `ToolMessage`. A decision sent later runs no tool. With "
            "`SummarizationMiddleware` keeping more than the new message, or the docs' trim "
            "step, the call stays in what the model is sent; keeping one message summarises "
            "the call away, unanswered. Each setting on the pinned release, each situation "
            f"followed by ten questions (`data/{FILES['liveness']}`; ChatOpenAI over HTTP to "
            "a local stand-in that answers as the API does):",
            "",
            markdown_table(situations_frame(live)),
            "",
            f"The fix ([`{fix}`]({fix})): a `before_agent` hook in `HumanInTheLoopMiddleware` "
            "that answers each such call with a `ToolMessage` right after its `AIMessage` "
            "(the call did not run). With it, every situation in every setting "
            f"(`data/{FILES['patched']}`):",
            "",
            markdown_table(situations_frame(patched)),
            "",
            f"The regression test ([`{test}`]({test}), for "
            "`libs/langchain_v1/tests/unit_tests/agents/middleware/implementations/`), on the "
            "release, patched, and on each simplification of the fix "
            f"(`data/{FILES['sdk_test']}`):",
            "",
            markdown_table(tests_frame(tests)),
            "",
            *searched_words(searched_cases("langchain", folder)),
            "How this differs from the public issues around it:",
            "",
            related,
            "",
            "### System Info",
            "",
            f"langchain {version}, with langchain-openai and langgraph-checkpoint-sqlite as "
            "resolved on its release date; Python 3.11.",
        ]
    )


def command(args: argparse.Namespace) -> int:
    """``report-langchain``: the issue, to a file or stdout."""
    write_or_print(report(Path(args.folder)) + "\n", args.output)
    return 0
