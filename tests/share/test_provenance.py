"""Which notebooks run the SDK live and which data they read is observed while they execute."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from approval_compaction.lab import paths
from approval_compaction.lab.share import provenance
from approval_compaction.lab.share.notebooks import execute_in_place, notebook_paths
from approval_compaction.lab.share.provenance import Provenance


def _notebook(path: Path, *sources: str) -> Path:
    cells = [nbformat.v4.new_markdown_cell("# 99 · A probe")]
    cells += [nbformat.v4.new_code_cell(s) for s in sources]
    path.write_text(nbformat.writes(nbformat.v4.new_notebook(cells=cells)))
    return path


@pytest.mark.notebooks
def test_provenance_records_data_reads_and_no_runs_and_keeps_execution_counts(
    tmp_path: Path,
) -> None:
    record = tmp_path / "notebooks.json"
    path = _notebook(
        tmp_path / "99-probe.ipynb",
        f"open({str(paths.DATA_FILES.release_dates)!r}).read()[:1]",
        "2 + 2",
    )
    execute_in_place(path, record)
    observed = provenance.load(record)["99-probe.ipynb"]
    assert observed == Provenance("99-probe.ipynb", "A probe", 0, ("data/release-dates.json",))
    nb = nbformat.read(path, as_version=4)
    assert [c.source for c in nb.cells[1:]] == [
        f"open({str(paths.DATA_FILES.release_dates)!r}).read()[:1]",
        "2 + 2",
    ], "the hidden cells stay out of the notebook"
    assert [c.execution_count for c in nb.cells[1:]] == [1, 2]
    assert nb.cells[2].outputs[0]["execution_count"] == 2


@pytest.mark.notebooks
def test_provenance_counts_each_sdk_run_in_the_interpreter() -> None:
    script = (
        "from approval_compaction.lab.share.provenance import watch, seen\n"
        "watch()\n"
        "import approval_compaction as ac\n"
        "ac.run_case(ac.Case('run', 'approve', 'off', 'memory'))\n"
        "print(seen())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    assert seen == {"sdk_runs": 3, "data_read": []}, "pause, resume and next turn are three runs"


def test_provenance_audit_counts_reads_under_data_only(tmp_path: Path) -> None:
    hook = provenance._audit(tmp_path)
    provenance._state["read"] = set()
    (tmp_path / "x.json").write_text("[]")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "y.json").write_text("[]")
    hook("open", (str(tmp_path / "x.json"), "w", 0))
    hook("open", (str(tmp_path / "sub" / "y.json"), "r", 0))
    hook("open", (str(tmp_path.parent / "elsewhere.json"), "r", 0))
    assert provenance._state["read"] == {f"{tmp_path.name}/sub/"}


def test_provenance_table_says_live_or_committed() -> None:
    records = {
        "05-releases.ipynb": Provenance("05-releases.ipynb", "Releases", 0, ("data/sweep.json",)),
        "01-walkthrough.ipynb": Provenance("01-walkthrough.ipynb", "One case", 6, ()),
    }
    rows = provenance.table(records).splitlines()[2:]
    assert rows[0] == "| [01 · One case](notebooks/01-walkthrough.ipynb) | 6 runs | none |"
    assert rows[1] == "| [05 · Releases](notebooks/05-releases.ipynb) | none | sweep.json |"
    assert provenance.load(Path("/nonexistent/notebooks.json")) == {}


def test_provenance_committed_record_lists_every_notebook() -> None:
    recorded = provenance.load(paths.DATA_FILES.notebooks)
    assert sorted(recorded) == [p.name for p in notebook_paths(paths.NOTEBOOKS)], (
        "data/notebooks.json is stale: run `make run`"
    )


def test_provenance_counts_another_sdks_driver_runs_as_live() -> None:
    """Issue 61 (r7): the README said 14 runs no SDK live, while it runs one case in langchain's
    own environment (and 11 and 13 theirs): the drivers' runs count, named by SDK."""
    printed = json.dumps({"sdk_runs": 0, "data_read": ["data/x.json"], "driven": {"langchain": 1}})
    record = provenance.parse("14-langchain.ipynb", "LangChain's agents", printed)
    assert record.live and record.driven == (("langchain", 1),)
    row = provenance.table({record.notebook: record}).splitlines()[2]
    assert row == (
        "| [14 · LangChain's agents](notebooks/14-langchain.ipynb) | 1 langchain driver start "
        "| x.json |"
    )
    assert {sdk for _, _, sdk in provenance.drivers()} == {
        "@openai/agents",
        "google-adk",
        "langchain",
    }


def test_provenance_driver_wrapper_counts_each_line_it_returns() -> None:
    provenance._state["driven"] = {}
    counted = provenance._driving(lambda: [[{"a": 1}, {"b": 2}], [{"c": 3}]], "langchain")
    assert counted() == [[{"a": 1}, {"b": 2}], [{"c": 3}]]
    assert provenance._state["driven"] == {"langchain": 3}
    provenance._state["driven"] = {}


def test_provenance_table_names_many_files_of_one_word_as_a_pattern() -> None:
    """Issue 61 (r9): the README's notebook table listed up to twelve files a notebook reads in
    one cell; three or more JSON files sharing their first word are one pattern with a count."""
    names = ["adk-a.json", "adk-b.json", "adk-c.json", "counterexamples/", "js-a.json", "x.json"]
    assert provenance.grouped(names) == [
        "adk-*.json (3 files)",
        "counterexamples/",
        "js-a.json",
        "x.json",
    ]
    assert provenance.grouped(names[:2]) == names[:2]
