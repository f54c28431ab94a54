"""Hunks: a release-to-release diff of the files on the bug's path, cut into changes that can
be applied or left out one by one.

``split`` compares a file's two versions with ``difflib`` (no context) and turns each changed
block into hunks. A block whose added (or removed) side holds several paragraphs, each its own
statement led by its comment, is cut at them (a new paragraph starts at the block's outermost
indentation, after a blank line or where a comment follows code, never inside a string): so
0.24.0's rewrite of the pairing check and the hosted-MCP check it added beside it are two
hunks, not one. The removed and added paragraphs are paired in order; what is left over is
removed or added alone.

Every hunk is an edit of the older file (replace its lines ``old_start:old_end`` with
``new_lines``), so any set of hunks makes a file: ``compose`` builds it, ``patch_text`` writes
the set as a unified diff with the SDK repository's paths (``src/agents/...``) that
``git apply`` takes. All hunks composed give the newer file exactly (a test checks).
"""

from __future__ import annotations

import difflib
import io
import re
import tokenize
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Hunk:
    """One change to one file: lines ``old_start:old_end`` (0-based) of the older release
    become ``new_lines``; ``new_start`` is where they begin in the newer one."""

    path: str  # relative to site-packages: agents/memory/...
    number: int  # 1, 2, ... in the file
    old_start: int
    old_end: int
    new_start: int
    old_lines: tuple[str, ...]
    new_lines: tuple[str, ...]

    @property
    def name(self) -> str:
        """``openai_responses_compaction_session.py#2``."""
        return f"{self.path.rsplit('/', 1)[-1]}#{self.number}"

    @property
    def qualified(self) -> str:
        """The name with the file's path: ``agents/items.py#2`` (two modules share a name)."""
        return f"{self.path}#{self.number}"

    @property
    def span(self) -> str:
        """The lines it removes and adds, as file line numbers: ``-405..413 +406..432``."""

        def lines(start: int, count: int, sign: str) -> str:
            if not count:
                return f"{sign}0"
            return f"{sign}{start + 1}" + (f"..{start + count}" if count > 1 else "")

        return (
            f"{lines(self.old_start, len(self.old_lines), '-')} "
            f"{lines(self.new_start, len(self.new_lines), '+')}"
        )

    @property
    def first_line(self) -> str:
        """The first changed line that says something (not blank, not a bracket)."""
        for sign, line in [("+", x) for x in self.new_lines] + [("-", x) for x in self.old_lines]:
            if line.strip().strip("()[]{}:,") != "":
                return f"{sign} {line.strip()}"
        return ""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def in_strings(text: str) -> set[int]:
    """The lines (0-based) that continue a string begun on an earlier line: a docstring's body,
    where no paragraph may start. A file that does not tokenize has none."""
    inside: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING and token.end[0] > token.start[0]:
                inside.update(range(token.start[0], token.end[0]))  # rows are 1-based
    except (tokenize.TokenError, SyntaxError):
        return set()
    return inside


def paragraphs(lines: Sequence[str], inside: Collection[int] = ()) -> list[tuple[int, int]]:
    """A block of changed lines cut into paragraphs at its outermost indentation: a line there
    starts one after a blank line, or when it is a comment and the line before is code; never
    at a line in ``inside`` (positions in the block that continue a string)."""
    filled = [line for line in lines if line.strip()]
    if not filled:
        return [(0, len(lines))] if lines else []
    outer = min(_indent(line) for line in filled)
    starts = [0]
    for index in range(1, len(lines)):
        line, before = lines[index], lines[index - 1]
        if not line.strip() or _indent(line) != outer or index in inside:
            continue
        comment_after_code = line.lstrip().startswith("#") and not before.lstrip().startswith("#")
        if not before.strip() or comment_after_code:
            if any(x.strip() for x in lines[starts[-1] : index]):
                starts.append(index)
    return list(zip(starts, [*starts[1:], len(lines)], strict=True))


def split(path: str, old: str, new: str) -> list[Hunk]:
    """The hunks that turn ``old`` into ``new`` (the file's text in two releases)."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    strings_a, strings_b = in_strings(old), in_strings(new)
    found: list[Hunk] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        removed = paragraphs(a[i1:i2], {i - i1 for i in strings_a if i1 <= i < i2})
        added = paragraphs(b[j1:j2], {j - j1 for j in strings_b if j1 <= j < j2})
        for index in range(max(len(removed), len(added))):
            r1, r2 = removed[index] if index < len(removed) else (i2 - i1, i2 - i1)
            s1, s2 = added[index] if index < len(added) else (j2 - j1, j2 - j1)
            found.append(
                Hunk(
                    path,
                    len(found) + 1,
                    i1 + r1,
                    i1 + r2,
                    j1 + s1,
                    tuple(a[i1 + r1 : i1 + r2]),
                    tuple(b[j1 + s1 : j1 + s2]),
                )
            )
    return found


def compose(old: str, hunks: Iterable[Hunk]) -> str:
    """The older file with the given hunks applied (each to the older file's lines)."""
    lines = old.splitlines(keepends=True)
    # Bottom up, so earlier positions stay valid; at one position an insertion (empty range)
    # goes before the replacement that ends there.
    for hunk in sorted(hunks, key=lambda h: (h.old_start, h.old_end, h.number), reverse=True):
        if lines[hunk.old_start : hunk.old_end] != list(hunk.old_lines):
            raise ValueError(f"{hunk.name} does not match the file it was cut from")
        lines[hunk.old_start : hunk.old_end] = list(hunk.new_lines)
    return "".join(lines)


def repository_path(path: str) -> str:
    """``agents/x.py`` as the SDK's repository has it: ``src/agents/x.py``."""
    return f"src/{path}"


def patch_text(before: Mapping[str, str], after: Mapping[str, str]) -> str:
    """A unified diff from ``before`` to ``after`` (file texts by path), as ``git diff``
    writes it in the SDK's repository; empty when nothing differs."""
    parts = []
    for path in sorted(before):
        if before[path] == after[path]:
            continue
        where = repository_path(path)
        parts.append(f"diff --git a/{where} b/{where}\n")
        diff = difflib.unified_diff(
            before[path].splitlines(keepends=True),
            after[path].splitlines(keepends=True),
            f"a/{where}",
            f"b/{where}",
        )
        parts += [line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                  for line in diff]  # fmt: skip
    return "".join(parts)


def mentions(hunk: Hunk, name: str) -> bool:
    """Whether the hunk's added lines use ``name`` (as a whole word)."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    return any(word.search(line) for line in hunk.new_lines)
