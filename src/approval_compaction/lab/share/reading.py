"""Reading: how soon a published page teaches, measured the same way for every notebook.

A notebook is read as a reporter pastes it: its rendered markdown (``data/rendered/NN-name.md``)
should fit in about ``RENDERED_LIMIT`` characters, and its prose (the markdown cells) should hold
no paragraph over ``PARAGRAPH_WORDS`` words, counted as the README's and the docs' are
(``formats.markdown.paragraphs``: each list item on its own; headings, tables, code fences and
HTML are not prose).

A *term* is a word this project gives its own meaning (``TERMS``): a page defines it where it
first sets it in italics (``*stand-in*``, as the README's words table and a notebook's lead-in
do), and uses it wherever its pattern matches. ``undefined_terms`` names the terms a text uses
before it defines them (or never defines). The benchmark ``benchmarks/notebook_reading.py``
reports these figures per notebook, and a fast test holds every notebook to the limits.

``defects`` names what a reader called noise in a rendered page (issue 61): a table with no
title line naming its scope above it, a column of pandas' row numbers, a ``dtype:`` line, a
note where a figure should show, an escaped ``&lt;`` in prose, an error message cut short in a
table. ``predicts_first`` says whether a notebook asks its prediction before its answer.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...formats.markdown import paragraphs
from . import glossary

RENDERED_LIMIT = 25_000  # characters of a rendered notebook: one comment a reader scrolls
PARAGRAPH_WORDS = 80  # words in one paragraph of prose

# Each term by its name, with the pattern of a use: the collection's shared words (``glossary``),
# then the words with a meaning only on one page: the search's, the releases' and the ablation's.
_PAGE_TERMS: dict[str, str] = {
    "documented contract": r"documented contract",
    "era": r"eras?",
    "lenient": r"lenient",
    "faithful": r"faithful",
    "hunk": r"hunks?|\w+\.py#\d+",
    "ddmin": r"ddmin",
    "ablation": r"ablation",
    "ownership gate": r"ownership gate",
    "catalogue": r"catalogue",
    "widened": r"widened",
}
TERMS: dict[str, str] = {t.name: t.pattern for t in glossary.TERMS} | _PAGE_TERMS
_TERM = glossary.BY_NAME | {n: glossary.Term(n, p, "") for n, p in _PAGE_TERMS.items()}
# Where a page's first terms block opens and closes, kept through ``words`` (which drops comments).
_OPEN, _CLOSE = "\u2063terms\u2063", "\u2063/terms\u2063"
_TABLE = re.compile(r"<table|^\|.*\|\s*$\n^\|[-| :]+\|\s*$", re.M)


prose = glossary.prose  # markdown without its code fences and HTML comments


def words(text: str) -> str:
    """Prose without link targets and code spans naming a path: what a term check reads."""
    return glossary.plain(text)


def long_paragraphs(text: str, limit: int = PARAGRAPH_WORDS) -> list[str]:
    """The paragraphs of prose (``formats.markdown.paragraphs``, HTML comments left out) with
    more than ``limit`` words."""
    return [p for p in paragraphs(glossary.COMMENT.sub("", text)) if len(p.split()) > limit]


def markdown_cells(notebook: Mapping[str, Any]) -> list[str]:
    """The source of each markdown cell, in order."""
    cells: Iterable[Mapping[str, Any]] = notebook.get("cells", [])
    return ["".join(c.get("source", [])) for c in cells if c.get("cell_type") == "markdown"]


def notebook_prose(notebook: Mapping[str, Any]) -> str:
    """Every markdown cell of a notebook, as one text."""
    return "\n\n".join(markdown_cells(notebook))


def _shows_table(cell: Mapping[str, Any]) -> bool:
    for output in cell.get("outputs", []):
        for kind in ("text/html", "text/markdown"):
            if _TABLE.search("".join(output.get("data", {}).get(kind, ""))):
                return True
    return False


def words_before_table(notebook: Mapping[str, Any]) -> int:
    """The words of the markdown cells a reader meets before the first output showing a table."""
    words = 0
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "code" and _shows_table(cell):
            break
        if cell.get("cell_type") == "markdown":
            words += len(prose("".join(cell.get("source", []))).split())
    return words


def undefined_terms(text: str, terms: Sequence[str] = tuple(TERMS)) -> list[str]:
    """The terms ``text`` uses before it defines them, or uses without defining them. A page's
    first terms block defines where used the words of the question just above it: a use before
    the block counts as defined when the block defines it."""
    plain = words(text.replace(glossary.START, _OPEN).replace(glossary.END, _CLOSE))
    lead = plain.find(_OPEN)
    close = plain.find(_CLOSE, lead) if lead >= 0 else -1
    found = []
    for name in terms:
        used = _TERM[name].use.search(plain)
        if used is None:
            continue
        defined = _TERM[name].definition.search(plain)
        if defined is None:
            found.append(name)
        elif used.start() < defined.start():
            asked = used.start() < lead < defined.start() < close  # the question, then its block
            if not asked:
                found.append(name)
    return found


@dataclass(frozen=True)
class Reading:
    """How one notebook reads: characters rendered, words before its first table, paragraphs
    over the limit (their first words), and terms used before their definition."""

    notebook: str
    rendered: int
    words_before_table: int
    long_paragraphs: tuple[str, ...]
    undefined_terms: tuple[str, ...]

    @property
    def fits(self) -> bool:
        """Within the rendered limit, and no paragraph over the word limit."""
        return self.rendered <= RENDERED_LIMIT and not self.long_paragraphs


def reading(name: str, notebook: Mapping[str, Any], rendered: str) -> Reading:
    """The reading of one notebook, from its JSON and its rendered markdown: paragraphs are its
    prose's, terms are read in the rendered text (prose and outputs, as a reader meets them: a
    table an output shows may use a term too)."""
    text = notebook_prose(notebook)
    return Reading(
        name,
        len(rendered),
        words_before_table(notebook),
        tuple(" ".join(p.split()[:8]) for p in long_paragraphs(text)),
        tuple(undefined_terms(rendered)),
    )


# What a reader met as noise in a rendered page, each with its pattern (issue 61).
_TITLE_ABOVE = re.compile(r"^(\*\*|<details>)")
_DEFECTS: dict[str, re.Pattern[str]] = {
    "a dtype line": re.compile(r"^\s*(Name: .*)?dtype: \w+$", re.M),
    "a figure not shown": re.compile(r"it is shown here only when attached"),
    "an escaped < in prose": re.compile(r"&lt;"),
    "an error cut short": re.compile(r"\|[^|\n]*Error[^|\n]*…\)?\s*\|"),
}


def defects(rendered: str) -> list[str]:
    """Each kind of noise a rendered page holds, and each table without a title line (bold, or
    the ``<details>`` of a cut table's whole copy) right above it."""
    found = [name for name, pattern in _DEFECTS.items() if pattern.search(prose(rendered))]
    lines = glossary.FENCE.sub("", rendered).splitlines()
    for i in range(1, len(lines)):
        header = lines[i - 1].startswith("|") and re.match(r"^\|[-| :]+\|\s*$", lines[i])
        if header and (i < 2 or not lines[i - 2].startswith("|")):
            above = next((line for line in reversed(lines[: i - 1]) if line.strip()), "")
            if not _TITLE_ABOVE.match(above):
                found.append(f"an untitled table: {lines[i - 1][:60]}")
            if re.match(r"^\|\s+\|", lines[i - 1]):
                found.append(f"a column of row numbers: {lines[i - 1][:60]}")
    return found


SCREEN_COLUMNS = 100  # a reader's first screen: its lines wrapped here (r19 counted so)
SCREEN_LINES = 40  # the first screen's lines: the rubric's "about the first 40 lines"


def screen_line(rendered: str, marker: str, columns: int = SCREEN_COLUMNS) -> int | None:
    """The line (from 1) on which the paragraph holding ``marker`` starts, in a rendered page read
    as a reader meets it: comments dropped, each line wrapped at ``columns``; None when absent."""
    line = 1
    for source in glossary.COMMENT.sub("", rendered).splitlines():
        if marker in source:
            return line
        line += len(textwrap.wrap(source, columns)) or 1
    return None


def predicts_first(notebook: Mapping[str, Any]) -> bool:
    """Whether the notebook's first cell asks the reader to predict before its answer."""
    cells = markdown_cells(notebook)
    first = cells[0] if cells else ""
    asked, answer = first.find("redict"), first.find("<!-- answer:start -->")
    return 0 <= asked < answer
