"""Records: the one writer and the one reader of result files.

A results file is a JSON list of flat records (frozen dataclasses such as ``MatrixRecord``),
with the same records as CSV beside it and, where a table helps, a markdown file; a file that
holds one object (a search's summary, the mechanism's record) is written by ``write_json`` and
read by ``read_json``. Each file is written atomically, so a failed run keeps the previous
results. The readers turn the JSON back into its record type and name the file and the problem
in one line when they cannot: missing, corrupt or truncated, or written with another schema.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any, TypeVar

from ..errors import InvestigationError
from .files import write_all_atomic, write_atomic

R = TypeVar("R")


class RecordsError(InvestigationError):
    """A results file that is missing, is not valid JSON, or does not hold the expected records."""


def records_json(rows: Sequence[Any]) -> str:
    """Records as a JSON list, two-space indented, ending with a newline."""
    return json.dumps([asdict(r) for r in rows], indent=2) + "\n"


def records_csv(rows: Sequence[Any], schema: type[Any]) -> str:
    """Records as CSV with the schema's columns, ``None`` as an empty cell."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([f.name for f in fields(schema)])
    writer.writerows([getattr(r, f.name) for f in fields(schema)] for r in rows)
    return buffer.getvalue()


def write_records(
    path: Path, rows: Sequence[Any], schema: type[Any], *, markdown: str | None = None
) -> list[Path]:
    """Write ``path`` (JSON), the CSV beside it and, if given, the markdown; return the paths."""
    written = {path: records_json(rows), path.with_suffix(".csv"): records_csv(rows, schema)}
    if markdown is not None:
        written[path.with_suffix(".md")] = markdown
    write_all_atomic(written)
    return list(written)


def write_json(path: Path, value: Any, *, indent: int | None = 2, sort_keys: bool = False) -> None:
    """Write one JSON value atomically, ending with a newline."""
    write_atomic(path, json.dumps(value, indent=indent, sort_keys=sort_keys) + "\n")


def _load(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise RecordsError(f"{path} does not exist") from None
    except (OSError, UnicodeDecodeError) as error:
        raise RecordsError(f"{path} cannot be read: {error}") from None
    except json.JSONDecodeError as error:
        raise RecordsError(f"{path} is not valid JSON ({error.msg}, line {error.lineno})") from None


def _parsed(path: Path, parse: Callable[[Any], R], value: Any) -> R:
    try:
        return parse(value)
    except (TypeError, KeyError, ValueError, AttributeError) as error:
        reason = " ".join(str(error).split())
        raise RecordsError(f"{path} holds a record of another shape: {reason}") from None


def read_json(path: Path, parse: Callable[[Any], R]) -> R:
    """The value of a JSON file, parsed; a one-line ``RecordsError`` when it cannot be."""
    return _parsed(path, parse, _load(path))


def read_json_list(path: Path, parse: Callable[[dict[str, Any]], R]) -> list[R]:
    """Each object of a JSON list file, parsed; a one-line ``RecordsError`` when it cannot be."""
    data = _load(path)
    if not isinstance(data, list) or not all(isinstance(row, dict) for row in data):
        raise RecordsError(f"{path} does not hold a JSON list of objects")
    return _parsed(path, lambda rows: [parse(row) for row in rows], data)


def read_records(path: Path, schema: type[R]) -> list[R]:
    """The records of a JSON results file, as instances of ``schema``."""
    names = [f.name for f in fields(schema)]  # type: ignore[arg-type]  # schema is a dataclass

    def parse(row: dict[str, Any]) -> R:
        if sorted(row) != sorted(names):
            missing, extra = sorted(set(names) - set(row)), sorted(set(row) - set(names))
            told = [f"missing {', '.join(missing)}"] if missing else []
            told += [f"unexpected {', '.join(extra)}"] if extra else []
            raise ValueError(f"fields differ from {schema.__name__}: {'; '.join(told)}")
        return schema(**row)

    return read_json_list(path, parse)
