"""The adk-python fix in the repository's form: its paths, and its lines within adk-python's
80 columns (its pylintrc exempts import lines), and the regression test's too."""

from __future__ import annotations

import re

from approval_compaction.adk.lint import PYLINTRC, TEST_PATH, _touched
from approval_compaction.adk.mutants import MUTANTS
from approval_compaction.adk.patched import FIX, LONG_RUNNING_FIX
from approval_compaction.adk.sdk_test import ADK_REGRESSION_TEST, LONG_RUNNING_TEST


def _exempt(line: str) -> bool:
    return re.match(r"^\s*(from\s+\S+\s+)?import\s+.+$", line) is not None


def test_the_fix_is_a_diff_against_the_repositorys_src_tree() -> None:
    assert _touched(FIX) == ["src/google/adk/apps/compaction.py"]
    assert TEST_PATH == "tests/unittests/apps/test_compaction_late_answer.py"
    assert "ignore-long-lines" in PYLINTRC.read_text()


def test_the_fix_and_its_test_keep_to_80_columns_but_import_lines() -> None:
    added = [line[1:] for line in FIX.read_text().splitlines() if line.startswith("+ ")]
    lines = added + ADK_REGRESSION_TEST.read_text().splitlines()
    assert [line for line in lines if len(line) > 80 and not _exempt(line)] == []


def test_each_mutant_edits_the_lines_the_fix_adds() -> None:
    added = "".join(
        line[1:] + "\n" for line in FIX.read_text().splitlines() if line.startswith("+")
    )
    for mutant in MUTANTS:
        for old, _new in mutant.edits:
            assert old in added, mutant.name


def test_the_long_running_fix_touches_the_compactor_and_the_request_within_80_columns() -> None:
    assert _touched(LONG_RUNNING_FIX) == [
        "src/google/adk/apps/compaction.py",
        "src/google/adk/flows/llm_flows/context/_contents.py",
        "src/google/adk/flows/llm_flows/tools/_rearranger.py",
    ]
    added = [
        line[1:] for line in LONG_RUNNING_FIX.read_text().splitlines() if line.startswith("+ ")
    ]
    lines = added + LONG_RUNNING_TEST.read_text().splitlines()
    assert [line for line in lines if len(line) > 80 and not _exempt(line)] == []
