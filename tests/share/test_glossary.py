"""Glossary: each shared word has one meaning, written into every page's terms blocks (issue 61:
readers met the same word defined differently on each page, or used before any page defined it)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import nbformat
import pytest

from approval_compaction.lab import paths
from approval_compaction.lab.share.glossary import (
    BY_NAME,
    END,
    MORE,
    START,
    TERMS,
    cell_texts,
    fill,
    hand_defined,
    needed,
    plain,
    used,
)
from approval_compaction.lab.share.notebooks import notebook_paths
from approval_compaction.lab.share.reading import SCREEN_COLUMNS

NOTEBOOKS = notebook_paths(paths.NOTEBOOKS)
EMPTY = f"{START}{END}"


def _names(terms: list) -> list[str]:  # type: ignore[type-arg]
    return [t.name for t in terms]


def test_used_lists_terms_in_order_of_first_use_and_reads_no_code() -> None:
    text = "The doctor reads STORE.\n\n```\nstand-in\n```\nA pending call, then the doctor."
    assert _names(used(text)) == ["doctor", "STORE", "pending call"]


def test_an_exact_term_matches_its_case_only() -> None:
    assert _names(used("the session store")) == []
    assert _names(used("`doctor scan STORE`")) == ["doctor", "STORE"]


def test_needed_puts_a_meaning_s_terms_first_and_skips_known_and_self_defined() -> None:
    # orphan output's meaning uses "refused"; the diagnosis defines *poisoned* itself.
    assert _names(needed([BY_NAME["orphan output"]])) == ["refused", "orphan output"]
    assert _names(needed([BY_NAME["orphan output"]], [BY_NAME["refused"]])) == ["orphan output"]
    assert "poisoned" not in _names(needed([BY_NAME["diagnosis"]]))


def test_needed_reads_the_first_screen_s_meaning_unless_whole() -> None:
    """orphan output's first-screen meaning uses no term; its rest ("refusing") does."""
    assert _names(needed([BY_NAME["orphan output"]], whole=False)) == ["orphan output"]


def test_a_meaning_s_rest_follows_its_first_screen_part() -> None:
    term = BY_NAME["orphan output"]
    assert term.more and term.full == f"{term.meaning.removesuffix('.')}; {term.rest()}"
    assert BY_NAME["pending call"].full == BY_NAME["pending call"].meaning  # no rest


def test_every_meaning_uses_only_terms_it_defines_or_that_come_before_it() -> None:
    order = {t.name: i for i, t in enumerate(TERMS)}
    for term in TERMS:
        for inner in used(term.full):
            if inner.name != term.name and not inner.defined_in(term.full):
                assert order[inner.name] < order[term.name], (term.name, inner.name)


def test_fill_splits_the_terms_between_blocks_by_where_each_is_first_used() -> None:
    cells = [
        f"Question on the pending call.\n\n{EMPTY}\n\nAnswer.",
        "The doctor.",
        f"{EMPTY}\n\nThe doctor again, and STORE: its `scan`.",
        "Nothing new: the pending call.",
    ]
    first, second, third, fourth = fill(cells)
    assert re.findall(r"^- \*([^*]+)\*", first, re.M) == ["pending call", "doctor"]
    below, _, rest = third.partition(MORE)
    assert re.findall(r"^- \*([^*]+)\*", below, re.M) == ["STORE"]
    assert re.findall(r"^- \*([^*]+)\*", rest, re.M) == ["doctor"]  # the rest of its meaning
    assert (second, fourth) == (cells[1], cells[3])
    assert fill([first, second, third, fourth]) == [first, second, third, fourth]


def test_fill_counts_a_code_cell_s_words_where_it_stands() -> None:
    """The check reads a page as rendered: a table title a code cell prints uses words there."""
    cells = [f"Question.\n\n{EMPTY}", 'title = "the stand-in answered"', f"{EMPTY}\n\nThe doctor."]
    first, code, last = fill(cells)
    assert "- *stand-in*" in first and "- *stand-in*" not in last.partition(MORE)[0]
    assert code == cells[1]


def test_cell_texts_reads_a_code_cell_s_outputs_not_its_source() -> None:
    """The check reads a page as rendered: a code cell's words are what it prints."""
    cells = [
        {"cell_type": "markdown", "source": ["A question."]},
        {
            "cell_type": "code",
            "source": "doctor = 1",
            "outputs": [
                {"output_type": "stream", "text": ["the stand-in answered\n"]},
                {"output_type": "display_data", "data": {"text/html": "<b>STORE</b>"}},
            ],
        },
    ]
    texts = cell_texts(cells)
    assert texts[0] == "A question." and "doctor" not in texts[1]
    assert _names(used(texts[1])) == ["stand-in", "STORE"]


def test_fill_says_a_first_screen_meaning_short_and_its_rest_in_the_next_block() -> None:
    """r19: three-line meanings put the answer past line 45. The first block says each meaning as
    a first screen needs it; the next block says the rest, after the terms that rest uses."""
    cells = [f"Question on an orphan output.\n\n{EMPTY}\n\nAnswer.", f"{EMPTY}\n\nThe body."]
    first, second = fill(cells)
    term = BY_NAME["orphan output"]
    assert term.line in first and term.more not in first and "- *refused*" not in first
    below, _, rest = second.partition(MORE)
    assert "- *refused*: answered HTTP 400" in below  # the rest says "refusing": defined first
    assert rest.partition(END)[0].strip() == term.more_line()


def test_a_clause_is_said_only_on_a_page_whose_words_need_it() -> None:
    """r21: JavaScript names, Chat Completions and the scripted model's *would be refused* were
    said on pages showing none of them; the README's table says every clause."""
    hook = BY_NAME["hook"]
    assert hook.rest("LangChain only") == ""
    assert hook.rest("openai-agents only") == "openai-agents' is `should_trigger_compaction`."
    assert hook.rest("on @openai/agents 0.20.0") == "JavaScript's is `shouldTriggerCompaction`."
    assert "shouldTriggerCompaction" in hook.full
    refused = BY_NAME["refused"]
    assert "would be refused" not in fill([f"Refused.\n\n{EMPTY}", f"{EMPTY}\n\nDone."])[1]
    scripted = [f"Refused.\n\n{EMPTY}", f"{EMPTY}\n\nOn the scripted model."]
    assert "would be refused" not in fill(scripted)[1]  # r22: said where the page never says it
    cells = [f"Refused.\n\n{EMPTY}", f"{EMPTY}\n\nIt would be\nrefused."]  # r23: a line break
    assert refused.more_line(cells[1]) in fill(cells)[1]
    # r25: a page counting next_turn_accepted broken on the scripted model says how it breaks
    assert "would be refused" in refused.rest("next_turn_accepted breaks on the scripted model")
    assert refused.rest("next_turn_accepted breaks over HTTP") == ""


def test_a_long_meaning_s_clauses_follow_the_page_s_words() -> None:
    """r22: `auto`'s rule on a page never naming `auto`, and doctor commands a page never runs."""
    mode = BY_NAME["compaction mode"]
    assert (
        "`auto` (the default) the last response's id if it was stored" in mode.meaning
    )  # r25: on screen one
    assert (
        mode.rest("openai-agents, input mode on 0.23.1")
        == "openai-agents' setting is `compaction_mode`."
    )
    assert "0.23.1 and 0.24.0" in mode.rest("auto mode on 0.23.1")
    assert "0.23.1 and 0.24.0" not in mode.rest("auto mode on 0.22.0")
    assert "0.23.1 and 0.24.0" not in mode.rest("input mode on 0.23.1")
    stand_in = BY_NAME["stand-in"]
    assert "answer as the model" in stand_in.rest("runs over HTTP")
    assert "answer as the model" not in stand_in.rest("the scripted model only")
    doctor = BY_NAME["doctor"]
    assert doctor.rest("doctor repair STORE").startswith("`repair --apply`")
    assert "`scan`" not in doctor.rest("doctor repair STORE")
    assert "`restore`" in doctor.full and "`items`" in doctor.full  # the README says each
    boundary = BY_NAME["boundary"]  # r24: 11's json in one process, 13's and 14's in a second
    assert boundary.rest("@openai/agents 0.20.0") == (
        "carried means serialised and read back; the OpenAI SDKs read it in one process."
    )
    assert "second process" in boundary.rest("google-adk 1.16.0")
    assert "one process" not in boundary.rest("LangChain's agents")


def test_every_first_terms_block_line_fits_two_rendered_lines() -> None:
    """A first screen is read at about 100 columns: no meaning there takes more than two lines."""
    for path in NOTEBOOKS:
        first = nbformat.read(path, as_version=4).cells[0].source  # type: ignore[no-untyped-call]
        block = first.partition(START)[2].partition(END)[0]
        long = [
            line[:30] for line in block.splitlines() if len(textwrap.wrap(line, SCREEN_COLUMNS)) > 2
        ]
        assert long == [], path.name


def test_fill_leaves_a_block_with_nothing_new_empty() -> None:
    cells = [f"The pending call.\n\n{EMPTY}", f"{EMPTY}\n\nThe pending call."]  # no rest
    assert fill(cells)[1] == cells[1]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem[:2])
def test_every_notebook_s_terms_blocks_are_the_glossary_s(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]  # nbformat is untyped
    marked = [i for i, c in enumerate(nb.cells) if c.cell_type == "markdown"]
    filled = fill(cell_texts(nb.cells))
    assert START in nb.cells[0].source
    assert [filled[i] for i in marked] == [nb.cells[i].source for i in marked]


def test_hand_defined_names_a_glossary_term_set_in_italics_outside_a_block() -> None:
    block = fill([f"The doctor.\n\n{EMPTY}"])[0]
    assert hand_defined(block) == []
    assert hand_defined(f"{block}\n\nThe *doctor* is a command.") == ["doctor"]
    assert hand_defined("A *widget* and `*doctor*`.\n\n```\n*doctor*\n```\n") == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem[:2])
def test_no_notebook_defines_a_glossary_term_by_hand(path: Path) -> None:
    """Issue 61 (r9-r13): each page defined the shared words a little differently."""
    nb = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]  # nbformat is untyped
    text = "\n\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert hand_defined(text) == []


def test_plain_drops_a_path_in_a_code_span_but_not_the_prose_between_two_spans() -> None:
    """r6: a slash between two code spans hid the prose between them from the term check."""
    text = "`a` then an orphan output / `b` and `src/x.py`, see [here](docs/x.md)."
    assert plain(text) == "`a` then an orphan output / `b` and , see [here."
    assert _names(used(text)) == ["orphan output"]
