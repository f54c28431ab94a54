"""Report: the investigation as one paste for an issue thread, in GitHub-flavoured markdown.

A maintainer asking "can you show us?" gets the finding with the API's exact error text and the
release that fixes it, the versions of the run the report shows, a one-line command that runs the
regression test without cloning anything, and the matrix. Cases that read the same are folded:
the matrix shows one row per group of cases with identical verdicts and the same answer over HTTP
(the sixteen rows are under ``<details>``), and the evidence shows one case per group of
violating cases that ``findings.folding`` finds identical stage by stage, naming the others.
GitHub strips CSS, so every cell carries a word and a marker. The heatmap PNG is written beside
the report but not linked: a relative link does not resolve in an issue, so the report says how
to attach it.

A GitHub comment holds at most 65,536 characters. When the full report is longer, evidence
blocks are dropped last group first, and the report names the cases it left out. ``case_report``
runs the cases it shows on the installed SDK (its folder reached by name, ``sdks``), as
``report`` and ``share --case`` do.
"""

from __future__ import annotations

import html
import importlib.metadata
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ...analysis import vocabulary
from ...analysis.invariants import JudgedRun, invariant, judge_all
from ...analysis.matrix import records
from ...analysis.table import pivot, to_frame
from ...display.frames import diff_text
from ...display.views import scope, stage_diff, stage_summary, stage_table
from ...errors import InvestigationError
from ...formats.files import write_atomic
from ...formats.markdown import GITHUB_LIMIT, code, escape, fence, github_length, markdown_table
from ...sdks import sdk_module
from ...study.capture import OK, STAGES, CaseRun
from ...study.scenario import CHOICES, FIELD_NAMES, Case, parse_filter
from .. import paths
from ..findings.folding import PARTS, block_order, fold
from ..findings.load import Findings, api_errors, load_findings
from ..findings.matrix import MatrixFinding, matrix_finding, seen
from ..findings.outcomes import outcome_frame, outcome_of
from ..findings.releases import ErrorMet, errors_met, merge_errors
from ..findings.tables import (
    affected_frame,
    error_texts,
    errors_frame,
    liveness_frame,
    mechanism_frame,
    seen_counts,
    seen_frame,
    verdict_frame,
)
from ..releases.crosscheck import JUDGED
from ..releases.heatmap import heatmap, matrix_scope, png_bytes
from ..releases.meeting import all_meetings
from ..releases.versions import PACKAGE, version_key
from .results import matrix_markdown
from .snippet import ISSUE, TEST_NAME, one_line, regression_test

PACKAGES = ("openai", "pydantic")  # beside openai-agents, whose version the runs carry
TITLE = (
    "OpenAIResponsesCompactionSession compacts a tool call awaiting approval: "
    "HTTP 400 at the pause or the next turn"
)
OVER_HTTP = "over HTTP"


class ReportTooLongError(InvestigationError):
    """A report that exceeds the limit even with every evidence block left out."""


class VersionMismatchError(InvestigationError):
    """Runs whose release the header could not describe: several, or not the one installed."""


@dataclass(frozen=True)
class Report:
    """The markdown text, the heatmap PNG written beside it (None without an output), what it
    left out."""

    text: str
    heatmap: bytes | None
    left_out: tuple[str, ...]


def run_version(runs: Sequence[CaseRun]) -> str:
    """The one ``openai-agents`` release the runs were made on."""
    versions = sorted({run.sdk_version for run in runs}, key=version_key)
    if len(versions) != 1:
        raise VersionMismatchError(
            f"a report shows one release, the runs come from {len(versions)}: "
            + (", ".join(versions) or "none")
        )
    return versions[0]


def environment(
    sdk_version: str,
    python: Callable[[], str] = platform.python_version,
    system: Callable[[], str] = platform.system,
    version: Callable[[str], str] = importlib.metadata.version,
) -> dict[str, str]:
    """The run's ``openai-agents``, the ``openai`` and ``pydantic`` beside it, Python and the OS.

    The runs are made in this interpreter, so its packages are theirs, as long as its
    ``openai-agents`` is the runs' release (else the header would describe another run). Nothing
    that differs between machines that run the same pins: no kernel build, no patch release of
    Python, no processor, so the committed report is the same on every machine.
    """
    installed = version(PACKAGE)
    if installed != sdk_version:
        raise VersionMismatchError(
            f"the runs are from {PACKAGE} {sdk_version} but this interpreter has {installed}: "
            "its openai and pydantic would not be theirs"
        )
    major, minor, *_ = python().split(".")
    versions = {"Python": f"{major}.{minor}", f"`{PACKAGE}`": sdk_version}
    versions.update({f"`{name}`": version(name) for name in PACKAGES})
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


def attach_hint(output: Path) -> str:
    """What the heatmap is and where it is, in plain words that read the same whether or not
    the person posting the report attaches it."""
    return (
        f"The same matrix as a heatmap is the image `{heatmap_path(output).name}`, written "
        "beside this report; it is shown here only when attached to the comment."
    )


def identical_rows(frame: pd.DataFrame) -> list[list[str]]:
    """The frame's index labels, grouped by identical rows, groups in order of first row."""
    found: dict[tuple[str, ...], list[str]] = {}
    for label, row in frame.iterrows():
        found.setdefault(tuple(str(v) for v in row.tolist()), []).append(str(label))
    return list(found.values())


def group_name(labels: Sequence[str], cases: Sequence[Case]) -> str:
    """A group of cases as a pattern (``*/*/on/*``) when its shared choices select exactly it
    among ``cases``; else its labels."""
    chosen = [c for c in cases if c.label in labels]
    values = {name: {getattr(c, name) for c in chosen} for name in FIELD_NAMES}
    shared = {name: next(iter(v)) for name, v in values.items() if len(v) == 1}
    selected = {c.label for c in cases if all(getattr(c, n) == v for n, v in shared.items())}
    if len(labels) > 1 and selected == set(labels):
        return "/".join(shared.get(name, "*") for name in FIELD_NAMES)
    return ", ".join(labels)


def seen_over_http(wire: Sequence[JudgedRun]) -> dict[str, str]:
    """Each case's end over HTTP in a few words: ``ok``, or the exception, status and stage."""
    ends = map(outcome_of, wire)
    return {
        o.case: OK if o.exception == OK else f"{o.exception} (HTTP {o.http_status}) at {o.stage}"
        for o in ends
    }


def case_frame(table: pd.DataFrame, wire: Sequence[JudgedRun]) -> pd.DataFrame:
    """One row per case: its verdicts, and what the user saw over HTTP when it was run so."""
    if not wire:
        return table
    seen = seen_over_http(wire)
    return table.assign(**{OVER_HTTP: [seen.get(str(c), "not run") for c in table.index]})


def folded(frame: pd.DataFrame, cases: Sequence[Case]) -> pd.DataFrame:
    """One row per group of cases whose rows are identical, named by ``group_name``."""
    groups = identical_rows(frame)
    rows = [frame.loc[labels[0]] for labels in groups]
    index = pd.Index([group_name(labels, cases) for labels in groups], name="cases")
    counts = pd.Series([len(labels) for labels in groups], index=index, name="count")
    return pd.concat([counts, pd.DataFrame(rows).set_axis(index)], axis=1)


def evidence_body(judged: JudgedRun) -> list[str]:
    """A violating case's evidence: its faults, stage tables and each stage's diff."""
    run, faults = judged.run, judged.violations
    scripted = (
        " The scripted model answers the next turn that the API refuses (`next_turn_accepted` "
        "is the rules' prediction), so what it stores after the next turn is not what a user's "
        "store holds: over HTTP the turn ends at the 400, and the orphan output stays stored."
        if run.model == "scripted" and any(v.invariant == "next_turn_accepted" for v in faults)
        else ""
    )
    parts = [
        "\n".join(f"- {code(v.invariant)}: {escape(v.detail)}" for v in faults),
        "",
        f"**Per stage ({escape(scope(run))}):** items stored when it ended, requests sent, tool "
        f"dispatches, pairing faults.{scripted}",
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
    return parts


def evidence_groups(bad: Sequence[JudgedRun]) -> list[list[JudgedRun]]:
    """Violating cases grouped as ``findings.folding`` folds them: identical verdicts and, per
    stage, identical stored items, model and compaction inputs, dispatches and outcomes."""
    by_label = {j.run.case.label: j for j in bad}
    return [[by_label[label] for label in f.cases] for f in fold(bad, PARTS)]


def evidence(group: Sequence[JudgedRun]) -> str:
    """One group's evidence folded in a ``<details>`` block, shown for its first case."""
    first, others = group[0], [j.run.case.label for j in group[1:]]
    same = f"; {len(others)} more identical" if others else ""
    parts = [
        "<details>",
        f"<summary><code>{html.escape(first.run.case.label)}</code>: "
        f"{len(first.violations)} of {len(first.verdicts)} invariants violated{same}</summary>",
        "",
    ]
    if others:
        names = ", ".join(code(label) for label in others)
        parts += [f"The same faults, stage tables and diffs in {names}.", ""]
    parts += [*evidence_body(first), "", "</details>"]
    return "\n".join(parts)


def every_case(judged: Sequence[JudgedRun], wire: Sequence[JudgedRun], table: pd.DataFrame) -> str:
    """The unfolded tables, one row per case, in a ``<details>`` block."""
    parts = [
        "<details>",
        f"<summary>All {len(judged)} cases, one row each</summary>",
        "",
        matrix_markdown(table),
    ]
    if wire:
        frame = outcome_frame(wire).drop(columns=["model"]).fillna("")
        scope = matrix_scope([j.run for j in wire]).title
        parts += ["", f"Over HTTP ({scope}):", "", markdown_table(frame, cell=vocabulary.marked)]
    return "\n".join([*parts, "", "</details>"])


def reproduce(
    version: str, fixed: str | None, test: str, spec: str | None, output: Path | None, fails: bool
) -> list[str]:
    """The line that runs the regression test without a clone, the test, the report's command."""
    said = [f"on {PACKAGE} {version} it fails"] if fails else []
    said += [f"with `{PACKAGE}=={fixed}` in its place it passes"] if fixed else []
    outcome = f" ({'; '.join(said)})" if said else ""
    return [
        "### Repro steps",
        "",
        f"The test reproduces [openai/openai-agents-python#5340]({ISSUE}). Nothing to clone: save "
        f"it as `{TEST_NAME}` in an empty folder and run it with [uv](https://docs.astral.sh/uv/), "
        f"which builds a throwaway environment with these pins{outcome}.",
        "",
        fence(one_line(version), "sh"),
        "",
        f"<details><summary>{TEST_NAME} (pytest + pytest-asyncio, self-contained: scripted model, "
        "mocked compaction client, real SQLiteSession)</summary>",
        "",
        fence(test.rstrip("\n"), "python"),
        "",
        "</details>",
        "",
        "This report, in a clone of the approval-compaction repository:",
        "",
        fence("make setup\n" + command(spec, output), "sh"),
    ]


def user_view(judged: Sequence[JudgedRun], wire: Sequence[JudgedRun]) -> list[str]:
    """What the user sees: the same cases on the SDK's own Responses model over HTTP."""
    if not wire:
        return []
    found = seen(wire, judged)
    parts = [
        "",
        "### What the user sees",
        "",
        "The same cases on the SDK's own `OpenAIResponsesModel` and `responses.compact`, with a "
        "real `AsyncOpenAI` client talking HTTP (in-process) to a local stand-in that validates "
        "input as the API does:",
        "",
        markdown_table(seen_counts(found)),
    ]
    if found.failures:
        parts += ["", markdown_table(seen_frame(found))]
    return parts


EXPECTED = (
    "Automatic compaction leaves a call that waits for approval alone: it neither sends the "
    "call to `responses.compact` without its output nor summarises it away. After the human "
    "approves or rejects, the resumed turn and the next question are answered, and the stored "
    "history pairs every output with its call, and a call nobody will answer does not stop "
    "compaction for good. In terms of the runs, every case keeps each of these:"
)


def describe(
    runs: Sequence[CaseRun], committed: Findings | None, errors: Sequence[ErrorMet]
) -> list[str]:
    """The bug: every error text first, then where each is met, the releases and the fix."""
    texts = error_texts(errors, api_errors(runs))
    parts = ["### Describe the bug", ""]
    if texts:
        parts += [fence("\n".join(texts), "text"), ""]
    parts += [
        "A function tool with `needs_approval=True` pauses the run. When "
        "`OpenAIResponsesCompactionSession` compacts at that pause, the pending call goes to "
        "`responses.compact` without its output. Depending on `compaction_mode`, the pause "
        "itself raises, or the session later stores the call's output alone and the next "
        "question raises. A rejection is affected like an approval.",
        "",
        "The runs drove the public SDK API against a scripted model and, over HTTP, against a "
        "local stand-in of the Responses API that validates input as the API does; no real "
        "provider was called.",
    ]
    if errors:
        parts += ["", markdown_table(errors_frame(errors))]
    if committed is None or committed.releases is None:
        return parts
    parts += [
        "",
        "Every release, in each compaction mode (each release run in its own environment):",
        "",
        markdown_table(affected_frame(committed.releases)),
    ]
    if committed.fixed_in and committed.liveness and committed.verdicts:
        parts += [
            "",
            f"`{PACKAGE}` {committed.fixed_in} fixes these cases. The verdict per release "
            "says what each release still gets wrong, by kind: a bug, the SDK's documented "
            "contract, or an answer of the compaction endpoint no public source shows. The "
            "cases run with a compaction hook that always says yes; the default trigger is the "
            "doctor's check without a hook. A separate comment on compaction liveness has the "
            "test and a patch.",
            "",
            markdown_table(verdict_frame(committed.verdicts)),
            "",
            markdown_table(liveness_frame(committed.liveness)),
        ]
    mechanism = committed.mechanism
    if mechanism is not None and mechanism.old == run_version(runs):
        parts += [
            "",
            "Where in the SDK (read from each release's installed source):",
            "",
            markdown_table(mechanism_frame(mechanism)),
        ]
    return parts


def head(
    judged: Sequence[JudgedRun],
    table: pd.DataFrame,
    spec: str | None,
    output: Path | None,
    wire: Sequence[JudgedRun] = (),
    committed: Findings | None = None,
    test: str = "",
) -> str:
    """Everything before the evidence, in the SDK's issue template: describe the bug, debug
    information, repro steps, expected behaviour; then the matrix and what the user sees."""
    runs = [j.run for j in judged]
    version = run_version(runs)
    matrix: MatrixFinding = matrix_finding(records(judged))
    fixed = committed.fixed_in if committed else None
    cases = [run.case for run in runs]
    fails = any(c.violated for c in matrix.invariants if c.invariant in JUDGED)
    frame = case_frame(table, wire)
    groups = len(identical_rows(frame))
    own = errors_met(all_meetings(j.run for j in wire), [version])
    errors = merge_errors(committed.errors_met if committed else (), own)
    parts = [
        f"## {TITLE}",
        "",
        *describe(runs, committed, errors),
        "",
        "### Debug information",
        "",
        "\n".join(f"- {name}: {value}" for name, value in environment(version).items()),
        "",
        *reproduce(version, fixed, test, spec, output, fails),
        "",
        "### Expected behavior",
        "",
        EXPECTED,
        "",
        *[f"- {code(name)}: {invariant(name).meaning}" for name in table.columns],
        "",
        "### Matrix",
        "",
        f"The cases ran on {matrix_scope(runs).title}. "
        "A case is `runner/decision/compaction/state_boundary`"
        + (
            f"; the {len(runs)} cases fold into {groups} groups whose rows are identical "
            "(`*`: any value). "
            if len(runs) > 1
            else ". "
        )
        + f"{vocabulary.legend()} (not judged: the case failed or the release lacks it).",
        "",
        markdown_table(folded(frame, cases), cell=vocabulary.marked),
        "",
        every_case(judged, wire, table),
    ]
    if output is not None:
        parts += ["", attach_hint(output)]
    parts += user_view(judged, wire)
    skipped = [run for run in runs if run.error is not None or run.not_applicable is not None]
    if skipped:
        parts += ["", "Not judged:", ""]
        parts += [
            f"- {code(r.case.label)}: {escape(r.not_applicable or r.error or '')}" for r in skipped
        ]
    return "\n".join(parts)


def compose(head_text: str, blocks: Sequence[str], left_out: Sequence[str], limit: int) -> str:
    parts = [head_text, "", "### Evidence", ""]
    if not blocks and not left_out:
        parts.append("No case violates an invariant, so there is no evidence to show.")
    else:
        parts.append(
            "One block per group of violating cases with identical faults, stage tables and "
            "diffs, shown for its first case. Click to unfold: the stage tables, then each "
            "stage's stored history set against what it sent to the model."
        )
    for block in blocks:
        parts += ["", block]
    if left_out:
        names = ", ".join(code(label) for label in left_out)
        parts += [
            "",
            f"Left out to stay within GitHub's comment limit of {limit:,} characters "
            f"(evidence is dropped last group first): {names}. "
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
    committed: Findings | None = None,
    test_file: Path = paths.REGRESSION_TEST,
) -> Report:
    """The report for these runs, within ``limit`` characters as GitHub counts them.

    ``spec`` is the case filter the runs were selected with; ``output`` is where the report
    will be written (the heatmap goes beside it). ``wire_runs`` are the same cases over HTTP
    (what the user sees); ``committed`` are the findings of the committed data
    (``findings.load``): which releases reach the user how, the release that fixes the bug and
    where in the SDK; ``test_file`` is the regression test the report carries.
    """
    judged = judge_all(runs)
    table = pivot(to_frame(records(judged)))
    test = regression_test(test_file)
    head_text = head(judged, table, spec, output, judge_all(wire_runs), committed, test)
    groups = evidence_groups([j for j in judged if j.violations])
    blocks = [evidence(group) for group in groups]
    for kept in range(len(blocks), -1, -1):
        left_out = tuple(j.run.case.label for group in groups[kept:] for j in group)
        text = compose(head_text, blocks[:kept], left_out, limit)
        if github_length(text) <= limit:
            scope = matrix_scope([j.run for j in judged])
            image = png_bytes(heatmap(block_order(table), scope)) if output else None
            return Report(text=text, heatmap=image, left_out=left_out)
    raise ReportTooLongError(
        f"the report is {github_length(text):,} characters with every evidence block left out, "
        f"over the limit of {limit:,}"
    )


def case_report(cases: Sequence[Case], spec: str | None, output: Path | None) -> Report:
    """The report for ``cases`` (selected by the filter ``spec``) run now on the installed
    openai-agents: on the scripted model, and over HTTP to the stand-in (what the user sees),
    against the committed findings. The Python SDK's folder is reached by name (``sdks``)."""
    harness, wiring = sdk_module("python", "harness"), sdk_module("python", "wiring")
    return build_report(
        harness.run_matrix(cases),
        spec=spec,
        output=output,
        wire_runs=harness.run_matrix(cases, backend=wiring.responses_backend),
        committed=load_findings(),
    )


def write_report(report: Report, output: Path, replace: bool = True) -> list[Path]:
    """Write the heatmap, then the report, each atomically (without ``replace``, a file that
    exists is refused, not replaced)."""
    written = []
    if report.heatmap is not None:
        write_atomic(heatmap_path(output), report.heatmap, replace)
        written.append(heatmap_path(output))
    write_atomic(output, report.text, replace)
    return [*written, output]
