"""The paste-ready report: GitHub markdown that parses, folds identical cases, fits a comment."""

from __future__ import annotations

import dataclasses
import fnmatch
import importlib.metadata
import re
import shlex
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from approval_compaction import cli
from approval_compaction.analysis.invariants import INVARIANTS, judge
from approval_compaction.analysis.matrix import MatrixRecord
from approval_compaction.formats.markdown import github_length
from approval_compaction.formats.records import read_records
from approval_compaction.lab import commands, paths
from approval_compaction.lab.findings.load import Findings
from approval_compaction.lab.findings.matrix import seen
from approval_compaction.lab.findings.outcomes import outcome_frame
from approval_compaction.lab.findings.tables import affected_frame
from approval_compaction.lab.share.report import (
    GITHUB_LIMIT,
    ReportTooLongError,
    VersionMismatchError,
    build_report,
    case_report,
    environment,
    evidence_body,
    write_report,
)
from approval_compaction.lab.share.snippet import one_line
from approval_compaction.openai_agents.harness import run_matrix
from approval_compaction.study.capture import CaseRun
from approval_compaction.study.scenario import select_cases


def gfm() -> MarkdownIt:
    """CommonMark plus GitHub's tables and strikethrough (linkify needs an extra package)."""
    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


@pytest.fixture(scope="module")
def runs() -> list[CaseRun]:
    """All sixteen cases, run once for the module."""
    return run_matrix()


@pytest.fixture(scope="module")
def bad_labels(runs: list[CaseRun]) -> list[str]:
    return [run.case.label for run in runs if judge(run).violations]


@pytest.fixture(scope="module")
def full_path(
    runs: list[CaseRun], tmp_path_factory: pytest.TempPathFactory, committed: Findings
) -> Path:
    """The full-matrix report, written with its heatmap to a temporary folder, with everything
    the ``report`` command adds (the cases over HTTP, the sweep's severities, the fix release)."""
    from approval_compaction.openai_agents.wiring import responses_backend

    output = tmp_path_factory.mktemp("full") / "report.md"
    wire = run_matrix(backend=responses_backend)
    report = build_report(runs, output=output, wire_runs=wire, committed=committed)
    write_report(report, output)
    return output


@pytest.fixture(scope="module")
def full(full_path: Path) -> str:
    return full_path.read_text()


def details_blocks(text: str) -> dict[str, list[Token]]:
    """The tokens inside each evidence ``<details>`` block, keyed by the case in its summary."""
    blocks: dict[str, list[Token]] = {}
    current: list[Token] | None = None
    for token in gfm().parse(text):
        if token.type == "html_block" and token.content.startswith("<details>"):
            label = re.search(r"<summary><code>([^<]+)</code>", token.content)
            if label is not None:  # other blocks fold the full tables or the test
                current = blocks.setdefault(label.group(1), [])
        elif token.type == "html_block" and token.content.startswith("</details>"):
            current = None
        elif current is not None:
            current.append(token)
    return blocks


def tables(text: str) -> list[list[list[str]]]:
    """Every table's rows as lists of cell texts (header row first), in order, unescaped."""
    found: list[list[list[str]]] = []
    rows: list[list[str]] | None = None
    for token in gfm().parse(text):
        if token.type == "table_open":
            rows = []
        elif token.type == "table_close" and rows is not None:
            found.append(rows)
            rows = None
        elif token.type == "tr_open" and rows is not None:
            rows.append([])
        elif token.type == "inline" and rows:
            rows[-1].append(re.sub(r"\\(.)", r"\1", token.content))  # as GitHub shows it
    return found


def section(text: str, title: str) -> str:
    """The text under a ``###`` heading, up to the next one."""
    return text.split(f"### {title}\n", 1)[1].split("\n### ", 1)[0]


def header_versions(text: str) -> dict[str, str]:
    """The debug information as ``{name: version}``."""
    return dict(re.findall(r"^- `?([\w.-]+)`?: (\S+)$", section(text, "Debug information"), re.M))


def named_cases(text: str) -> list[str]:
    """The cases the evidence shows, or names as identical to the one it shows."""
    named: list[str] = []
    for line in text.split("### Evidence", 1)[1].splitlines():
        if line.startswith("<summary><code>"):
            named += re.findall(r"<code>([^<]+)</code>", line)
        elif line.startswith("The same faults"):
            named += re.findall(r"`([^`]+)`", line)
    return named


def test_report_folds_the_matrix_into_groups_of_identical_cases(full: str) -> None:
    """The folded table's rows stand for exactly the cases whose full rows are identical."""
    folded, matrix, wire = tables(section(full, "Matrix"))
    assert folded[0] == ["cases", "count", *INVARIANTS, "over HTTP"]
    assert matrix[0] == ["case", *INVARIANTS] and len(matrix) == 1 + 16
    verdicts = {row[0]: row[1:] for row in matrix[1:]}
    exceptions = {row[0]: row[3] for row in wire[1:]}
    covered: list[str] = []
    for name, count, *cells, over_http in folded[1:]:
        members = [label for label in verdicts if fnmatch.fnmatchcase(label, name)]
        assert len(members) == int(count), name
        assert all(verdicts[m] == cells for m in members), name
        assert {exceptions[m] for m in members} == {over_http.split(" ")[0]}, name
        assert all(re.search(r"\b(holds|VIOLATED|n/a)\b", cell) for cell in cells), name
        covered += members
    assert sorted(covered) == sorted(verdicts)
    assert len(folded) - 1 < len(verdicts), "identical cases should fold"
    assert len({tuple(row[2:]) for row in folded[1:]}) == len(folded) - 1, "a group split in two"


def test_report_folds_evidence_one_block_per_group_of_identical_cases(
    full: str, runs: list[CaseRun], bad_labels: list[str]
) -> None:
    """Each block shows one violating case and names the cases whose evidence is the same."""
    blocks = details_blocks(full)
    assert bad_labels, "the pinned release should violate in some case"
    body = {run.case.label: "\n".join(evidence_body(judge(run))) for run in runs}
    named: list[str] = []
    for label, tokens in blocks.items():
        lead = tokens[1].content
        same = re.findall(r"`([^`]+)`", lead) if lead.startswith("The same faults") else []
        assert all(body[other] == body[label] for other in same), label
        named += [label, *same]
        kinds = [t.type for t in tokens]
        assert kinds.count("table_open") >= 5, label  # the per-stage table and four stage tables
        assert any(t.type == "fence" and t.info == "diff" for t in tokens), label
    assert sorted(named) == sorted(bad_labels)
    assert len({body[label] for label in blocks}) == len(blocks), "two blocks are identical"
    assert len(blocks) < len(bad_labels), "identical evidence should fold"


def test_report_diff_shows_the_orphan_output_sent_with_the_next_turn(full: str) -> None:
    """Regression (openai-agents #5340): the next turn sends pending-c1's output without its call.

    The evidence must show it in the ``diff`` fence a maintainer unfolds.
    """
    for label, tokens in details_blocks(full).items():
        diffs = [t.content for t in tokens if t.type == "fence" and t.info == "diff"]
        assert any(
            re.search(r"^  function_call_output pending-c1: .*\[orphan output\]$", d, re.M)
            for d in diffs
        ), label


def test_report_header_names_the_release_the_runs_were_made_on(
    full: str, runs: list[CaseRun]
) -> None:
    versions = header_versions(full)
    assert versions["openai-agents"] == runs[0].sdk_version
    for package in ("openai", "pydantic"):
        assert versions[package] == importlib.metadata.version(package)
    assert re.fullmatch(r"3\.\d+", versions["Python"])
    assert re.search(r"^- OS family: \S+$", full, re.M)


def test_committed_report_header_agrees_with_the_committed_records() -> None:
    """data/report.md and data/matrix.json come from one `make run`: same release, same pins."""
    text = (paths.DATA / "report.md").read_text()
    versions = header_versions(text)
    recorded = {r.sdk_version for r in read_records(paths.DATA / "matrix.json", MatrixRecord)}
    assert recorded == {versions["openai-agents"]}
    assert one_line(versions["openai-agents"]) in text
    for package in ("openai", "pydantic"):
        assert versions[package] == importlib.metadata.version(package), package


@pytest.mark.parametrize(
    ("versions", "message"),
    [
        (["9.9.9"], "the runs are from openai-agents 9.9.9 but this interpreter has"),
        (["9.9.9", "9.9.10"], "the runs come from 2: 9.9.9, 9.9.10"),
    ],
    ids=["another-release", "two-releases"],
)
def test_report_refuses_runs_its_header_would_misdescribe(
    runs: list[CaseRun], versions: list[str], message: str
) -> None:
    relabelled = [
        dataclasses.replace(run, sdk_version=versions[i % len(versions)])
        for i, run in enumerate(runs[:2])
    ]
    with pytest.raises(VersionMismatchError, match=message):
        build_report(relabelled)


def test_report_is_identical_when_the_platform_differs() -> None:
    """No kernel build, Python patch release or host in the header: machines agree byte for byte."""
    pinned = importlib.metadata.version("openai-agents")
    here = environment(pinned)
    other = environment(pinned, python=lambda: "3.11.99", system=lambda: "Linux")
    assert other == {**here, "Python": "3.11", "OS family": "Linux"}
    assert environment(pinned, python=lambda: "3.11.7", system=lambda: "Linux") == other
    darwin = environment(pinned, python=lambda: "3.12.1", system=lambda: "Darwin")
    assert darwin["OS family"] == "Darwin"


def test_report_reproduces_in_one_line_with_the_test_it_carries(full: str) -> None:
    """The first command runs the carried test on the runs' release; the test is the upstream
    form, under the file name the command runs."""
    reproduce = section(full, "Repro steps")
    fences = [t for t in gfm().parse(reproduce) if t.type == "fence"]
    assert fences[0].info == "sh"
    assert fences[0].content.strip() == one_line(header_versions(full)["openai-agents"])
    assert fences[1].info == "python"
    assert fences[1].content.rstrip("\n") == paths.REGRESSION_TEST.read_text().rstrip("\n")
    name = shlex.split(fences[0].content)[-1]
    assert f"save it as `{name}`" in reproduce
    assert "https://github.com/openai/openai-agents-python/issues/5340" in reproduce


def test_report_opens_with_the_api_error_the_user_meets(full: str) -> None:
    """The bug's description opens with the error texts, verbatim: the message the SDK's own
    model raised over HTTP is among them, before anything else is said."""
    from approval_compaction.openai_agents.wiring import responses_backend

    observed = outcome_frame(run_matrix(select_cases("compaction=on"), backend=responses_backend))
    messages = {m.split(" - ", 1)[1] for m in observed["message"]}
    assert len(messages) == 1
    describe = section(full, "Describe the bug")
    opening = next(t for t in gfm().parse(describe) if t.type == "fence")
    assert opening.info == "text" and describe.startswith("\n```text")
    assert messages.pop() in opening.content


def test_report_names_the_release_that_fixes_it(
    full: str, runs: list[CaseRun], committed: Findings
) -> None:
    fixed = committed.fixed_in
    assert fixed is not None, "the committed data should hold a fixing release"
    describe = section(full, "Describe the bug")
    assert f"`openai-agents` {fixed} fixes these cases" in describe
    assert "A separate comment on compaction liveness" in describe  # the fix's scope
    assert f"with `openai-agents=={fixed}` in its place it passes" in section(full, "Repro steps")
    assert "fixes these cases" not in build_report(runs[:1]).text


@pytest.mark.parametrize(
    "spec",
    ["compaction=on,decision=reject", "decision=reject|approve,runner=run_streamed", None],
    ids=["two-fields", "alternatives", "no-filter"],
)
def test_report_command_selects_the_same_cases(spec: str | None, tmp_path: Path) -> None:
    """The command in the report, parsed by the CLI, selects the cases the report ran."""
    cases = select_cases(spec)
    runs = run_matrix(cases[:1])  # one case is enough to write the header
    text = build_report(runs, spec=spec, output=tmp_path / "out.md").text
    fences = [t for t in gfm().parse(text) if t.type == "fence" and t.info == "sh"]
    assert fences[-1].content.startswith("make setup\n")
    words = shlex.split(fences[-1].content.strip().splitlines()[-1])
    assert words[:3] == [".venv/bin/python", "-m", "approval_compaction"]
    args = cli.parser().parse_args(words[3:])
    assert args.handler is commands._report
    assert select_cases(args.case) == cases
    assert args.output == "out.md"


def test_report_full_matrix_fits_a_github_comment_whole(full: str, bad_labels: list[str]) -> None:
    assert github_length(full) <= GITHUB_LIMIT
    assert "Left out" not in full
    assert sorted(named_cases(full)) == sorted(bad_labels)


def test_report_drops_evidence_last_group_first_and_says_so(
    runs: list[CaseRun], bad_labels: list[str]
) -> None:
    """Across limits from tight to loose: within the limit, later groups dropped, and named."""
    whole = build_report(runs)
    shown = list(details_blocks(whole.text))
    length = github_length(whole.text)
    kept_counts = []
    for limit in range(length - 12_000, length + 1, 500):
        try:
            report = build_report(runs, limit=limit)
        except ReportTooLongError:
            continue
        kept = list(details_blocks(report.text))
        assert github_length(report.text) <= limit
        assert kept == shown[: len(kept)]
        named = named_cases(report.text)
        assert sorted([*report.left_out, *named]) == sorted(bad_labels)
        note = [line for line in report.text.splitlines() if line.startswith("Left out")]
        if report.left_out:
            assert "last group first" in note[0]
            assert re.findall(r"`([^`]+)`", note[0]) == list(report.left_out)
        else:
            assert note == []
        kept_counts.append(len(kept))
    assert kept_counts == sorted(kept_counts)
    assert kept_counts[0] == 0 and kept_counts[-1] == len(shown)
    assert any(0 < n < len(shown) for n in kept_counts)


def test_report_too_long_without_evidence_is_an_error(runs: list[CaseRun]) -> None:
    with pytest.raises(ReportTooLongError, match="over the limit of 1,000"):
        build_report(runs, limit=1_000)


def test_report_is_byte_identical_across_runs(full_path: Path, tmp_path: Path) -> None:
    """A second, separate run of all sixteen cases through the CLI writes the same bytes."""
    output = tmp_path / "report.md"
    assert cli.main(["report", "--output", str(output)]) == 0
    assert output.read_bytes() == full_path.read_bytes()
    heatmap = "report-heatmap.png"
    assert (tmp_path / heatmap).read_bytes() == (full_path.parent / heatmap).read_bytes()


def test_report_writes_the_heatmap_beside_it_and_links_no_image(tmp_path: Path) -> None:
    """A relative image link breaks in an issue: the report says how to attach the PNG instead."""
    output = tmp_path / "share" / "issue.md"
    written = write_report(
        build_report(run_matrix(select_cases("runner=run")), output=output), output
    )
    assert written == [tmp_path / "share" / "issue-heatmap.png", output]
    text = output.read_text()
    images = [
        child
        for token in gfm().parse(text)
        if token.type == "inline"
        for child in token.children or []
        if child.type == "image"
    ]
    assert images == [] and "![" not in text
    assert "the image `issue-heatmap.png`, written beside this report" in text
    assert "drag" not in text and "from the clone" not in text
    assert written[0].read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_report_to_stdout_links_no_image(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["report", "--case", "runner=run,decision=approve,compaction=on"]) == 0
    text = capsys.readouterr().out
    assert "![" not in text and ".png" not in text
    assert named_cases(text) == ["run/approve/on/json", "run/approve/on/memory"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["report", "--case", "decision=maybe"], "error: unknown decision 'maybe'"),
        (["report", "--output", "."], "error: --output . is a folder, not a file"),
    ],
    ids=["bad-filter", "output-is-folder"],
)
def test_report_cli_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


def test_report_explains_every_invariant_by_its_one_meaning(full: str) -> None:
    from approval_compaction.analysis.invariants import DEFINITIONS, LIVENESS

    listed = section(full, "Expected behavior")
    assert [line for line in listed.splitlines() if line.startswith("- ")] == [
        f"- `{i.name}`: {i.meaning}" for i in (*DEFINITIONS, *LIVENESS)
    ]


def test_report_shows_what_the_user_sees_over_the_wire(committed: Findings) -> None:
    from approval_compaction.openai_agents.wiring import responses_backend

    spec = "runner=run,decision=approve,state_boundary=json"
    cases = select_cases(spec)
    wire = run_matrix(cases, backend=responses_backend)
    scripted, committed = run_matrix(cases), committed
    assert committed.releases is not None
    text = build_report(scripted, spec=spec, wire_runs=wire, committed=committed).text
    told = tables(section(text, "What the user sees"))
    found = seen(wire, scripted)
    counts = {row[0]: row[1] for row in told[0][1:]}
    assert counts["cases run over HTTP"] == str(found.cases)
    assert counts["cases ending with an error"] == str(found.failing)
    assert [row[0] for row in told[1][1:]] == [f.message for f in found.failures]
    opening = section(text, "Describe the bug")
    for error in committed.errors_met:  # every text a user can meet, so a search finds it
        assert all(f"{error.exception}: {t}" in opening for t in error.texts)


def test_case_report_runs_the_cases_scripted_and_over_http(committed: Findings) -> None:
    """``report`` and ``share --case`` build one report: the cases on the scripted model, the
    same cases over HTTP, against the committed findings."""
    from approval_compaction.openai_agents.wiring import responses_backend

    spec = "runner=run,decision=reject,state_boundary=json"
    cases = select_cases(spec)
    wire = run_matrix(cases, backend=responses_backend)
    by_hand = build_report(run_matrix(cases), spec=spec, wire_runs=wire, committed=committed)
    report = case_report(cases, spec, None)
    assert (report.text, report.heatmap) == (by_hand.text, None)


def test_report_says_what_a_user_meets_in_each_compaction_mode(
    runs: list[CaseRun], committed: Findings
) -> None:
    assert committed.releases is not None
    text = build_report(runs, committed=committed).text
    shown = tables(section(text, "Describe the bug"))[1]
    assert [row[0] for row in shown[1:]] == list(affected_frame(committed.releases).index)
    assert shown[0][2:] == ["input", "auto (default)", "previous_response_id"]
    assert "No tool output found for function call pending-c1." in text


def test_report_without_wire_runs_has_no_user_section(runs: list[CaseRun]) -> None:
    assert "### What the user sees" not in build_report(runs[:2]).text
