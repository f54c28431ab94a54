"""The upstream-suite runner on a tiny synthetic sdist and a fake command runner (no network)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from approval_compaction.cli import main
from approval_compaction.releases import upstream
from approval_compaction.releases.upstream import (
    FIX_PLUGIN,
    CaseOutcome,
    SuiteResult,
    UpstreamError,
)

MAKEFILE = ".PHONY: sync\nsync:\n\tuv sync --all-extras --all-packages --group dev\n"
COMPACTION_TEST = "from agents.memory import OpenAIResponsesCompactionSession\n"
APPROVAL_TEST = "tool.needs_approval = True\nawait Runner.run(agent, 'x', session=session)\n"
PLAIN_TEST = "def test_nothing():\n    assert True\n"


def junit(cases: dict[str, str | None]) -> str:
    """A JUnit report: test id ``tests/memory/test_a.py::test_x`` -> failure message or None."""
    body = []
    for test, failure in cases.items():
        path, name = test.split("::")
        classname = path.removesuffix(".py").replace("/", ".")
        inner = f'<failure message="{failure}"/>' if failure else ""
        body.append(f'<testcase classname="{classname}" name="{name}">{inner}</testcase>')
    return f"<testsuites><testsuite>{''.join(body)}</testsuite></testsuites>"


class FakeRunner:
    """Plays uv, pytest, ruff and pyright: records each command, writes pytest's reports."""

    def __init__(
        self,
        baseline: dict[str, str | None],
        fixed: dict[str, str | None],
        once: dict[str, str | None] | None = None,
    ) -> None:
        self.baseline, self.fixed = baseline, fixed
        self.once = once or {}  # baseline outcomes of the first run only (a timing failure)
        self.commands: list[list[str]] = []

    def __call__(
        self, command: Sequence[str], cwd: Path, env: dict[str, str], timeout: float
    ) -> subprocess.CompletedProcess[str]:
        words = list(command)
        self.commands.append(words)
        if words[1:3] == ["sync", "--all-extras"]:
            (cwd / ".venv" / "bin").mkdir(parents=True, exist_ok=True)
            (cwd / ".venv" / "bin" / "python").write_text("")
        if "pytest" in words:
            fix = FIX_PLUGIN in words
            cases = {} if "serial" in words else (self.fixed if fix else self.baseline)
            if not fix and "serial" not in words:
                cases = {**cases, **self.once}
                self.once = {}
            cases = {t: o for t, o in cases.items() if _asked(t, words)}
            Path(words[-1].split("=", 1)[1]).write_text(junit(cases))
            if fix:
                Path(env[upstream.COUNTS_VARIABLE], "upgraded-1.txt").write_text("3\n")
        return subprocess.CompletedProcess(words, 0, "", "")

    def ran(self, word: str) -> int:
        return sum(1 for command in self.commands if word in " ".join(command))


def _asked(test: str, words: list[str]) -> bool:
    """Whether a pytest command line selects this test (its file, or the test itself)."""
    return test in words or test.split("::")[0] in words


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A release folder as ``fetch`` leaves it: the unpacked sdist with tests and a Makefile."""
    folder = tmp_path / "9.9.9" / "openai_agents-9.9.9"
    (folder / "tests" / "memory").mkdir(parents=True)
    (folder / "Makefile").write_text(MAKEFILE)
    (folder / "tests" / "memory" / "test_compaction.py").write_text(COMPACTION_TEST)
    (folder / "tests" / "test_approvals.py").write_text(APPROVAL_TEST)
    (folder / "tests" / "test_plain.py").write_text(PLAIN_TEST)
    return tmp_path


OURS = f"{upstream.UPSTREAM_TEST_FOLDER}/{upstream.UPSTREAM_TEST_NAME}"


def test_sync_command_is_the_makefiles_recipe_with_our_uv(root: Path) -> None:
    command = upstream.sync_command(root / "9.9.9" / "openai_agents-9.9.9" / "Makefile", "/x/uv")
    assert command[:6] == ["/x/uv", "sync", "--all-extras", "--all-packages", "--group", "dev"]
    assert command[6] == "--python"


@pytest.mark.parametrize(
    "text", ["lint:\n\truff check\n", "sync:\n\tpip install -e .\n"], ids=["no-sync", "not-uv"]
)
def test_sync_command_refuses_a_makefile_it_cannot_follow(tmp_path: Path, text: str) -> None:
    (tmp_path / "Makefile").write_text(text)
    with pytest.raises(UpstreamError, match="Makefile|uv sync"):
        upstream.sync_command(tmp_path / "Makefile", "uv")


def test_select_files_takes_compaction_and_approval_tests(root: Path) -> None:
    tests = root / "9.9.9" / "openai_agents-9.9.9" / "tests"
    assert upstream.select_files(tests) == [
        "tests/memory/test_compaction.py",
        "tests/test_approvals.py",
    ]
    assert upstream.select_files(tests, r"assert True") == ["tests/test_plain.py"]


def test_parse_junit_names_each_test_by_file_and_keeps_the_assertion() -> None:
    text = junit({"tests/memory/test_a.py::test_x[p]": "assert 1 == 2", "tests/test_b.py::t": None})
    assert upstream.parse_junit(text) == [
        CaseOutcome("tests/memory/test_a.py::test_x[p]", "failed", "assert 1 == 2"),
        CaseOutcome("tests/test_b.py::t", "passed", ""),
    ]


def test_changes_lists_each_different_outcome_with_its_reason() -> None:
    before = [CaseOutcome("a::t", "passed", ""), CaseOutcome("b::t", "failed", "boom")]
    after = [CaseOutcome("a::t", "failed", "assert x"), CaseOutcome("b::t", "passed", "")]
    found = upstream.changes("9.9.9", before, after, intended={"b::": "meant"})
    assert [(c.test, c.baseline, c.fixed, c.message, c.reason) for c in found] == [
        ("a::t", "passed", "failed", "assert x", ""),
        ("b::t", "failed", "passed", "boom", "meant"),
    ]
    missing = upstream.changes("9.9.9", before, after[:1])
    assert [(c.test, c.fixed) for c in missing] == [("a::t", "failed"), ("b::t", "missing")]


def test_upstream_suite_runs_twice_and_reports_the_change(root: Path) -> None:
    same = {"tests/memory/test_compaction.py::test_keep": None}
    fake = FakeRunner(
        baseline={**same, "tests/test_approvals.py::test_flip": None},
        fixed={**same, "tests/test_approvals.py::test_flip": "assert deferred"},
    )
    result = upstream.upstream_suite("9.9.9", root=root, run=fake, report=lambda _: None)
    assert [(r.variant, r.tests, r.failed, r.sessions_upgraded) for r in result.runs] == [
        ("baseline", 2, 0, 0),
        ("fix", 2, 1, 3),
    ]
    assert [(c.test, c.message, c.reason) for c in result.unexplained] == [
        ("tests/test_approvals.py::test_flip", "assert deferred", "")
    ]
    assert [c.check for c in result.checks] == ["ruff check", "ruff format", "pyright"]
    checkout = root / "9.9.9" / "openai_agents-9.9.9"
    assert (checkout / OURS).read_text() == upstream.UPSTREAM_TEST.read_text()
    pytest_runs = [c for c in fake.commands if "pytest" in c]
    assert all(OURS in c and "tests/test_approvals.py" in c for c in pytest_runs[:4])
    assert [FIX_PLUGIN in c for c in pytest_runs] == [False, False, True, True] * 2
    assert all(c[3:4] == ["tests/test_approvals.py::test_flip"] for c in pytest_runs[4:])
    assert all("-n" in c for c in pytest_runs if "not serial" in c)


def test_upstream_suite_syncs_a_release_once(root: Path) -> None:
    fake = FakeRunner({}, {})
    for _ in range(2):
        upstream.upstream_suite("9.9.9", fix=False, root=root, run=fake, report=lambda _: None)
    assert fake.ran(" sync ") == 1
    assert fake.ran(FIX_PLUGIN) == 0


def test_run_suite_without_a_report_is_a_one_line_error(root: Path) -> None:
    def silent(command: Sequence[str], cwd: Path, env: dict[str, str], timeout: float) -> object:
        return subprocess.CompletedProcess(list(command), 4, "", "ERROR: file not found")

    checkout = upstream.Checkout("9.9.9", root / "9.9.9" / "openai_agents-9.9.9")
    with pytest.raises(UpstreamError, match="pytest wrote no report: ERROR: file not found"):
        upstream.run_suite(checkout, ["tests/x.py"], fix=False, run=silent)  # type: ignore[arg-type]


def test_results_round_trip_and_render(tmp_path: Path, root: Path) -> None:
    fake = FakeRunner({"tests/test_approvals.py::t": None}, {"tests/test_approvals.py::t": "no"})
    result = upstream.upstream_suite("9.9.9", root=root, run=fake, report=lambda _: None)
    upstream.write(result, "9.9.9", tmp_path)
    loaded = upstream.load("9.9.9", tmp_path)
    assert loaded == SuiteResult(result.runs, result.changes, result.checks)
    assert "NOT EXPLAINED" in (tmp_path / "upstream-suite-9.9.9.md").read_text()
    table = upstream.render(loaded, "table")
    assert "tests/test_approvals.py::t: passed -> failed" in table
    assert json.loads(upstream.render(loaded, "json"))["changes"][0]["fixed"] == "failed"


def test_cli_rejects_an_unknown_format(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["upstream-suite", "--format", "csv"])
    assert "invalid choice" in capsys.readouterr().err


def test_notebook_tables_read_the_written_results(tmp_path: Path, root: Path) -> None:
    fake = FakeRunner(
        {"tests/test_approvals.py::t": None, f"{OURS}::test_x": "assert orphan"},
        {"tests/test_approvals.py::t": "assert deferred", f"{OURS}::test_x": None},
    )
    upstream.write(
        upstream.upstream_suite("9.9.9", root=root, run=fake, report=print), "9.9.9", tmp_path
    )
    changes = upstream.suite_changes(["9.9.9"], tmp_path)
    assert list(changes["reason"]) == [upstream.reason_for(f"{OURS}::test_x"), "NOT EXPLAINED"]
    assert upstream.suite_runs(["9.9.9"], tmp_path).loc[("9.9.9", "fix"), "failed"] == 1
    assert set(upstream.suite_checks(["9.9.9"], tmp_path).loc["9.9.9"]) == {"passed"}
    assert upstream.suite_answer(["9.9.9"], tmp_path) == (
        "openai-agents 9.9.9: 2 tests in 3 files, 3 compaction sessions made deferring; "
        "2 outcomes change with the workaround (1 explained, 1 not)."
    )


def test_readme_block_is_written_from_the_results(tmp_path: Path, root: Path) -> None:
    fake = FakeRunner({"tests/test_approvals.py::t": None}, {"tests/test_approvals.py::t": "no"})
    upstream.write(
        upstream.upstream_suite("9.9.9", root=root, run=fake, report=print), "9.9.9", tmp_path
    )
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n{upstream.README_START}\nold\n{upstream.README_END}\nafter\n")
    assert upstream.update_readme(readme, tmp_path)
    text = readme.read_text()
    assert "- openai-agents 9.9.9: 1 tests in 3 files" in text
    assert "`tests/test_approvals.py::t`: passed → failed; NOT EXPLAINED" in text
    assert text.endswith(f"{upstream.README_END}\nafter\n") and "old" not in text
    assert not upstream.update_readme(readme, tmp_path)


def test_committed_readme_block_matches_the_committed_results() -> None:
    versions = upstream.written_versions()
    if not versions:
        pytest.skip("no upstream-suite results under data/: run `make upstream`")
    text = (upstream.paths.README).read_text()
    block = text.split(upstream.README_START, 1)[1].split(upstream.README_END, 1)[0]
    assert block.strip() == upstream.readme_block(versions)


def test_clean_message_drops_memory_addresses_and_newlines() -> None:
    text = "assert False\n + where False = all(<generator object f.<locals>.<genexpr> at 0x7f19a>)"
    assert upstream.clean_message(text) == (
        "assert False + where False = all(<generator object f.<locals>.<genexpr>>)"
    )


def test_a_change_that_does_not_recur_alone_is_marked_not_reproduced(root: Path) -> None:
    flaky = "tests/test_approvals.py::test_timing"
    fake = FakeRunner({flaky: None}, {flaky: None}, once={flaky: "wait(timeout=30)"})
    result = upstream.upstream_suite("9.9.9", root=root, run=fake, report=lambda _: None)
    assert result.unexplained == []
    assert [(c.test, c.baseline, c.fixed) for c in result.changes] == [(flaky, "failed", "passed")]
    assert result.changes[0].reason.startswith("not reproduced: re-run alone, passed without")
    assert [c for c in fake.commands if "pytest" in c and flaky in c]  # re-run by its id
