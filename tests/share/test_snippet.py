"""Snippet: the upstream comment, and the test as a maintainer would paste it."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import needs
import pytest
from factories import matrix_record

from approval_compaction.analysis.matrix import MatrixRecord
from approval_compaction.errors import InvestigationError
from approval_compaction.formats.records import read_records, records_json
from approval_compaction.lab import paths
from approval_compaction.lab.findings.liveness import (
    LivenessEra,
    LivenessEras,
    LivenessState,
)
from approval_compaction.lab.findings.load import Findings
from approval_compaction.lab.findings.matrix import matrix_finding
from approval_compaction.lab.findings.verdict import of
from approval_compaction.lab.releases.crosscheck import TEST_FILE
from approval_compaction.lab.share.snippet import (
    TEST_NAME,
    before_after,
    build,
    one_line,
    regression_test,
    upstream_test,
)


def test_regression_test_is_the_upstream_form_as_it_is() -> None:
    """The file the README and the snippet name carries no project variants or marks."""
    text = regression_test(TEST_FILE)
    assert text == TEST_FILE.read_text()
    assert "approval_compaction" not in text
    assert "xfail" not in text
    assert 'SESSION_VARIANTS: list[Any] = [pytest.param(None, id="sdk")]' in text
    assert "def test_compaction_keeps_pending_approval_call_paired" in text
    compile(text, "pasted.py", "exec")


def test_regression_test_refuses_a_file_with_the_project_block(tmp_path: Path) -> None:
    marked = tmp_path / TEST_NAME
    marked.write_text("# >>> approval-compaction only\nimport approval_compaction\n")
    with pytest.raises(InvestigationError, match="upstream form"):
        regression_test(marked)


def test_upstream_test_drops_the_project_block_only() -> None:
    text = upstream_test(paths.LIVENESS_TEST.read_text())
    assert "approval-compaction only" not in text
    assert "xfail" not in text
    compile(text, "pasted.py", "exec")


def test_upstream_test_refuses_a_file_without_the_block() -> None:
    with pytest.raises(InvestigationError, match="found 0"):
        upstream_test("def test_x() -> None:\n    pass\n")


def row(invariant: str, holds: bool | None, compaction_requests: int = 0) -> MatrixRecord:
    return matrix_record(invariant=invariant, holds=holds, compaction_requests=compaction_requests)


def test_before_after_counts_cases_and_compactions() -> None:
    table = before_after(
        {
            "old": matrix_finding(
                [row("next_turn_input_paired", False, 2), row("decision_enforced", True, 2)]
            ),
            "new": matrix_finding(
                [row("next_turn_input_paired", True, 1), row("decision_enforced", True, 1)]
            ),
            "none": None,
        }
    )
    assert table.splitlines()[2] == (
        "| `next_turn_input_paired` | ❌ violated in 1 of 1 cases | ✅ holds in 1 of 1 cases "
        "| not run |"
    )
    assert table.splitlines()[-1] == "| compaction requests, the cases together | 2 | 1 | not run |"


def test_build_is_deterministic_and_reads_the_data(tmp_path: Path) -> None:
    rows = [matrix_record(holds=False, compaction_requests=2, sdk_version="0.23.1")]
    (tmp_path / "matrix.json").write_text(records_json(rows))
    text = build(tmp_path)
    assert text == build(tmp_path)
    assert "| invariant | 0.23.1 | pinned + workaround | newest |" in text
    assert "| `next_turn_input_paired` | ❌ violated in 1 of 1 cases | not run | not run |" in text
    assert "The test has not been run across releases yet." in text
    assert "fixes these cases" not in text
    assert text.count("```") == 4  # the one-line command and the test


def write_column(folder: Path, stem: str, *versions: str) -> None:
    runners = ("run", "run_streamed")[: len(versions)]
    rows = [matrix_record(sdk_version=v, runner=r) for v, r in zip(versions, runners, strict=True)]
    (folder / f"{stem}.json").write_text(records_json(rows))


def test_build_names_each_column_after_the_release_of_its_records(tmp_path: Path) -> None:
    write_column(tmp_path, "matrix", "0.23.1")
    write_column(tmp_path, "fix-matrix", "0.22.0")
    write_column(tmp_path, "fix-newest-matrix", "0.24.0")
    text = build(tmp_path)
    assert "| invariant | 0.23.1 | 0.22.0 + workaround | 0.24.0 |" in text
    assert "--with openai-agents==0.23.1 " in text


def test_build_refuses_a_column_whose_records_mix_releases(tmp_path: Path) -> None:
    write_column(tmp_path, "matrix", "0.23.1")
    write_column(tmp_path, "fix-newest-matrix", "0.24.0", "0.23.1")
    with pytest.raises(InvestigationError, match="records come from 0.23.1, 0.24.0"):
        build(tmp_path)


def committed_snippet() -> str:
    return paths.DATA_FILES.snippet.read_text()


def test_committed_snippet_columns_name_the_releases_of_their_records() -> None:
    """Header and records agree: each column's release is the one its committed records (and,
    for the newest release, its committed runs) were made on."""
    header = next(line for line in committed_snippet().splitlines() if line.startswith("| inv"))
    names = [cell.strip() for cell in header.strip("|").split("|")][1:]
    releases = [
        {r.sdk_version for r in read_records(paths.DATA / f"{stem}.json", MatrixRecord)}
        for stem in ("matrix", "fix-matrix", "fix-newest-matrix")
    ]
    runs = json.loads((paths.DATA / "fix-newest-matrix-runs.json").read_text())
    assert releases[2] == {run["sdk_version"] for run in runs}
    assert [{name.removesuffix(" + workaround")} for name in names] == releases
    assert one_line(next(iter(releases[0]))) in committed_snippet()


def test_committed_snippet_says_which_release_fixes_it(committed: Findings) -> None:
    fixed = committed.fixed_in
    assert fixed is not None
    text = committed_snippet()
    assert f"`openai-agents` {fixed} fixes these cases" in text
    found = committed
    assert found.crosscheck is not None
    assert found.crosscheck.summary(fixed) == "4 passed"
    assert found.crosscheck.summary(PINNED) == "4 failed"
    assert f"with `openai-agents=={fixed}` pytest ends with `4 passed`" in text


def test_committed_snippet_scopes_the_fix_and_names_the_liveness_comment(
    committed: Findings,
) -> None:
    """The fix is claimed for the cases only: the snippet shows which sessions still stop
    compacting on the fixing release, and points at the liveness comment."""
    found = committed
    assert found.fixed_in is not None and found.liveness is not None
    text = committed_snippet()
    assert "a separate comment on compaction liveness names them" in text
    from approval_compaction.formats.markdown import markdown_table
    from approval_compaction.lab.findings.tables import liveness_frame

    assert markdown_table(liveness_frame(found.liveness)) in text


def test_committed_snippet_quotes_the_error_the_user_meets() -> None:
    """The quoted message is the one the SDK's client raises over HTTP on the pinned release."""
    from approval_compaction.lab.findings.outcomes import outcome_frame
    from approval_compaction.openai_agents.harness import run_matrix
    from approval_compaction.openai_agents.wiring import responses_backend
    from approval_compaction.study.scenario import select_cases

    cases = select_cases("runner=run,decision=approve,compaction=on,state_boundary=json")
    message = outcome_frame(run_matrix(cases, backend=responses_backend))["message"].iloc[0]
    opening = committed_snippet().split("```text\n", 1)[1].split("```", 1)[0]
    assert committed_snippet().startswith("```text\n")
    assert f"openai.BadRequestError: {message}" in opening.splitlines()


RUN_TIMEOUT = 300  # seconds: uv builds the environment from its cache, then pytest runs 4 tests
PINNED = importlib.metadata.version("openai-agents")


def requirement_pins() -> dict[str, str]:
    lines = (paths.ROOT / "requirements.txt").read_text().splitlines()
    return dict(re.findall(r"^([\w.-]+)==(\S+)$", "\n".join(lines), re.M))


def test_one_line_pins_the_tools_requirements_txt_pins() -> None:
    words = shlex.split(one_line("1.2.3"))
    pins = dict(w.split("==") for w in words if "==" in w)
    wanted = requirement_pins()
    assert pins == {
        "openai-agents": "1.2.3",
        "pytest": wanted["pytest"],
        "pytest-asyncio": wanted["pytest-asyncio"],
    }
    assert words[:3] == ["uv", "run", "--no-project"] and words[-2:] == ["pytest", TEST_NAME]


def run_offline(line: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """The line as a maintainer runs it, in a folder holding only the pasted test, with this
    project's uv and its cache, offline (no socket is opened), on the base interpreter."""
    (folder / TEST_NAME).write_text(regression_test())
    words = shlex.split(line)
    uv = Path(sys.executable).with_name("uv")
    command = [str(uv), words[1], "--offline", *words[2:]]
    base = Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update(UV_PYTHON=str(base), UV_NO_CONFIG="1", UV_PYTHON_DOWNLOADS="never")
    return subprocess.run(
        command,
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )


def not_in_cache(proc: subprocess.CompletedProcess[str]) -> bool:
    """uv could not build the environment (not pytest failing): exit 2 before any session."""
    return proc.returncode == 2 and "test session starts" not in proc.stdout


@pytest.mark.releases
def test_one_line_fails_on_the_pinned_release_with_the_orphan(tmp_path: Path) -> None:
    """Regression (openai-agents #5340): the pasted test, run as the report says, catches the
    orphan output on the pinned release, with no clone and no configuration file."""
    proc = run_offline(one_line(PINNED), tmp_path)
    assert not not_in_cache(proc), proc.stderr[-2000:]
    summary = proc.stdout.splitlines()[-1]
    assert proc.returncode == 1 and "4 failed" in summary, proc.stdout[-3000:]
    assert "no tests ran" not in summary and "skipped" not in summary
    assert "'outputs sent without their call in the next turn': ['pending-c1']" in proc.stdout


@pytest.mark.releases
def test_one_line_passes_on_the_fixing_release(tmp_path: Path, committed: Findings) -> None:
    fixed = committed.fixed_in
    if fixed is None:
        pytest.skip("no fixing release in data/fix-releases.json and data/sweep.json")
    proc = run_offline(one_line(fixed), tmp_path)
    if not_in_cache(proc):  # `make envs` makes the newest release's environment, with uv
        needs.require(
            f"openai-agents {fixed} is not in uv's cache: {proc.stderr.strip()[-300:]}", "one-line"
        )
    assert proc.returncode == 0 and "4 passed" in proc.stdout.splitlines()[-1], proc.stdout[-3000:]


def _liveness(*states: tuple[str, str, str]) -> LivenessEras:
    """Each (situation, mode, verdict) on release 2.0; every other pair keeps compacting."""
    eras = tuple(LivenessEra(s, m, LivenessState(v), ("2.0",)) for s, m, v in states)
    return LivenessEras(("2.0",), eras, 10)


def test_committed_snippet_gives_the_fixing_release_s_verdict_from_the_record(
    committed: Findings,
) -> None:
    """The snippet states the fixing release's verdict as the record words it, with its scope."""
    found = committed
    assert found.fixed_in is not None
    newest = of(found.verdicts, found.fixed_in)
    text = committed_snippet()
    assert f"| {found.fixed_in} | 1 | {newest.word} | 0 of 16 |" in text
    assert "hook that always says yes" in text
