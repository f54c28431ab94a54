"""The upstream suite on a tiny synthetic sdist and a fake command runner (no network).

``FakeRunner`` plays uv, pytest, ruff and pyright: it records each command and writes pytest's
JUnit reports from the outcomes it is given; ``root`` is a release folder as ``fetch`` leaves it.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from approval_compaction.lab.releases.upstream.suite import COUNTS_VARIABLE, FIX_PLUGIN

MAKEFILE = ".PHONY: sync\nsync:\n\tuv sync --all-extras --all-packages --group dev\n"
COMPACTION_TEST = "from agents.memory import OpenAIResponsesCompactionSession\n"
APPROVAL_TEST = "tool.needs_approval = True\nawait Runner.run(agent, 'x', session=session)\n"
PLAIN_TEST = "def test_nothing():\n    assert True\n"
Outcomes = dict[str, str | None]  # test id -> failure message, or None when it passes


def junit(cases: Outcomes) -> str:
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

    def __init__(self, baseline: Outcomes, fixed: Outcomes, once: Outcomes | None = None) -> None:
        self.baseline, self.fixed = baseline, fixed
        self.once = once or {}  # baseline outcomes of the first run only (a timing failure)
        self.commands: list[list[str]] = []

    def __call__(
        self, command: Sequence[str], timeout: float, *, cwd: Path, env: dict[str, str]
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
                Path(env[COUNTS_VARIABLE], "upgraded-1.txt").write_text("3\n")
        return subprocess.CompletedProcess(words, 0, "", "")

    def ran(self, word: str) -> int:
        return sum(1 for command in self.commands if word in " ".join(command))


def _asked(test: str, words: list[str]) -> bool:
    """Whether a pytest command line selects this test (its file, or the test itself)."""
    return test in words or test.split("::")[0] in words


@pytest.fixture
def fake() -> Callable[..., Any]:
    """``fake(baseline, fixed, once=None)``: a FakeRunner."""
    return FakeRunner


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
