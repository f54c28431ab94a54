"""The one writer and reader of results files: JSON, CSV beside it, and one-line errors."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from factories import cross_record, matrix_record, release_record

from approval_compaction.analysis.matrix import MatrixRecord
from approval_compaction.analysis.table import to_frame
from approval_compaction.errors import InvestigationError
from approval_compaction.formats.records import (
    RecordsError,
    read_json,
    read_json_list,
    read_records,
    records_csv,
    records_json,
    write_json,
    write_records,
)
from approval_compaction.lab.releases.crosscheck import CrossRecord
from approval_compaction.lab.releases.sweep import ReleaseRecord

ROWS = [
    matrix_record(),
    matrix_record(holds=False, detail="next_turn: pending-c1", status="violated"),
    matrix_record(holds=None, detail="OSError: disk full", status="error", dispatches=1),
    matrix_record(
        invariant="decision_enforced",
        detail='a "quoted", comma\'d detail | ✗ ünïcode',
        compaction_requests=3,
    ),
]
MATRIX_AS_JSON: dict[str, Any] = asdict(matrix_record())
SCHEMAS: list[tuple[type[Any], list[Any]]] = [
    (MatrixRecord, ROWS),
    (ReleaseRecord, [release_record(openai="1.2.3", pydantic="2.0"), release_record(holds=None)]),
    (CrossRecord, [cross_record(), cross_record(agrees=None, workaround="missing")]),
]
SCHEMA_IDS = [schema.__name__ for schema, _ in SCHEMAS]


# --- writing and reading back --------------------------------------------------------------


@pytest.mark.parametrize(("schema", "rows"), SCHEMAS, ids=SCHEMA_IDS)
def test_records_round_trip_through_json(
    tmp_path: Path, schema: type[Any], rows: list[Any]
) -> None:
    path = tmp_path / "results.json"
    assert write_records(path, rows, schema) == [path, tmp_path / "results.csv"]
    assert read_records(path, schema) == rows


def test_records_write_markdown_beside_when_given(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "matrix.json"
    written = write_records(path, ROWS, MatrixRecord, markdown="| a |\n")
    assert written == [path, path.with_suffix(".csv"), path.with_suffix(".md")]
    assert path.with_suffix(".md").read_text() == "| a |\n"


def test_records_json_is_a_two_space_indented_list_ending_in_newline() -> None:
    text = records_json(ROWS[:1])
    assert text.endswith("}\n]\n") and text.startswith('[\n  {\n    "sdk_version"')
    assert json.loads(text) == [MATRIX_AS_JSON]


@pytest.mark.parametrize(("schema", "rows"), SCHEMAS, ids=SCHEMA_IDS)
def test_records_csv_equals_pandas_to_csv(schema: type[Any], rows: list[Any]) -> None:
    """The CSV beside a results file reads as pandas writes the same records: a reader may use
    either."""
    expected = to_frame(rows, schema).to_csv(index=False, lineterminator="\n")
    assert records_csv(rows, schema) == expected


def test_records_csv_of_no_records_is_the_header() -> None:
    assert records_csv([], MatrixRecord) == to_frame([]).to_csv(index=False, lineterminator="\n")
    assert records_csv([], MatrixRecord).count("\n") == 1


def test_records_csv_reads_back_with_pandas(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    write_records(path, ROWS, MatrixRecord)
    frame = pd.read_csv(path.with_suffix(".csv"), keep_default_na=False)
    assert frame["detail"].tolist() == [r.detail for r in ROWS]
    assert frame["compaction_requests"].tolist() == [r.compaction_requests for r in ROWS]


def test_records_read_json_list_parses_each_object(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text(json.dumps([{"n": 1}, {"n": 2}]))
    assert read_json_list(path, lambda row: row["n"] * 10) == [10, 20]


def test_records_read_accepts_fields_in_any_order(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps([dict(reversed(MATRIX_AS_JSON.items()))]))
    assert read_records(path, MatrixRecord) == [matrix_record()]


# --- bad input -----------------------------------------------------------------------------


def _full_then(cut: Callable[[str], str]) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        path.write_text(cut(records_json(ROWS)))

    return damage


def _json(value: Any) -> Callable[[Path], None]:
    return lambda path: path.write_text(json.dumps(value))


def _without(field: str) -> dict[str, Any]:
    return {k: v for k, v in MATRIX_AS_JSON.items() if k != field}


BAD_FILES: list[tuple[Callable[[Path], None], str]] = [
    (lambda path: None, "does not exist"),
    (_full_then(lambda text: text[: len(text) // 2]), "is not valid JSON ("),
    (_full_then(lambda text: ""), "is not valid JSON (Expecting value, line 1)"),
    (lambda path: path.write_bytes(b"\xff\xfe[\x00"), "cannot be read: "),
    (_json({"rows": []}), "does not hold a JSON list of objects"),
    (_json([MATRIX_AS_JSON, 3]), "does not hold a JSON list of objects"),
    (_json([_without("status")]), "holds a record of another shape: "),
    (_json([{**MATRIX_AS_JSON, "colour": "red"}]), "holds a record of another shape: "),
    (_json([{"openai": "1.0", **MATRIX_AS_JSON}]), "holds a record of another shape: "),
]
BAD_IDS = [
    "missing",
    "truncated",
    "empty",
    "not-utf8",
    "not-a-list",
    "not-objects",
    "missing-field",
    "extra-field",
    "sweep-record",
]


@pytest.mark.parametrize(("damage", "message"), BAD_FILES, ids=BAD_IDS)
def test_records_bad_file_is_one_line_error_naming_the_file(
    tmp_path: Path, damage: Callable[[Path], None], message: str
) -> None:
    path = tmp_path / "matrix.json"
    damage(path)
    with pytest.raises(RecordsError) as info:
        read_records(path, MatrixRecord)
    text = str(info.value)
    assert text.startswith(f"{path} ") and message in text and "\n" not in text
    assert isinstance(info.value, InvestigationError)
    error = info.value  # no chained traceback behind the one line
    assert error.__cause__ is None and (error.__context__ is None or error.__suppress_context__)


@pytest.mark.parametrize(
    ("row", "named"),
    [
        (_without("status"), "missing status"),
        ({**MATRIX_AS_JSON, "colour": "red"}, "unexpected colour"),
        ({**_without("status"), "colour": "red"}, "missing status; unexpected colour"),
    ],
    ids=["missing-field", "extra-field", "both"],
)
def test_records_shape_error_names_the_schema_and_the_field(
    tmp_path: Path, row: dict[str, Any], named: str
) -> None:
    path = tmp_path / "matrix.json"
    path.write_text(json.dumps([row]))
    with pytest.raises(RecordsError, match=f"fields differ from MatrixRecord: {named}$"):
        read_records(path, MatrixRecord)


def test_records_parse_failure_in_read_json_list_is_a_records_error(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text(json.dumps([{"n": 1}]))
    with pytest.raises(RecordsError, match="holds a record of another shape: 'missing'"):
        read_json_list(path, lambda row: row["missing"])


# --- one object per file -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("indent", "sort_keys", "text"),
    [
        (2, False, '{\n  "b": [\n    1\n  ],\n  "a": "\\u00fc"\n}\n'),
        (1, True, '{\n "a": "\\u00fc",\n "b": [\n  1\n ]\n}\n'),
        (None, True, '{"a": "\\u00fc", "b": [1]}\n'),
    ],
    ids=["default", "indent-1-sorted", "one-line-sorted"],
)
def test_records_write_json_writes_the_layout_asked(
    tmp_path: Path, indent: int | None, sort_keys: bool, text: str
) -> None:
    path = tmp_path / "one.json"
    write_json(path, {"b": [1], "a": "ü"}, indent=indent, sort_keys=sort_keys)
    assert path.read_text() == text
    assert read_json(path, dict) == {"a": "ü", "b": [1]}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "does not exist"),
        ("{", "is not valid JSON (Expecting property name enclosed in double quotes, line 1)"),
        ('{"n": 1}', "holds a record of another shape: 'missing'"),
        ("[1]", "holds a record of another shape: list indices must be integers"),
    ],
    ids=["missing", "truncated", "missing-key", "not-an-object"],
)
def test_records_read_json_failure_is_one_line_naming_the_file(
    tmp_path: Path, content: str | None, message: str
) -> None:
    path = tmp_path / "one.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(RecordsError) as info:
        read_json(path, lambda value: value["missing"])
    assert str(info.value).startswith(f"{path} {message}") and "\n" not in str(info.value)
    assert info.value.__cause__ is None


# --- failed writes -------------------------------------------------------------------------


def test_records_failed_write_keeps_the_previous_files(tmp_path: Path) -> None:
    path = tmp_path / "matrix.json"
    written = write_records(path, ROWS, MatrixRecord, markdown="before\n")
    before = {p: p.read_bytes() for p in written}
    unserialisable = matrix_record(detail=object())
    with pytest.raises(TypeError):
        write_records(path, [unserialisable], MatrixRecord, markdown="after\n")
    assert {p: p.read_bytes() for p in written} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in written)


def test_records_failed_file_write_leaves_no_temp_file(tmp_path: Path) -> None:
    path = tmp_path / "matrix.json"
    write_records(path, ROWS, MatrixRecord)
    path.with_suffix(".md").mkdir()  # the markdown cannot replace a folder
    with pytest.raises(OSError):
        write_records(path, ROWS[:1], MatrixRecord, markdown="table\n")
    assert path.with_suffix(".md").is_dir()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_records_csv_text_is_what_pandas_reads() -> None:
    text = records_csv(ROWS, MatrixRecord)
    frame = pd.read_csv(io.StringIO(text), keep_default_na=False, dtype=str)
    assert frame.columns.tolist() == list(MATRIX_AS_JSON)
    assert frame["holds"].tolist() == ["True", "False", "", "True"]
