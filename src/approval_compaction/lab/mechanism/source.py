"""Source: each catalogued function as the installed release has it, read with ``inspect``.

An extract is a function's source text, its first line number and its file relative to
``site-packages``, or ``absent`` when the release has no such function. It needs only the SDK:
the probe runs it inside any release's environment. Marks are found in an extract by text, so a
marked line has the line number it has in that release's file.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import CodeType
from typing import Any

from .catalogue import CATALOGUE, Function, Mark

PRESENT, ABSENT = "present", "absent"


@dataclass(frozen=True)
class Extract:
    """One function in one release: ``status`` is present or absent; the rest is empty when
    absent."""

    status: str
    path: str
    first_line: int
    source: str

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Extract:
        return cls(**data)


MISSING = Extract(status=ABSENT, path="", first_line=0, source="")


def resolve(module: str, qualname: str) -> Any | None:
    """The function ``module.qualname`` in the installed SDK, or None when it has none."""
    try:
        value: Any = importlib.import_module(module)
    except ImportError:
        return None
    for part in qualname.split("."):
        value = inspect.getattr_static(value, part, None)
        if value is None:
            return None
    if isinstance(value, staticmethod | classmethod):
        value = value.__func__
    value = inspect.unwrap(value)
    return value if inspect.isfunction(value) else None


def code_of(function: Function) -> CodeType | None:
    """The code object a call of the catalogued function runs, or None when it is absent."""
    found = resolve(function.module, function.qualname)
    return found.__code__ if found is not None else None


def site_packages() -> Path:
    """The folder that holds the installed ``agents`` package."""
    agents = importlib.import_module("agents")
    return Path(inspect.getfile(agents)).resolve().parent.parent


def extract(function: Function) -> Extract:
    """The function's source as installed, or ``absent``."""
    found = resolve(function.module, function.qualname)
    if found is None:
        return MISSING
    lines, first = inspect.getsourcelines(found)
    path = Path(inspect.getsourcefile(found) or "").resolve()
    return Extract(
        status=PRESENT,
        path=path.relative_to(site_packages()).as_posix(),
        first_line=first,
        source="".join(lines),
    )


def extract_all(catalogue: Sequence[Function] = CATALOGUE) -> dict[str, Extract]:
    """Every catalogued function, by qualname."""
    return {f.qualname: extract(f) for f in catalogue}


def numbered(extract: Extract) -> list[tuple[int, str]]:
    """The extract's lines, each with its line number in the release's file."""
    return list(enumerate(extract.source.splitlines(), start=extract.first_line))


def mark_lines(extract: Extract, mark: Mark) -> list[int]:
    """The numbers of the lines the mark picks: every line with its text, or (``after``) the
    first one after the first line that contains ``after``; empty when none does."""
    lines = numbered(extract)
    if not mark.after:
        return [number for number, text in lines if mark.text in text]
    start = next((i for i, (_, text) in enumerate(lines) if mark.after in text), None)
    if start is None:
        return []
    found = next((number for number, text in lines[start + 1 :] if mark.text in text), None)
    return [] if found is None else [found]


def enclosing(extract: Extract, line: int) -> tuple[int, str]:
    """The header of the innermost block whose body holds the statement at ``line``
    (the ``if``, ``for``, ``def`` ... it runs under), as line number and stripped text."""
    tree = ast.parse(textwrap.dedent(extract.source))
    relative = line - extract.first_line + 1
    blocks = [node for node in ast.walk(tree) if isinstance(node, ast.stmt | ast.ExceptHandler)]
    headers = [
        node.lineno
        for node in blocks
        for field in ("body", "orelse", "finalbody", "handlers")
        for child in getattr(node, field, [])
        if child.lineno <= relative <= (child.end_lineno or child.lineno)
    ]
    if not headers:
        raise ValueError(f"line {line} is not inside the extract's function")
    number = max(headers) + extract.first_line - 1
    return number, dict(numbered(extract))[number].strip()
