"""Report: the investigation as one paste for an issue thread, in GitHub-flavoured markdown.

A maintainer asking "can you show us?" gets the versions, the command that reproduces the
report, the matrix, and for each violating case its evidence folded in a ``<details>`` block:
the stage tables and each stage's stored history set against what it sent, in a ``diff``
fence. GitHub strips CSS, so every cell carries a word and a marker, and the heatmap is a PNG
written beside the report and linked from it.

A GitHub comment holds at most 65,536 characters. When the full report is longer, evidence
blocks are dropped last case first, and the report names the cases it left out.
"""

from __future__ import annotations

import html
import importlib.metadata
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .. import paths
from ..analysis import vocabulary
from ..analysis.invariants import JudgedRun, judge_all
from ..analysis.matrix import records
from ..analysis.outcomes import outcome_answer, outcome_frame
from ..analysis.table import pivot, to_frame
from ..display.frames import diff_text
from ..display.heatmap import heatmap, png_bytes
from ..display.views import stage_diff, stage_summary, stage_table
from ..errors import InvestigationError
from ..formats.files import write_atomic
from ..formats.markdown import code, escape, fence, github_length, markdown_table
from ..study.capture import STAGES, CaseRun
from ..study.scenario import CHOICES, parse_filter
from .results import matrix_markdown

GITHUB_LIMIT = 65_536
PACKAGES = ("openai-agents", "openai", "pydantic")
TITLE = "Compaction orphans a tool call awaiting approval: reproduction report"
MEANINGS = {
    "next_turn_input_paired": "the next turn's model input holds no output without its call",
    "resumed_input_paired": "the resumed turn's model input holds no output without its call",
    "compaction_input_complete": "no compaction request holds a call without its output",
    "compaction_input_paired": "no compaction request holds an output without its call",
    "stored_history_paired": "the history stored after the resume holds no output without its call",
    "decision_enforced": "the tool ran exactly as many times as it was approved",
    "next_turn_accepted": "the next turn's model request is answered: over HTTP no error is "
    "raised; on the scripted model the stand-in's rules accept its input",
}


class ReportTooLongError(InvestigationError):
    """A report that exceeds the limit even with every evidence block left out."""


@dataclass(frozen=True)
class Report:
    """The markdown text, the heatmap PNG it links (None when it links none), what it left out."""

    text: str
    heatmap: bytes | None
    left_out: tuple[str, ...]


def environment(
    python: Callable[[], str] = platform.python_version,
    system: Callable[[], str] = platform.system,
) -> dict[str, str]:
    """Python (major.minor), the pinned packages and the OS family.

    Nothing that differs between machines that run the same pins: no kernel build, no patch
    release of Python, no processor, so the committed report is the same on every machine.
    """
    major, minor, *_ = python().split(".")
    versions = {"Python": f"{major}.{minor}"}
    versions.update({f"`{name}`": importlib.metadata.version(name) for name in PACKAGES})
    versions["OS family"] = system() or "unknown"
    return versions


def canonical_filter(spec: str | None) -> str:
    """A case filter in the scenario's field and value order, so one selection reads one way."""
    wanted = parse_filter(spec)
    return ",".join(
        f"{name}={'|'.join(v for v in values if v in wanted[name])}"
        for name, values in CHOICES.items()
        if name in wanted
    )


def shown_path(path: Path) -> str:
    """The output as the command shows it: relative to the checkout, else only its name."""
    resolved = path.resolve()
    if resolved.is_relative_to(paths.ROOT):
        return resolved.relative_to(paths.ROOT).as_posix()
    return path.name


def command(spec: str | None, output: Path | None) -> str:
    """The command, run from the checkout, that writes this report again."""
    words = [".venv/bin/python -m approval_compaction report"]
    if canonical_filter(spec):
        words.append(f"--case '{canonical_filter(spec)}'")
    if output is not None:
        words.append(f"--output {shown_path(output)}")
    return " ".join(words)


def heatmap_path(output: Path) -> Path:
    """Where the heatmap PNG goes: beside the report, named after it."""
    return output.with_name(f"{output.stem}-heatmap.png")


def pattern(judged: Sequence[JudgedRun]) -> str:
    """A sentence naming one choice that picks out exactly the violating cases, if one does."""
    bad = {j.run.case for j in judged if j.violations}
    for name, values in CHOICES.items():
        chosen = {getattr(j.run.case, name) for j in judged}
        for value in values:
            cases = {j.run.case for j in judged if getattr(j.run.case, name) == value}
            if bad and len(chosen) > 1 and cases == bad:
                return f" The violating cases are exactly those with `{name}={value}`."
    return ""


def evidence(judged: JudgedRun) -> str:
    """One violating case folded in a ``<details>`` block: stage tables and diffs."""
    run, faults = judged.run, judged.violations
    parts = [
        "<details>",
        f"<summary><code>{html.escape(run.case.label)}</code>: "
        f"{len(faults)} of {len(judged.verdicts)} invariants violated</summary>",
        "",
        "\n".join(f"- {code(v.invariant)}: {escape(v.detail)}" for v in faults),
        "",
        "**Per stage:** items stored when it ended, requests sent, tool dispatches, pairing faults",
        "",
        markdown_table(stage_summary(run), cell=str),
    ]
    for name in STAGES:
        stage = run.stage(name)
        if stage is None:
            parts += ["", f"**{code(name)}:** not reached"]
            continue
        heading = f"**Stored history when {code(name)} ended**"
        parts += ["", heading, "", markdown_table(stage_table(run, name), cell=str)]
    for name in STAGES:
        stage = run.stage(name)
        if stage is None or not stage.model_inputs:
            continue
        parts += [
            "",
            f"**{code(name)}: the history stored before it against its last model request** "
            "(`-` only stored, `+` only sent)",
            "",
            fence(diff_text(stage_diff(run, name)), "diff"),
        ]
    parts += ["", "</details>"]
    return "\n".join(parts)


def user_view(
    judged: Sequence[JudgedRun], wire: Sequence[JudgedRun], releases: str | None
) -> list[str]:
    """The section on what the user sees: each case over HTTP, and the releases by severity."""
    if not wire and releases is None:
        return []
    parts = ["", "### What the user sees", ""]
    if wire:
        frame = outcome_frame(wire).drop(columns=["model"]).fillna("")
        parts += [
            "The same cases on the SDK's own `OpenAIResponsesModel` and `responses.compact`, "
            "with a real `AsyncOpenAI` client talking HTTP (in-process) to a local stand-in that "
            "validates input as the API does. " + escape(outcome_answer(wire, judged)),
            "",
            markdown_table(frame, cell=vocabulary.marked),
        ]
    if releases is not None:
        parts += ["", f"**Across releases** (`data/sweep.json`): {escape(releases)}"]
    return parts


def head(
    judged: Sequence[JudgedRun],
    table: pd.DataFrame,
    spec: str | None,
    output: Path | None,
    wire: Sequence[JudgedRun] = (),
    releases: str | None = None,
) -> str:
    """Everything before the evidence: finding, environment, command, matrix, invariants."""
    bad = [j for j in judged if j.violations]
    runs = [j.run for j in judged]
    parts = [
        f"## {TITLE}",
        "",
        f"**{len(bad)} of {len(runs)} cases violate at least one invariant.**{pattern(judged)}",
        "",
        "A function tool with `needs_approval=True` pauses the run, "
        "`OpenAIResponsesCompactionSession` over `SQLiteSession` compacts the pending call away, "
        "and after the resume its output is stored and sent without its call. A scripted model "
        "and a stand-in compaction client drive the public SDK API: no provider was called.",
        "",
        "### Environment",
        "",
        "\n".join(f"- {name}: {value}" for name, value in environment().items()),
        "",
        "### Reproduce",
        "",
        fence(
            "# in a clone of the approval-compaction repository\nmake setup\n"
            + command(spec, output),
            "sh",
        ),
        "",
        "### Matrix",
        "",
        "A case is `runner/decision/compaction/state_boundary`. "
        f"{vocabulary.legend()} (not judged: the case failed or the release lacks it).",
        "",
        matrix_markdown(table),
    ]
    parts += user_view(judged, wire, releases)
    skipped = [run for run in runs if run.error is not None or run.not_applicable is not None]
    if skipped:
        parts += ["", "Not judged:", ""]
        parts += [
            f"- {code(r.case.label)}: {escape(r.not_applicable or r.error or '')}" for r in skipped
        ]
    if output is not None:
        image = heatmap_path(output).name
        parts += [
            "",
            f"<!-- Before posting, drag {image} into the comment box to upload it. -->",
            f"![Heatmap of the matrix: {vocabulary.legend(symbols=True)}]({image})",
        ]
    parts += ["", "Invariants:", ""]
    parts += [f"- {code(name)}: {MEANINGS[name]}" for name in table.columns]
    return "\n".join(parts)


def compose(head_text: str, blocks: Sequence[str], left_out: Sequence[str], limit: int) -> str:
    parts = [head_text, "", "### Evidence for each violating case", ""]
    if not blocks and not left_out:
        parts.append("No case violates an invariant, so there is no evidence to show.")
    else:
        parts.append(
            "Click a case to unfold it: its stage tables, then each stage's stored history "
            "set against what it sent to the model."
        )
    for block in blocks:
        parts += ["", block]
    if left_out:
        names = ", ".join(code(label) for label in left_out)
        parts += [
            "",
            f"Left out to stay within GitHub's comment limit of {limit:,} characters "
            f"(evidence is dropped last case first): {names}. "
            "The command above writes the report with them.",
        ]
    return "\n".join(parts) + "\n"


def build_report(
    runs: Sequence[CaseRun],
    *,
    spec: str | None = None,
    output: Path | None = None,
    limit: int = GITHUB_LIMIT,
    wire_runs: Sequence[CaseRun] = (),
    releases: str | None = None,
) -> Report:
    """The report for these runs, within ``limit`` characters as GitHub counts them.

    ``spec`` is the case filter the runs were selected with; ``output`` is where the report
    will be written (it names the heatmap beside it; without it the report links no image).
    ``wire_runs`` are the same cases over HTTP (what the user sees); ``releases`` says which
    releases reach the user how (``severity_answer`` on the sweep).
    """
    judged = judge_all(runs)
    table = pivot(to_frame(records(judged)))
    head_text = head(judged, table, spec, output, judge_all(wire_runs), releases)
    bad = [j for j in judged if j.violations]
    blocks = [evidence(j) for j in bad]
    for kept in range(len(blocks), -1, -1):
        left_out = tuple(j.run.case.label for j in bad[kept:])
        text = compose(head_text, blocks[:kept], left_out, limit)
        if github_length(text) <= limit:
            image = png_bytes(heatmap(table)) if output else None
            return Report(text=text, heatmap=image, left_out=left_out)
    raise ReportTooLongError(
        f"the report is {github_length(text):,} characters with every evidence block left out, "
        f"over the limit of {limit:,}"
    )


def write_report(report: Report, output: Path) -> list[Path]:
    """Write the heatmap, then the report that links it, each atomically."""
    written = []
    if report.heatmap is not None:
        write_atomic(heatmap_path(output), report.heatmap)
        written.append(heatmap_path(output))
    write_atomic(output, report.text)
    return [*written, output]
