"""Headlines: each notebook's first cell states its answer, written there from ``data/``.

The first markdown cell of ``NN-name.ipynb`` holds the answer between ``<!-- answer:start -->``
and ``<!-- answer:end -->``; ``findings.headlines.HEADLINES[NN]`` computes it from the committed
findings. ``make run`` rewrites the blocks before it executes the notebooks (``notebooks``
command), so the answer a reader sees first is the one the data says; a markdown cell is not
touched by execution, so re-running a notebook leaves it as it is.
"""

from __future__ import annotations

from pathlib import Path

import nbformat

from ...errors import InvestigationError
from ...formats.files import write_atomic
from .. import paths
from ..findings.headlines import HEADLINES
from ..findings.load import Findings, load_findings
from ..plugins import plugins
from . import glossary
from .notebooks import dumps

START, END = "<!-- answer:start -->", "<!-- answer:end -->"


class HeadlineMarkersError(InvestigationError):
    """A notebook whose first cell has no answer markers."""


def with_answer(source: str, answer: str) -> str:
    """The cell's source with the text between the answer markers replaced: the answer its own
    paragraph, so a renderer reads it as markdown, not as part of the marker's HTML block (whose
    code spans would show ``<`` escaped)."""
    head, found_start, rest = source.partition(START)
    _, found_end, tail = rest.partition(END)
    if not found_start or not found_end:
        raise HeadlineMarkersError(f"the first cell has no {START} ... {END} block")
    return f"{head}{START}\n\n{answer}\n\n{END}{tail}"


def answer_for(path: Path, found: Findings, folder: Path = paths.DATA) -> str:
    """The answer of the notebook at ``path`` (by its number), from the findings, or from the
    data folder by the plugin whose notebook it is (``lab.plugins``)."""
    number = path.name[:2]
    for plugin in plugins():
        if plugin.notebook == number and plugin.answer is not None:
            return plugin.answer(folder)
    return HEADLINES[number](found)


def update(path: Path, found: Findings, folder: Path = paths.DATA) -> bool:
    """Rewrite one notebook's answer block, then its terms blocks (``glossary.fill``, which
    reads the answer too); return whether it changed."""
    nb = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]  # nbformat is untyped
    first = nb.cells[0]
    first.source = with_answer(first.source, answer_for(path, found, folder))
    glossary.fill_notebook(nb.cells)  # with the outputs kept from its last run
    text = dumps(nb)
    if text == path.read_text():
        return False
    write_atomic(path, text)
    return True


def update_all(notebooks: list[Path], folder: Path = paths.DATA) -> list[Path]:
    """Rewrite the answer block of every notebook given; the ones that changed."""
    found = load_findings(folder)
    return [path for path in notebooks if update(path, found, folder)]
