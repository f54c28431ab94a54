"""The JS SDK's part of the front page's answers: its rows below Python's, where its workaround
is proven, its regression test's line and the stall's paragraph, each from its file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd

from approval_compaction.js.front import front, reproduction
from approval_compaction.lab import paths
from approval_compaction.lab.findings.load import Findings
from approval_compaction.lab.findings.tables import affected_frame, errors_frame
from approval_compaction.lab.plugins import FrontPage


def test_front_puts_the_js_rows_below_pythons_and_names_their_file(committed: Findings) -> None:
    assert committed.releases is not None
    python = affected_frame(committed.releases)
    errors = errors_frame(committed.errors_met)
    page = front(paths.DATA, python, errors)
    assert isinstance(page, FrontPage)
    assert len(page.releases) > len(python) and len(page.errors) > len(errors)
    assert page.releases.iloc[: len(python)].to_numpy().tolist() == python.to_numpy().tolist()
    assert page.sources == ("data/js-sweep.json",)
    assert page.workaround[0].startswith("**In JavaScript**, with [`js/workaround.mjs`]")
    assert any(line.startswith("**Reproduce in JavaScript**") for line in page.closing)
    stall = next(line for line in page.closing if line.startswith("**A second JavaScript bug"))
    # r24: "never again by itself" read against notebook 11's "even when asked"
    assert "never again (notebook 11: even when asked)" in stall and "by itself" not in stall


def test_front_without_its_files_leaves_pythons_tables_alone(tmp_path: Path) -> None:
    python = pd.DataFrame({"input": ["x"]})
    errors = pd.DataFrame({"text": ["y"]})
    page = front(tmp_path, python, errors)
    assert page.releases is python and page.errors is errors
    assert (page.sources, page.workaround, page.closing) == ((), (), ())


def test_front_reproduction_counts_what_vitest_counted(tmp_path: Path) -> None:
    shutil.copy(paths.DATA / "js-sdk-test.json", tmp_path / "js-sdk-test.json")
    (line,) = [x for x in reproduction(tmp_path) if x]
    assert "on `@openai/agents` 0.20.0 vitest counts 38 failed, 1 passed" in line
    assert "`make js-sdk-test`" in line
