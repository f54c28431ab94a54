"""Command: one release set up, checked and run twice, and its exit status."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from approval_compaction.cli import main
from approval_compaction.lab.releases.upstream import command
from approval_compaction.lab.releases.upstream.checkout import (
    UPSTREAM_TEST,
    UPSTREAM_TEST_FOLDER,
    UPSTREAM_TEST_NAME,
)
from approval_compaction.lab.releases.upstream.suite import FIX_PLUGIN

OURS = f"{UPSTREAM_TEST_FOLDER}/{UPSTREAM_TEST_NAME}"


def test_upstream_suite_runs_twice_and_reports_the_change(
    root: Path, fake: Callable[..., Any]
) -> None:
    same = {"tests/memory/test_compaction.py::test_keep": None}
    runner = fake(
        {**same, "tests/test_approvals.py::test_flip": None},
        {**same, "tests/test_approvals.py::test_flip": "assert deferred"},
    )
    result = command.upstream_suite("9.9.9", root=root, run=runner, report=lambda _: None)
    assert [(r.variant, r.tests, r.failed, r.sessions_upgraded) for r in result.runs] == [
        ("baseline", 2, 0, 0),
        ("fix", 2, 1, 3),
    ]
    assert [(c.test, c.message, c.reason) for c in result.unexplained] == [
        ("tests/test_approvals.py::test_flip", "assert deferred", "")
    ]
    assert [c.check for c in result.checks] == ["ruff check", "ruff format", "pyright"]
    checkout = root / "9.9.9" / "openai_agents-9.9.9"
    assert (checkout / OURS).read_text() == UPSTREAM_TEST.read_text()
    pytest_runs = [c for c in runner.commands if "pytest" in c]
    assert all(OURS in c and "tests/test_approvals.py" in c for c in pytest_runs[:4])
    assert [FIX_PLUGIN in c for c in pytest_runs] == [False, False, True, True] * 2
    assert all(c[3:4] == ["tests/test_approvals.py::test_flip"] for c in pytest_runs[4:])
    assert all("-n" in c for c in pytest_runs if "not serial" in c)


def test_upstream_suite_without_fix_runs_once(root: Path, fake: Callable[..., Any]) -> None:
    runner = fake({}, {})
    result = command.upstream_suite("9.9.9", fix=False, root=root, run=runner, report=print)
    assert [r.variant for r in result.runs] == ["baseline"] and result.changes == []
    assert runner.ran(FIX_PLUGIN) == 0


def test_write_writes_data_only_and_names_the_readme_command(
    tmp_path: Path,
    root: Path,
    fake: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    runner = fake({"tests/test_approvals.py::t": None}, {"tests/test_approvals.py::t": None})
    real = command.upstream_suite
    monkeypatch.setattr(command, "upstream_suite", lambda *a, **k: real(*a, **k, run=runner))
    folder = tmp_path / "data"
    argv = ["upstream-suite", "--release", "9.9.9", "--fix", "--write", "--root", str(root)]
    assert main([*argv, "--folder", str(folder)]) == 0
    assert sorted(p.name for p in folder.iterdir() if p.suffix == ".json") == [
        "upstream-suite-9.9.9-checks.json",
        "upstream-suite-9.9.9-failures.json",
        "upstream-suite-9.9.9-runs.json",
        "upstream-suite-9.9.9.json",
    ]
    assert "`python -m approval_compaction readme`" in capsys.readouterr().out


def test_cli_rejects_an_unknown_format(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["upstream-suite", "--format", "csv"])
    assert "invalid choice" in capsys.readouterr().err
