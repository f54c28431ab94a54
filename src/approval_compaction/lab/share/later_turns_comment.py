"""Upstream liveness: the comment for the upstream thread on compaction liveness in the newest
release, generated from the committed results (``make liveness-patch``, ``make liveness``).

It says what the newest release does in each situation (the stored lengths of the committed
liveness runs, and the regression test's failing cases with their messages), gives the
upstream-form regression test with its one ``uv run`` line, the proposed patch, and the
patch lab's proofs: the test fails without the patch and passes with it; the SDK's own
tests change no other outcome; the sixteen cases of the original bug all hold; and every
liveness run on the patched SDK in the modes the patch is for stays bounded. What the patch
leaves alone (explicit ``previous_response_id`` mode, which the SDK documents and one of its
tests pins) is said with its consequence and the advice. Nothing in it is typed: every figure
is read from ``data/``.
"""

from __future__ import annotations

import argparse
import shlex
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ...analysis.liveness import LivenessRun, broken_runs, session_usable
from ...display.details import Titled, titled
from ...errors import InvestigationError
from ...formats.files import write_atomic
from ...formats.markdown import GITHUB_LIMIT, fence, github_length, markdown_table
from ...formats.records import read_json, read_records
from .. import paths
from ..findings.headlines import TABLE_10
from ..findings.liveness import REFUSED, STUCK
from ..findings.verdict import KIND_WORDS, failure_kinds, kind_of, kind_tally
from ..mechanism.permalink import REPOSITORY, tag
from ..releases.crosscheck import tool_requirements
from ..releases.later_turns_patch import (
    DOCUMENTED_LIMIT,
    DOCUMENTED_TEST,
    INTENDED,
    MCP_SITUATION,
)
from ..releases.upstream.changes import NOT_REPRODUCED
from ..releases.versions import PACKAGE
from .snippet import upstream_test

SITUATIONS = ("abandoned", "lost", "poisoned", MCP_SITUATION)
WORDS = {
    "abandoned": "an approval nobody answers: the user asked something else",
    "lost": "a call whose output was lost: the worker died between the call and its output",
    "poisoned": "a store holding an output whose call compaction removed",
    MCP_SITUATION: "a hosted MCP approval request nobody answers (the SDK sends it to the "
    "model at every later turn)",
}
PATCHED_MODES = ("input", "auto")  # the modes the patch keeps compacting


def one_line(version: str, test: str = paths.LIVENESS_TEST.name) -> str:
    """The command that runs the saved test on ``version`` in a throwaway environment."""
    words = ["uv", "run", "--no-project"]
    for pin in [f"{PACKAGE}=={version}", *tool_requirements()]:
        words += ["--with", pin]
    return shlex.join([*words, "pytest", test])


def test_outcomes(ran: Mapping[str, Any]) -> str:
    """A ``liveness_patch_mcp`` record in lines, as notebook 10 prints it (r16: the string
    handling was the page's): the command on the release, then each SDK's outcome with pytest's
    message and its ``assert`` line (the ``where`` lines left out)."""
    lines = [one_line(str(ran["base"]), paths.LIVENESS_MCP_TEST.name)]
    for outcome in ran["outcomes"]:
        message = str(outcome["message"]).split(" + where")[0].replace(" assert ", "\n  assert ")
        sdk = ran["base"] if outcome["sdk"] == "released" else outcome["sdk"]
        lines.append(f"{sdk}: {outcome['outcome']}" + (f"\n  {message}" if message else ""))
    return "\n".join(lines)


def missed_compaction(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of a ``liveness_by_mode`` frame where some column did not compact at every later
    turn (``N of N compacted``), as notebook 10 shows them."""
    every = frame.apply(lambda column: column.str.fullmatch(r".* (\d+) of \1 compacted"))
    missed: pd.DataFrame = frame[~every.all(axis=1)]
    return missed


def diff_without(patch: Path, name: str, left_out: str) -> str:
    """The file's part of ``patch`` (``file_diff``) without the hunks holding ``left_out``: notebook
    10 shows the patch's first file without its docstring hunk (r25: the filter was plumbing)."""
    head, *hunks = file_diff(patch, name).split("\n@@")
    return "\n@@".join([head, *(h for h in hunks if left_out not in h)])


def missed_table(frame: pd.DataFrame) -> Titled:
    """``missed_compaction(frame)`` under notebook 10's title, its scope in it (r25: the title
    was built in a visible cell)."""
    scope = (
        "openai-agents 0.24.0 and patched, SQLiteSession, hook always says yes, each mode, "
        "responses stored, over HTTP, documented compaction answer; poisoned: a store an older "
        "release wrote, the others fresh sessions"
    )
    return titled(missed_compaction(frame), f"{TABLE_10} ({scope})")


def after_setup(test: Path, start: str = "    lengths: list[int]") -> str:
    """The saved test's body from ``start`` on (its setup left out), as notebook 10 shows it."""
    text = test.read_text()
    if start not in text:
        raise InvestigationError(f"{test.name} has no line starting {start.strip()!r}")
    return start + text.split(start, 1)[1]


def file_diff(patch: Path, name: str) -> str:
    """The part of a unified diff that changes the file whose path ends with ``name``."""
    parts = ["diff --git" + part for part in patch.read_text().split("diff --git")[1:]]
    found = [part for part in parts if part.splitlines()[0].endswith(f"/{name}")]
    if not found:
        raise InvestigationError(f"{patch.name} changes no file named {name}")
    return found[0]


def _lengths(runs: Sequence[LivenessRun], version: str, mode: str = "input") -> dict[str, Any]:
    found = {}
    for run in runs:
        if run.sdk_version == version and run.mode == mode and not run.workaround:
            kept = [t.kept for t in run.turns]
            found[run.scenario] = (kept, sum(1 for t in run.turns if t.sent_unpaired))
    return found


def _refused(runs: Sequence[LivenessRun], version: str, mode: str = "input") -> dict[str, int]:
    """The later turns that raised (the API refused them), per situation."""
    return {
        run.scenario: len(session_usable(run).raised)
        for run in runs
        if run.sdk_version == version and run.mode == mode and not run.workaround
    }


# The situations as a maintainer reads them: the newest release's bug with no old data first,
# the control and the late answers after the dead calls, and the store an older release
# poisoned last.
LEAD_ORDER = (MCP_SITUATION, "abandoned", "lost", "clean", "resumed", "mcp_resumed", "poisoned")


def liveness_by_mode(columns: Mapping[str, Sequence[LivenessRun]]) -> pd.DataFrame:
    """One row per situation (``LEAD_ORDER``) and compaction mode, one column per SDK named in
    ``columns`` (its runs without the workaround): the stored items after the first and the
    last later turn (the user's own messages not counted) and how many later turns compacted,
    or how many the API refused; a situation's modes that read the same share a row."""
    rows: dict[tuple[str, str], dict[str, str]] = {}
    for column, runs in columns.items():
        for run in runs:
            if run.workaround or run.scenario not in LEAD_ORDER or not run.turns:
                continue
            refused = len(session_usable(run).raised)
            kept = [t.kept for t in run.turns]
            compacted = sum(1 for t in run.turns if t.compacted)
            said = (
                f"refused {refused} of {len(kept)}"
                if refused
                else f"{kept[0]}→{kept[-1]} items, {compacted} of {len(kept)} compacted"
            )
            rows.setdefault((run.scenario, run.mode), {})[column] = said
    merged: dict[tuple[str, str], dict[str, str]] = {}  # a situation's modes that read the same
    for situation, mode in sorted(rows, key=lambda k: (LEAD_ORDER.index(k[0]), _mode_order(k[1]))):
        same = next(
            (k for k in merged if k[0] == situation and merged[k] == rows[situation, mode]), None
        )
        if same is None:
            merged[situation, mode] = rows[situation, mode]
        else:
            merged[situation, f"{same[1]}, {mode}"] = merged.pop(same)
    frame = pd.DataFrame(list(merged.values()), columns=list(columns))
    return frame.set_index(pd.MultiIndex.from_tuples(merged, names=["situation", "modes"]))


def patch_changes(frame: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """``liveness_by_mode``'s frame of two columns (released, patched) split: the rows the
    patch changes, and the others in words, the situations grouped by their modes
    (``abandoned, lost (every mode); mcp_abandoned (previous_response_id)``)."""
    released, patched = frame.columns[:2]
    changed = frame[frame[released] != frame[patched]]
    every = ", ".join(
        sorted(
            {m for ms in frame.index.get_level_values(1) for m in ms.split(", ")}, key=_mode_order
        )
    )
    by_modes: dict[str, list[str]] = {}
    for situation, modes in frame.index.difference(changed.index, sort=False):
        by_modes.setdefault(situation, []).append(modes)
    grouped: dict[str, list[str]] = {}
    for situation, modes in by_modes.items():
        joined = ", ".join(sorted({m for ms in modes for m in ms.split(", ")}, key=_mode_order))
        grouped.setdefault("every mode" if joined == every else joined, []).append(situation)
    return changed, "; ".join(f"{', '.join(names)} ({modes})" for modes, names in grouped.items())


def failed_by_situation(outcomes: Sequence[dict[str, Any]], sdk: str) -> str:
    """How many of the test file's cases failed on ``sdk``, by situation (the first part of a
    case id ``[situation-answer-runner]``), with the situations that fail only under the
    summary-only compaction answer (``findings.verdict``) named apart."""
    mine = [o for o in outcomes if o["sdk"] == sdk]
    failed = [o for o in mine if o["outcome"] == "failed"]
    if not failed:
        return f"{len(mine)} of {len(mine)} passed"
    by: Counter[str] = Counter(o["test"].partition("[")[2].split("-")[0] for o in failed)
    only = {
        situation
        for situation in by
        if all(
            "summary_only" in o["test"]
            for o in failed
            if o["test"].partition("[")[2].startswith(f"{situation}-")
        )
    }
    said = ", ".join(f"{s} {n}" for s, n in by.items() if s not in only)
    apart = ", ".join(f"{s} {n}" for s, n in by.items() if s in only)
    tail = (
        f"; {apart} only when the compaction endpoint answers with the summary alone, an answer "
        "no public source shows"
        if apart
        else ""
    )
    return f"{len(failed)} of {len(mine)} failed: {said}{tail}"


def _mode_order(mode: str) -> int:
    order = ("input", "auto", "previous_response_id")
    return order.index(mode) if mode in order else len(order)


def released_runs(liveness: dict[str, Any]) -> list[LivenessRun]:
    """The release's runs: the committed liveness runs (``mcp_abandoned`` among them)."""
    return [LivenessRun.from_json(r) for r in liveness["runs"]]


def failure_frame(liveness: dict[str, Any], outcomes: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """What the release does in each situation: the committed runs' lengths, and the test's
    failing cases (by the compaction endpoint's answer) with their first message."""
    runs = released_runs(liveness)
    lengths = _lengths(runs, str(liveness["newest"]))
    refused = _refused(runs, str(liveness["newest"]))
    rows = {}
    for situation in SITUATIONS:
        kept, sent = lengths.get(situation, ([], 0))
        failing = [
            o
            for o in outcomes
            if o["sdk"] == "released" and f"[{situation}-" in o["test"] and o["outcome"] != "passed"
        ]
        rows[situation] = {
            "what happened": WORDS[situation],
            "stored items after each later turn": " ".join(map(str, kept)),
            "turns sending an unpaired item": sent,
            "later turns the API refuses": refused.get(situation, 0),
            "the test fails with": ", ".join(sorted({o["test"].split("-")[1] for o in failing}))
            or "passes",
            "first failure": failing[0]["message"].split(" assert ")[0][:120] if failing else "",
        }
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("situation")


def other_mode_frame(liveness: dict[str, Any]) -> pd.DataFrame:
    """The situations the newest release leaves stuck in a mode other than ``input``, with the
    broken invariants and the lengths (without the user's messages), from the committed runs."""
    runs = released_runs(liveness)
    newest = str(liveness["newest"])
    broken = {
        (mode, situation): names
        for (situation, version, mode, workaround), names in broken_runs(runs).items()
        if version == newest and not workaround
    }
    rows = []
    for (mode, situation), names in sorted(broken.items()):
        if mode == "input" or situation not in (*SITUATIONS, "clean"):
            continue
        kept, sent = _lengths(runs, newest, mode).get(situation, ([], 0))
        rows.append(
            {
                "compaction_mode": mode,
                "situation": situation,
                "broken": ", ".join(names),
                "kind": KIND_WORDS[kind_of(mode, REFUSED if "session_usable" in names else STUCK)],
                "stored items after each later turn": " ".join(map(str, kept)),
                "turns sending an unpaired item": sent,
                "later turns the API refuses": _refused(runs, newest, mode).get(situation, 0),
            }
        )
    return pd.DataFrame(rows).set_index("compaction_mode") if rows else pd.DataFrame()


def http_frame(http: dict[str, Any]) -> pd.DataFrame:
    """Each situation over HTTP to the stand-in: the stored lengths on the release and patched,
    and the turns that send an unpaired item (a 400 from the API)."""
    runs = {sdk: [LivenessRun.from_json(r) for r in found] for sdk, found in http["runs"].items()}
    rows: dict[str, dict[str, str]] = {}
    for situation in (*SITUATIONS, "clean"):
        for sdk, found in runs.items():
            run = next((r for r in found if r.scenario == situation), None)
            if run is None:
                continue
            kept = " ".join(str(t.kept) for t in run.turns)
            sent = sum(1 for t in run.turns if t.sent_unpaired)
            refused = len(session_usable(run).raised)
            rows.setdefault(situation, {})[sdk] = (
                f"{kept} ({sent} sending an unpaired item, {refused} refused)"
            )
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("situation")


def tally_lines(outcomes: Sequence[dict[str, Any]]) -> list[str]:
    """The test's tally on each SDK, its failures split by kind (``findings.verdict``)."""
    counts = Counter((o["sdk"], o["outcome"]) for o in outcomes)
    lines = []
    for sdk in ("released", "patched"):
        kinds = kind_tally(failure_kinds(outcomes, sdk))
        tally = ", ".join(
            f"{n} {word}" + (f" ({kinds})" if word == "failed" and kinds else "")
            for (s, word), n in sorted(counts.items())
            if s == sdk
        )
        lines.append(f"{sdk}: {tally}")
    return lines


def suite_lines(suite: dict[str, Any]) -> list[str]:
    """The SDK's suite on each SDK, and the tests whose outcome the patch changes."""
    lines = [
        f"- {r['sdk']}: {r['tests']} tests in {r['files']} files, {r['passed']} passed, "
        f"{r['failed']} failed, {r['error']} errors, {r['skipped']} skipped"
        for r in suite["runs"]
    ]
    changes = suite["changes"]
    ours = [c for c in changes if c["reason"] == INTENDED]
    load = [c for c in changes if c["reason"].startswith(NOT_REPRODUCED)]
    other = [c for c in changes if not c["reason"]]

    def named(found: Sequence[dict[str, Any]]) -> str:
        return "; ".join(f"`{c['test']}` {c['baseline']} -> {c['fixed']}" for c in found)

    lines.append(
        f"- {suite['same_outcome']} tests have the same outcome on both; {len(ours)} change as "
        "intended (the new test's cases that fail without the patch); "
        + (f"{len(other)} other tests change: {named(other)}" if other else "no other test does")
    )
    if load:
        lines.append(
            f"- {len(load)} changed in the full run but not when re-run alone in both "
            f"(a timeout while other workers held the cores): {named(load)}"
        )
    return lines


def where_suite_ran(base: str, suite: dict[str, Any]) -> str:
    """Where the SDK's suite ran, in words around the counts the suite file holds."""
    files = suite["runs"][0]["files"]
    return (
        f"in the {base} sdist from PyPI, unpacked (its `tests/` as released), with the "
        "development environment its Makefile's `sync` target makes (`uv sync --all-extras "
        f"--all-packages --group dev`): pytest on the {files} files of `tests/` that name a "
        "compaction session, or an approval and a session; patched, in a copy with the patch "
        "applied to its `src/agents`"
    )


# Why a mutant the test cannot tell from the patch survives, by its name (``lab.releases.mutants``).
# None survives: ``reasoning-ignored`` did until the reasoning case was added to the test.
WHY_IT_SURVIVES: dict[str, str] = {}


def mutant_lines(folder: Path) -> list[str]:
    """The patch's mutants and the case that kills each (``liveness-mutants.json``)."""
    from ..mutation import MutantRecord, mutants_frame, survivors

    path = paths.data(folder).liveness_mutants
    if not path.is_file():
        return []
    rows = read_records(path, MutantRecord)
    left = survivors(rows)
    lines = [
        "**Mutants** (`python -m approval_compaction liveness-mutants`: each plausible "
        "simplification of the patch, in the patched SDK, against the regression test):",
        "",
        markdown_table(mutants_frame(rows).droplevel("fix"), cell=str),
        "",
    ]
    if left:
        why = [
            WHY_IT_SURVIVES.get(name, "the test does not show what that part is for")
            for name in left
        ]
        lines += [f"What survives leaves every case of the test passing: {'; '.join(why)}.", ""]
    return lines


def matrix_line(matrix: dict[str, Any]) -> str:
    """How many of the sixteen cases hold every invariant on the patched SDK."""
    records = matrix["records"]
    cases = {(r["runner"], r["decision"], r["compaction"], r["state_boundary"]) for r in records}
    broken = {
        (r["runner"], r["decision"], r["compaction"], r["state_boundary"])
        for r in records
        if r["holds"] is False
    }
    invariants = sorted({r["invariant"] for r in records})
    return (
        f"{len(cases) - len(broken)} of {len(cases)} cases hold all {len(invariants)} "
        f"invariants ({', '.join(f'`{i}`' for i in invariants)})"
    )


def proofs_frame(
    outcomes: Sequence[dict[str, Any]], matrix: dict[str, Any], suite: dict[str, Any]
) -> pd.DataFrame:
    """The patch's proofs, one row each: the regression test on the release and patched (its
    failures by kind), the original bug's sixteen cases on the patched SDK, and the SDK's own
    test of the documented ``previous_response_id`` limit on each."""
    rows: dict[str, str] = {}
    for sdk in ("released", "patched"):
        rows[f"{paths.LIVENESS_TEST.name}, {sdk}"] = failed_by_situation(outcomes, sdk)
    rows["the original bug's sixteen cases, patched"] = matrix_line(matrix).split(" (")[0]
    for sdk, found in suite.get("documented", {}).items():
        passed = sum(1 for outcome in found["tests"].values() if outcome == "passed")
        rows[f"the SDK's own test of previous_response_id mode's limit, {sdk}"] = (
            f"{passed} of {len(found['tests'])} cases passed"
        )
    return pd.DataFrame({"result": rows}).rename_axis("proof")


def liveness_lines(patched: dict[str, Any]) -> list[str]:
    """The patched SDK's liveness runs: each situation's lengths, and the tally of the runs in
    the modes the patch is for and in the others."""
    runs = [LivenessRun.from_json(r) for r in patched["runs"]]
    version = runs[0].sdk_version if runs else ""
    lines = []
    for mode in sorted({r.mode for r in runs}):
        found, refused = _lengths(runs, version, mode), _refused(runs, version, mode)
        for situation in (*SITUATIONS, "clean"):
            kept, sent = found.get(situation, ([], 0))
            lines.append(
                f"- `{mode}`, {situation}: {' '.join(map(str, kept))} "
                f"({sent} turns send an unpaired item, {refused.get(situation, 0)} refused)"
            )
    broken = broken_runs(runs)
    for covered in (True, False):
        mine = [r for r in runs if (r.mode in PATCHED_MODES) == covered]
        if not mine:
            continue
        stuck = sorted(
            {k[0] for k in broken if (k[2] in PATCHED_MODES) == covered}, key=_situation_order
        )
        kept = sum(
            1 for r in mine if (r.scenario, r.sdk_version, r.mode, r.workaround) not in broken
        )
        modes = ", ".join(f"`{m}`" for m in sorted({r.mode for r in mine}))
        lines.append(
            f"- in {modes}: {kept} of {len(mine)} runs (the situations and the sixteen cases "
            "continued) keep `session_usable` (no later turn refused), `compaction_runs` and "
            "`history_bounded`" + (f"; stuck: {', '.join(stuck)}" if stuck else "")
        )
    return lines


def _situation_order(name: str) -> tuple[int, str]:
    order = (*SITUATIONS, "clean")
    return (order.index(name) if name in order else len(order), name)


def sdk_test_link(version: str, test: str) -> str:
    """A test of the SDK's own suite (``tests/x.py::name``) as a link to its file at the
    release's tag: it leads somewhere once pasted into a thread."""
    file = test.split("::")[0]
    return f"[`{test}`]({REPOSITORY}/blob/{tag(version)}/{file})"


def limit_lines(suite: dict[str, Any], patched: dict[str, Any]) -> list[str]:
    """What the patch leaves alone: explicit ``previous_response_id`` mode with a dead item
    pinned, as the SDK documents it (its class docstring, on each SDK) and tests it (the
    outcomes of the test that pins it, on each SDK), and what it costs (the patched runs)."""
    documented = suite.get("documented", {})
    said = [
        f"{sdk}: the docstring {'says so' if found['docstring'] else 'does not say so'}, "
        f"{sum(1 for o in found['tests'].values() if o == 'passed')} of {len(found['tests'])} "
        "of the test's cases passed"
        for sdk, found in documented.items()
    ]
    runs = [LivenessRun.from_json(r) for r in patched["runs"]]
    stuck = sorted(
        {k[0] for k in broken_runs(runs) if k[2] == "previous_response_id"}, key=_situation_order
    )
    return [
        "**Not patched: explicit `previous_response_id` mode.** With a call or request nobody "
        "will answer pinned, the replaced suffix is partial, and a response chain cannot scope a "
        "summary to it, so the SDK returns and never compacts that session again.",
        "",
        f'The class docstring documents it ("{DOCUMENTED_LIMIT}") and '
        f"{sdk_test_link(str(suite['base']), DOCUMENTED_TEST)} pins it ("
        + "; ".join(said)
        + "), so it is the maintainers' contract, not a bug to patch.",
        "",
        f"Its consequence, on the patched SDK too: {', '.join(stuck) or 'no situation'} grow for "
        "ever (the lengths below). The advice: use `auto` (the default; it compacts a partial "
        "suffix in input mode) or `input`.",
    ]


def build(folder: Path = paths.DATA) -> str:
    """The whole comment, from the result files under ``folder``."""
    files = paths.data(folder)
    liveness = read_json(files.liveness, dict)
    test = read_json(files.liveness_patch_test, dict)
    suite = read_json(files.liveness_patch_suite, dict)
    matrix = read_json(files.liveness_patch_matrix, dict)
    runs = read_json(files.liveness_patch_runs, dict)
    http = read_json(files.liveness_patch_http, dict)
    base = str(test["base"])
    name = paths.LIVENESS_TEST.name
    patch = paths.LIVENESS_PATCH.read_text()
    return "\n".join(
        [
            f"**`{PACKAGE}` {base} can stop compacting a session for good.** Depending on the "
            "compaction mode and on how the compaction endpoint answers, automatic compaction "
            "never runs again after an approval nobody answers, a lost tool output, or an "
            "unanswered hosted MCP approval request; the stored history then grows with every "
            "turn. The tables below say which.",
            "",
            "A store an earlier release left an orphan output in (an output without its call) is "
            "worse off: the SDK sends that output at every later turn, and the API refuses it "
            "(`No tool call found for function call output`, HTTP 400), so the user cannot go on "
            "with that session at all.",
            "",
            "The regression test below runs each situation against two compaction endpoints: "
            "`keeps_users` answers with the user's messages kept, then the summary, as the API's "
            "stand-in does; `summary_only` answers with a summary alone, the shape of the SDK's "
            "own test fakes (whether `responses.compact` ever answers so, no public source says).",
            "",
            "With a compaction hook that always says yes "
            f'(`compaction_mode="input"`, `SQLiteSession`, {runs["turns"]} later turns; items '
            "counted without the user's messages):",
            "",
            markdown_table(failure_frame(liveness, test["outcomes"])),
            "",
            *(
                [
                    f"In the other compaction modes {liveness['newest']} also stops compacting, "
                    "or the API refuses the later turns (the same runs; the test runs in `input` "
                    "mode, and the proofs show the patched SDK in each mode). Stopping in "
                    "`previous_response_id` mode is the SDK's documented contract:",
                    "",
                    markdown_table(others),
                    "",
                ]
                if not (others := other_mode_frame(liveness)).empty
                else []
            ),
            "After an abandoned or lost call the bound depends on the endpoint's answer: the "
            "replaced suffix must start at a user message, so with no user message in the "
            "answer every older summary stays.",
            "",
            "The same situations with the SDK's `OpenAIResponsesModel` over HTTP to the stand-in, "
            f"on {base} and patched (stored items after each later turn):",
            "",
            markdown_table(http_frame(http)),
            "",
            f"**Reproduce in one line.** Save the test below as `{name}` and run:",
            "",
            fence(one_line(base), "sh"),
            "",
            f"<details><summary>Regression test: <code>{name}</code></summary>",
            "",
            fence(upstream_test(paths.LIVENESS_TEST.read_text()).rstrip("\n"), "python"),
            "",
            "</details>",
            "",
            "**Proposed patch.**",
            "",
            "1. The replaced suffix may also start at an earlier compaction item (one that no "
            "reasoning item right before it is tied to, as the third test pins): a summary "
            "belongs to no tool or "
            "reasoning group, and the next summary replaces it. The call itself is never "
            "removed, so a saved `RunState` resumed later (the second test) still stores its "
            "output with its call.",
            "2. A compaction session's history is pruned history, as with "
            "`SessionSettings.limit`: a stored output whose call is gone is left out of the model "
            "input (`drop_orphan_function_calls`' `output_pruning_indexes`), so such a store "
            "stops sending it (the output stays stored, never sent).",
            "3. An unanswered hosted MCP approval request is treated as the pinned call is: the "
            "replaced suffix starts at a user message (or summary) after the latest one, rather "
            "than the compaction returning. The request stays stored and is never sent to the "
            "compaction endpoint, so a response a later resume appends still pairs with it (the "
            "second test's `mcp` cases); a request with nothing after it still waits, as "
            "`test_pending_hosted_mcp_approval_defers_automatic_compaction` expects.",
            "",
            *limit_lines(suite, runs),
            "",
            "<details><summary>The patch (<code>git apply</code> in the SDK's repository)"
            "</summary>",
            "",
            fence(patch.rstrip("\n"), "diff"),
            "",
            "</details>",
            "",
            "**Proofs** (each run in a scratch environment with the patch applied):",
            "",
            "- the test, without and with the patch: " + "; ".join(tally_lines(test["outcomes"])),
            "- the SDK's own tests that touch compaction or approvals, with the new test, "
            + where_suite_ran(base, suite)
            + ":",
            *[f"  {line}" for line in suite_lines(suite)],
            f"- the original bug stays fixed: {matrix_line(matrix)}",
            "- the liveness runs on the patched SDK, stored items after each later turn "
            "(without the user's messages):",
            *[f"  {line}" for line in liveness_lines(runs)],
            "",
            *mutant_lines(folder),
        ]
    )


def write(path: Path = paths.DATA_FILES.upstream_liveness) -> Path:
    text = build(path.parent)
    if github_length(text) > GITHUB_LIMIT:
        raise InvestigationError(
            f"{path.name} would be {github_length(text)} characters, over one comment's "
            f"{GITHUB_LIMIT}"
        )
    write_atomic(path, text)
    return path


def command(args: argparse.Namespace) -> int:
    """``upstream-liveness``: write the comment from the committed data."""
    path = write(Path(args.output))
    print(f"wrote {path} ({github_length(path.read_text())} characters)")
    return 0
