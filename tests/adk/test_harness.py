"""The ADK driver's runner: the interpreter it is given, the variables it passes, the lines it
reads back."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from approval_compaction.adk import harness
from approval_compaction.adk.harness import DriverError, Plan, environ, run_plan


def test_run_plan_names_a_missing_interpreter_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(DriverError, match="no interpreter at .*make the release's environment"):
        run_plan(Plan(), tmp_path / "bin" / "python")


def test_environ_passes_no_key_and_no_python_path(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY", "PYTHONPATH"):
        monkeypatch.setenv(name, "x")
    env = environ()
    assert not {"OPENAI_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY", "PYTHONPATH"} & env.keys()
    assert env["PYTHONHASHSEED"] == "0"


@pytest.mark.subprocess
def test_run_plan_reads_each_line_the_driver_writes_from_its_scratch_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stand-in driver (this interpreter, no google-adk) echoes its settings: the runner
    passes the plan, runs the copy in a scratch folder, and reads each line back."""
    fake = tmp_path / "driver.py"
    fake.write_text(
        "import json, os, sys\n"
        "spec = json.loads(sys.stdin.read())\n"
        "assert os.path.dirname(os.path.abspath(__file__)) == os.getcwd()\n"
        "print(json.dumps({'kind': spec['kind'], 'cases': len(spec['cases'])}))\n"
    )
    monkeypatch.setattr(harness, "DRIVER", fake)
    lines = harness._run_driver([Plan("tokens-2")], Path(sys.executable))
    assert lines == [[{"kind": "tokens-2", "cases": 16}]]
