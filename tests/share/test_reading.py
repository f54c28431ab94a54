"""Reading: every notebook within the rendered limit and holding no paragraph over 80 words, and
the measures the reading benchmark reports."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from approval_compaction import paths
from approval_compaction.lab.share.glossary import END, START, without_blocks
from approval_compaction.lab.share.reading import (
    PARAGRAPH_WORDS,
    RENDERED_LIMIT,
    defects,
    long_paragraphs,
    predicts_first,
    reading,
    undefined_terms,
    words_before_table,
)
from approval_compaction.study.words import SITUATIONS

NOTEBOOKS = sorted((paths.ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))


def test_long_paragraphs_counts_words_of_prose_only() -> None:
    long = " ".join(["word"] * (PARAGRAPH_WORDS + 1))
    assert long_paragraphs(f"{long}\n\n```\n{long}\n```\n<!-- {long} -->") == [long]
    assert long_paragraphs(" ".join(["word"] * PARAGRAPH_WORDS)) == []


@pytest.mark.parametrize(
    ("text", "undefined"),
    [
        ("A *stand-in* answers. The stand-in answers again.", []),
        (f"The stand-in? {START}{END}\n\n*stand-in*: a copy.", ["stand-in"]),
        (f"The stand-in? {START}\n\n*stand-in*: a copy.\n{END}", []),
        ("The stand-in answers; a *stand-in* is a server.", ["stand-in"]),
        ("The stand-in answers.", ["stand-in"]),
        ("Hunk `a.py#2` is the fix. A *hunk* is a piece of a diff.", ["hunk"]),
        ("```\nstand-in\n```\nNothing else.", []),
    ],
    ids=[
        "defined-first",
        "question-before-a-block-defining-it-elsewhere",
        "question-before-the-block-defining-it",
        "used-first",
        "never-defined",
        "hunk-id",
        "code-is-not-prose",
    ],
)
def test_undefined_terms_names_a_term_used_before_its_italics(
    text: str, undefined: list[str]
) -> None:
    assert undefined_terms(text) == undefined


def test_words_before_table_stops_at_the_first_output_showing_a_table() -> None:
    table = {"text/html": ["<table><tr><td>1</td></tr></table>"]}
    notebook = {
        "cells": [
            {"cell_type": "markdown", "source": ["one two <!-- hidden -->"]},
            {"cell_type": "code", "source": [], "outputs": [{"data": {"text/plain": "x"}}]},
            {"cell_type": "markdown", "source": ["three"]},
            {"cell_type": "code", "source": [], "outputs": [{"data": table}]},
            {"cell_type": "markdown", "source": ["not counted"]},
        ]
    }
    assert words_before_table(notebook) == 3


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem[:2] for p in NOTEBOOKS])
def test_every_notebook_fits_a_comment_and_defines_its_terms_first(path: Path) -> None:
    """Issue 51: 10 rendered 42k characters with six paragraphs over 80 words; a reader pastes a
    notebook into a thread and meets its lesson in the first screen, each term defined before
    it is used."""
    rendered = paths.ROOT / "data" / "rendered" / f"{path.stem}.md"
    found = reading(path.name, json.loads(path.read_text()), rendered.read_text())
    assert found.rendered <= RENDERED_LIMIT
    assert found.long_paragraphs == ()
    assert found.undefined_terms == ()


@pytest.mark.parametrize(
    ("page", "defect"),
    [
        ("text\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", "an untitled table: | a | b |"),
        ("**Title**\n\n|  | a |\n|---|---|\n| 0 | 2 |\n", "a column of row numbers: |  | a |"),
        ("    Name: count, dtype: int64\n", "a dtype line"),
        (
            "**Figure:** ... it is shown here only when attached to the comment.",
            "a figure not shown",
        ),
        ("the answer (`No tool output found for &lt;call id&gt;.`)", "an escaped < in prose"),
        (
            "**T**\n\n| why |\n|---|\n| does not run (UserError: name 'tool_o…) |\n",
            "an error cut short",
        ),
    ],
    ids=["untitled", "row-numbers", "dtype", "figure-note", "escaped", "cut-short"],
)
def test_defects_names_what_a_reader_called_noise(page: str, defect: str) -> None:
    assert defects(page) == [defect]
    assert defects("**Title (scope)**\n\n| a | b |\n|---|---|\n|  | 2 |\n") == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem[:2] for p in NOTEBOOKS])
def test_every_notebook_predicts_first_and_shows_no_noise(path: Path) -> None:
    """Issue 61: 07, 11 and 13 asked no prediction before their answer; tables had no title
    naming their scope, pandas' row numbers, dtype lines, figure notes, an escaped call id and
    error messages cut short."""
    rendered = paths.ROOT / "data" / "rendered" / f"{path.stem}.md"
    assert predicts_first(json.loads(path.read_text()))
    assert defects(rendered.read_text()) == []


README = paths.ROOT / "README.md"
GLOSSARY_ROW = re.compile(r"^\| (\*[^|]+\*) \|", re.M)


def _glossary(text: str) -> tuple[list[str], str]:
    """The README's words table: each term it defines, and the README without the table."""
    rows = GLOSSARY_ROW.findall(text)
    terms = [t for row in rows for t in re.findall(r"\*([^*]+)\*", row)]
    rest = GLOSSARY_ROW.sub("|", text)
    return terms, rest


def test_the_readme_defines_each_term_before_it_uses_it() -> None:
    """Issue 51: "stand-in" was used at line 7 and explained near line 127; "liveness" was
    never defined."""
    assert undefined_terms(README.read_text()) == []


def test_the_glossary_holds_only_terms_the_published_files_use() -> None:
    """Issue 51: the glossary defined `pause_failed` and `unknown`, which no table used. Issue
    61: the README's table lists every term of the notebooks' blocks, so the rendered notebooks
    (their blocks left out) count as published."""
    terms, rest = _glossary(README.read_text())
    pages = [rest, *(p.read_text() for p in sorted((paths.ROOT / "docs").glob("*.md")))]
    pages += [(paths.ROOT / "data" / name).read_text() for name in ("report.md", "report-js.md")]
    rendered = sorted((paths.ROOT / "data" / "rendered").glob("*.md"))
    pages += [without_blocks(p.read_text()) for p in rendered]
    published = "\n".join(pages)
    assert [t for t in terms if t not in published] == []


def test_the_glossary_names_exactly_the_situations_of_the_record() -> None:
    text = README.read_text()
    row = next(line for line in text.splitlines() if line.startswith("| *situation* |"))
    named = set(re.findall(r"\*(\w+)\*", row.split("|", 2)[2]))
    assert named == set(SITUATIONS)


def test_every_published_install_line_is_one_the_install_test_runs() -> None:
    """Issue 51: `pip install approval-compaction` named a package on no index; every line a
    page publishes is the README's tested line from a clone, with an extra at most."""
    from approval_compaction.lab.share.readme import INSTALL_CORE, INSTALL_DOCTOR

    pages = [README, *sorted((paths.ROOT / "docs").glob("*.md"))]
    lines = {m for p in pages for m in re.findall(r"`(pip install [^`]+)`", p.read_text())}
    assert lines and lines <= {INSTALL_CORE, INSTALL_DOCTOR}


def test_screen_line_counts_lines_as_wrapped_and_drops_comments() -> None:
    """r19 read the first screen in lines wrapped at 100 columns, comments not shown."""
    from approval_compaction.lab.share.reading import screen_line

    page = "# Title\n\n<!-- a comment -->\n" + "word " * 50 + "\n\n**Answer.** Yes."
    assert screen_line(page, "**Answer") == 8  # title, blank, the comment gone, 3 wrapped, blank
    assert screen_line(page, "**Answer", columns=1000) == 6
    assert screen_line(page, "**What to do") is None


@pytest.mark.parametrize(
    "path", sorted((paths.DATA / "rendered").glob("*.md")), ids=lambda p: p.stem[:2]
)
def test_every_page_states_its_action_within_the_first_screen(path: Path) -> None:
    """Issue 61 (r19, r20): readers read the first screen at 100 columns; a terms block of
    three-line meanings and long answers put What to do at line 47-66. The action starts within
    the rubric's first 40 lines, the answer before it."""
    from approval_compaction.lab.share.reading import SCREEN_LINES, screen_line

    rendered = path.read_text()
    answer, action = screen_line(rendered, "**Answer"), screen_line(rendered, "**What to do")
    assert answer is not None and action is not None and answer < action <= SCREEN_LINES
