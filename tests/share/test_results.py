"""The matrix as text in each format, and the matrix files: the committed data is what the code
writes from its own records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from approval_compaction import paths
from approval_compaction.analysis.matrix import MatrixRecord, matrix_text, records
from approval_compaction.analysis.table import pivot, to_frame
from approval_compaction.errors import InvestigationError
from approval_compaction.formats.arguments import FORMATS
from approval_compaction.formats.records import read_records
from approval_compaction.lab.share.results import write_matrix
from approval_compaction.study.capture import CaseRun, Stage
from approval_compaction.study.scenario import Case

MATRIX = paths.DATA / "matrix.json"


@pytest.fixture(scope="module")
def committed() -> list[MatrixRecord]:
    """The records of the committed ``data/matrix.json``."""
    return read_records(MATRIX, MatrixRecord)


@pytest.mark.parametrize("fmt", ["json", "csv", "markdown"])
def test_results_text_equals_the_committed_file(committed: list[MatrixRecord], fmt: str) -> None:
    """``make run`` writes data/matrix.* with these functions: reading the JSON back and writing
    it again gives the same bytes."""
    suffix = {"json": ".json", "csv": ".csv", "markdown": ".md"}[fmt]
    assert matrix_text(committed, fmt) == MATRIX.with_suffix(suffix).read_text()


def test_results_table_is_the_pivot_as_plain_text(committed: list[MatrixRecord]) -> None:
    text = matrix_text(committed, "table")
    assert text == pivot(to_frame(committed)).to_string() + "\n"
    assert all(f"{'/'.join(r.case_key)} " in text for r in committed)


@pytest.mark.parametrize("fmt", FORMATS)
def test_results_every_format_ends_with_one_newline(
    committed: list[MatrixRecord], fmt: str
) -> None:
    text = matrix_text(committed, fmt)
    assert text.endswith("\n") and not text.endswith("\n\n")


@pytest.mark.parametrize("fmt", ["yaml", "JSON", "", "md"], ids=repr)
def test_results_unknown_format_is_a_one_line_error(fmt: str) -> None:
    with pytest.raises(InvestigationError) as info:
        matrix_text([], fmt)
    message = str(info.value)
    assert message == f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}"


def test_results_json_and_csv_need_no_pandas() -> None:
    """``matrix --format json`` must not pay for pandas: the records alone make the text."""
    code = (
        "import sys\n"
        "from approval_compaction.analysis.matrix import MatrixRecord\n"
        "from approval_compaction.formats.records import read_records\n"
        "from approval_compaction.analysis.matrix import matrix_text\n"
        f"rows = read_records(__import__('pathlib').Path({str(MATRIX)!r}), MatrixRecord)\n"
        "matrix_text(rows, 'json'), matrix_text(rows, 'csv')\n"
        "print('pandas' in sys.modules, 'matplotlib' in sys.modules)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert proc.stdout == "False False\n"


def _runs() -> list[CaseRun]:
    call = {"type": "function_call", "call_id": "c1", "name": "t", "arguments": "{}"}
    output = {"type": "function_call_output", "call_id": "c1", "output": "x"}
    stages = [
        Stage("pause", [call], interruptions=[call]),
        Stage("round_trip", [call]),
        Stage("resume", [call, output]),
        Stage("next_turn", [output], model_inputs=[[output]]),
    ]
    return [
        CaseRun(Case(), "0.0.0", stages, 1, 1),
        CaseRun(Case(compaction="off"), "0.0.0", stages[:2], 1, 0, error="OSError: disk full"),
    ]


def test_results_write_matrix_writes_every_file_from_the_same_records(tmp_path: Path) -> None:
    runs = _runs()
    written = write_matrix(runs, tmp_path, stem="m")
    assert [p.name for p in written] == [
        "m.json",
        "m.csv",
        "m.md",
        "m-runs.json",
        "m-heatmap.png",
    ]
    rows = records(runs)
    for path, fmt in [(written[0], "json"), (written[1], "csv"), (written[2], "markdown")]:
        assert path.read_text() == matrix_text(rows, fmt), fmt
    assert [CaseRun.from_json(r) for r in json.loads(written[3].read_text())] == runs
    assert written[4].read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_results_write_matrix_twice_is_byte_identical(tmp_path: Path) -> None:
    first = write_matrix(_runs(), tmp_path / "a")
    second = write_matrix(_runs(), tmp_path / "b")
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]
