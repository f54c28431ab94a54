"""Fakes: which answer shape the SDK's own tests give their fake ``responses.compact``.

A test of the compaction session replaces the client's ``responses.compact`` with a mock that
resolves to ``{ output: [...] }``. ``fake_shapes`` reads a test file's text and classifies each
such ``output`` array by its top-level items: ``keeps_users`` (user messages, then one
compaction item: the documented shape), ``summary_only`` (a compaction item alone),
``users_only`` (user messages without a compaction item), ``empty``, or ``other`` (assistant
messages, a variable); an
``output`` counts as a fake's when the last call named in the lines before it is ``compact``.
``scan`` reads every test file of ``packages/agents-openai/test/`` in a git checkout of
openai-agents-js at one commit (``make js-stall`` is given one), and this project's own
regression tests, into ``data/js-stall-fakes.json``.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..errors import InvestigationError
from ..wire.rules import KEEPS_USERS, SUMMARY_ONLY

EMPTY, USERS_ONLY, OTHER = "empty", "users_only", "other"
SHAPES = (KEEPS_USERS, SUMMARY_ONLY, USERS_ONLY, EMPTY, OTHER)
_OUTPUT = re.compile(r"output:\s*\[")
_BEFORE = 600  # characters before an ``output`` in which its mock names ``compact``
_COMPACT = re.compile(r"\bcompact\b")  # the mock (``compaction`` is an item's type, not it)
_OTHER_CALL = re.compile(r"\b(create\w*|getResponse|fakeClientWithResponse|stream)\b")
TESTS = "packages/agents-openai/test"


class CheckoutError(InvestigationError):
    """A folder that is not a git checkout of openai-agents-js, in one line."""


@dataclass(frozen=True)
class FakeShape:
    """One fake ``responses.compact`` answer in a test file: where, and its shape."""

    repository: str  # ``openai/openai-agents-js@<commit>``, or ``this project``
    file: str
    line: int
    shape: str


def _closing(text: str, start: int) -> int:
    """The index of the bracket closing the one at ``start``."""
    depth = 0
    pairs = {"[": "]", "{": "}", "(": ")"}
    for index in range(start, len(text)):
        char = text[index]
        if char in pairs:
            depth += 1
        elif char in pairs.values():
            depth -= 1
            if depth == 0:
                return index
    return len(text)


def _items(array: str) -> list[str]:
    """The top-level items of an array literal's inside."""
    parts, current, depth = [], "", 0
    for char in array:
        depth += char in "{[("
        depth -= char in "}])"
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return [p.strip() for p in parts if p.strip()]


def _kind(item: str) -> str:
    if re.search(r"type:\s*['\"]compaction['\"]", item):
        return "compaction"
    if re.search(r"role:\s*['\"]user['\"]", item):
        return "user"
    return OTHER


def _of_compact(before: str) -> bool:
    """Whether the text before an ``output`` last names the ``compact`` mock, not another
    call's (``responses.create``'s answers hold compaction items too)."""
    compact = [m.start() for m in _COMPACT.finditer(before)]
    other = [m.start() for m in _OTHER_CALL.finditer(before)]
    return bool(compact) and (not other or compact[-1] > other[-1])


def shape_of(array: str) -> str:
    """One ``output`` array's shape, from its items."""
    kinds = [_kind(item) for item in _items(array)]
    if not kinds:
        return EMPTY
    if kinds == ["compaction"]:
        return SUMMARY_ONLY
    if kinds[-1] == "compaction" and set(kinds[:-1]) == {"user"}:
        return KEEPS_USERS
    return USERS_ONLY if set(kinds) == {"user"} else OTHER


def fake_shapes(text: str, file: str, repository: str) -> list[FakeShape]:
    """Each fake ``responses.compact`` answer of a test file's text."""
    found = []
    for match in _OUTPUT.finditer(text):
        if not _of_compact(text[max(0, match.start() - _BEFORE) : match.start()]):
            continue
        start = match.end() - 1
        array = text[start + 1 : _closing(text, start)]
        line = text.count("\n", 0, match.start()) + 1
        found.append(FakeShape(repository, file, line, shape_of(array)))
    return found


def _git(checkout: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(checkout), *args], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise CheckoutError(
            f"{checkout} is not a git checkout of openai-agents-js: {args[0]} failed"
        )
    return done.stdout


def scan(checkout: Path, ref: str = "HEAD") -> list[FakeShape]:
    """Every fake answer in the SDK's ``agents-openai`` tests at ``ref`` of a checkout."""
    commit = _git(checkout, "rev-parse", ref).strip()
    files = _git(checkout, "ls-tree", "-r", "--name-only", commit, "--", TESTS).split()
    repository = f"openai/openai-agents-js@{commit[:12]}"
    found = []
    for name in sorted(f for f in files if f.endswith(".test.ts")):
        text = _git(checkout, "show", f"{commit}:{name}")
        found += fake_shapes(text, name, repository)
    return found


def own(tests: Path) -> list[FakeShape]:
    """The fakes of this project's own regression tests (``js/sdk-test/test/``)."""
    return [
        shape
        for path in sorted(tests.glob("*.test.ts"))
        for shape in fake_shapes(path.read_text(), path.name, "this project")
    ]


def tally(shapes: list[FakeShape]) -> dict[tuple[str, str], Counter[str]]:
    """Each repository and file's fakes, counted by shape."""
    counts: dict[tuple[str, str], Counter[str]] = {}
    for shape in shapes:
        counts.setdefault((shape.repository, shape.file), Counter())[shape.shape] += 1
    return counts
