"""Suite: which files are selected, how pytest is run, and how each test is named."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from approval_compaction.fix import suite_plugin
from approval_compaction.lab.releases.environments import ProbeError, junit_cases
from approval_compaction.lab.releases.upstream import suite
from approval_compaction.lab.releases.upstream.checkout import Checkout
from approval_compaction.lab.releases.upstream.suite import CaseOutcome


def test_select_files_takes_compaction_and_approval_tests(root: Path) -> None:
    tests = root / "9.9.9" / "openai_agents-9.9.9" / "tests"
    assert suite.select_files(tests) == [
        "tests/memory/test_compaction.py",
        "tests/test_approvals.py",
    ]
    assert suite.select_files(tests, r"assert True") == ["tests/test_plain.py"]


def test_case_outcome_names_each_test_by_file_and_keeps_the_assertion() -> None:
    text = (
        '<testsuites><testsuite><testcase classname="tests.memory.test_a.TestX" name="t[p]">'
        '<failure message="assert 1 == 2 at 0x7f19a"/></testcase>'
        '<testcase classname="tests.test_b" name="t"/></testsuite></testsuites>'
    )
    assert [suite.case_outcome(c) for c in junit_cases(text)] == [
        CaseOutcome("tests/memory/test_a.py::TestX::t[p]", "failed", "assert 1 == 2"),
        CaseOutcome("tests/test_b.py::t", "passed", ""),
    ]


def test_clean_message_drops_memory_addresses_and_newlines() -> None:
    text = "assert False\n + where False = all(<generator object f.<locals>.<genexpr> at 0x7f19a>)"
    assert suite.clean_message(text) == (
        "assert False + where False = all(<generator object f.<locals>.<genexpr>>)"
    )


def test_pytest_arguments_are_the_makefiles_two_runs() -> None:
    parallel, serial = suite.pytest_arguments(["tests/a.py"], fix=True, workers=3)
    workers = ["-n", "3", "--dist", "worksteal", "-m", "not serial"]
    assert parallel == ["tests/a.py", "-p", suite.FIX_PLUGIN, *workers]
    assert serial == ["tests/a.py", "-p", suite.FIX_PLUGIN, "-m", "serial"]
    assert "-p" not in suite.pytest_arguments(["tests/a.py"], fix=False, workers=3)[0]


def test_run_suite_counts_the_sessions_the_plugin_upgraded(
    root: Path, fake: Callable[..., Any]
) -> None:
    runner = fake({}, {"tests/test_approvals.py::t": "assert deferred"})
    checkout = Checkout("9.9.9", root / "9.9.9" / "openai_agents-9.9.9")
    outcomes, upgraded = suite.run_suite(
        checkout, ["tests/test_approvals.py"], fix=True, run=runner
    )
    assert outcomes == [CaseOutcome("tests/test_approvals.py::t", "failed", "assert deferred")]
    assert upgraded == 3


def test_run_suite_without_a_report_is_a_one_line_error(root: Path) -> None:
    def silent(command: list[str], timeout: float, **_: object) -> object:
        import subprocess

        return subprocess.CompletedProcess(list(command), 4, "", "ERROR: file not found")

    checkout = Checkout("9.9.9", root / "9.9.9" / "openai_agents-9.9.9")
    with pytest.raises(ProbeError, match="^9.9.9: pytest wrote no report: ERROR: file not found"):
        suite.run_suite(checkout, ["tests/x.py"], fix=False, run=silent)


def test_the_plugin_and_the_suite_name_the_same_counts_variable() -> None:
    assert suite.COUNTS_VARIABLE == suite_plugin.COUNTS_VARIABLE
    assert suite.FIX_PLUGIN == suite_plugin.__name__


def test_tally_names_the_upgraded_sessions_only_with_the_workaround() -> None:
    run = suite.summarize("9.9.9", "fix", 2, [CaseOutcome("a::t", "failed", "x")], 3)
    assert suite.tally(run) == (
        "9.9.9 fix: 1 tests, 0 passed, 1 failed, 0 errors, 0 skipped; 3 sessions made deferring"
    )
    assert "deferring" not in suite.tally(suite.summarize("9.9.9", "baseline", 2, [], 0))
