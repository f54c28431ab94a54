"""Checks: the release's own ruff and pyright on our test, and the first line they complain."""

from __future__ import annotations

import subprocess
from pathlib import Path

from approval_compaction.lab.releases.upstream import checks
from approval_compaction.lab.releases.upstream.checkout import Checkout


def test_run_checks_reports_the_first_complaint_of_a_failing_tool(tmp_path: Path) -> None:
    seen: list[tuple[list[str], str]] = []

    def tools(command: list[str], timeout: float, *, cwd: Path, env: dict[str, str]) -> object:
        seen.append((command, env["PATH"]))
        if command[1:3] == ["format", "--check"]:
            return subprocess.CompletedProcess(command, 1, "noise\nWould reformat: t.py\n", "")
        return subprocess.CompletedProcess(command, 0, "All checks passed!\n", "")

    checkout = Checkout("9.9.9", tmp_path / "openai_agents-9.9.9")
    found = checks.run_checks(checkout, "tests/memory/t.py", run=tools)
    assert [(c.check, c.passed, c.message) for c in found] == [
        ("ruff check", True, ""),
        ("ruff format", False, "Would reformat: t.py"),
        ("pyright", True, ""),
    ]
    bin_folder = str(checkout.python.parent)
    assert all(c[0].startswith(bin_folder) and p.startswith(bin_folder) for c, p in seen)
