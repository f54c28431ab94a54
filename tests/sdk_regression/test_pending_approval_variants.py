"""The upstream regression test's cases, with this project's variants and marks applied here.

``test_compaction_pending_approval.py`` beside this file is the upstream form: the file the
README and ``data/upstream-snippet.md`` name, which a maintainer runs as it is and which fails on
every release the bug affects (openai-agents issue #5340). This module runs that same test
function, loaded from that file, so no second copy can drift. It replaces only the session
variants: ``workaround`` wraps the SDK's session in ``defer_compaction_while_pending``, and
``unfixed`` is the session as the SDK builds it, an expected failure (strict) before the fixing
release. The crosscheck runs this module with ``--runxfail`` in each release's environment for
the raw outcome of both.
"""

from __future__ import annotations

import functools
import importlib.util
import re
import sys
from importlib.metadata import version
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

UPSTREAM = Path(__file__).with_name("test_compaction_pending_approval.py")
FIXED_IN = (0, 24, 0)  # the SDK waits for the pending call itself from this release on


def load(path: Path = UPSTREAM) -> ModuleType:
    """The upstream test module, imported from its file under its own name."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(path.stem, module)
    spec.loader.exec_module(module)
    return module


def release() -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version("openai-agents"))[:3])


def variants() -> list[Any]:
    """The workaround (where this project is importable) and the SDK's own session."""
    unfixed = pytest.param(
        None,
        id="unfixed",
        marks=pytest.mark.xfail(
            release() < FIXED_IN, strict=True, reason="this release orphans the output"
        ),
    )
    try:
        from approval_compaction.fix.workaround import defer_compaction_while_pending
    except ImportError:  # a release environment without this project: the SDK's session only
        return [unfixed]
    return [pytest.param(defer_compaction_while_pending, id="workaround"), unfixed]


def with_variants(test: Any, argname: str, values: list[Any]) -> Any:
    """``test`` with its own marks, its parametrisation of ``argname`` replaced by ``values``."""

    @functools.wraps(test)
    async def case(**kwargs: Any) -> None:
        await test(**kwargs)

    kept = [
        mark
        for mark in getattr(test, "pytestmark", [])
        if not (mark.name == "parametrize" and mark.args[0] == argname)
    ]
    case.pytestmark = [*kept, pytest.mark.parametrize(argname, values).mark]
    return case


upstream = load()
test_compaction_keeps_pending_approval_call_paired = with_variants(
    upstream.test_compaction_keeps_pending_approval_call_paired, "wrap", variants()
)
