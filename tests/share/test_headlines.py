"""Every notebook's first cell states the answer the committed data gives."""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest

from approval_compaction.lab import paths
from approval_compaction.lab.findings.load import Findings
from approval_compaction.lab.share.headlines import (
    END,
    START,
    HeadlineMarkersError,
    answer_for,
    update,
    with_answer,
)
from approval_compaction.lab.share.notebooks import notebook_paths

NOTEBOOKS = notebook_paths(paths.NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_headlines_first_cell_states_the_committed_answer(path: Path, committed: Findings) -> None:
    nb = nbformat.read(path, as_version=4)
    first = nb.cells[0]
    assert first.cell_type == "markdown"
    block = first.source.split(START, 1)[1].split(END, 1)[0].strip()
    assert block == answer_for(path, committed)


def test_headlines_update_rewrites_a_stale_answer_and_nothing_else(
    tmp_path: Path, committed: Findings
) -> None:
    path = tmp_path / NOTEBOOKS[3].name
    shutil.copy(NOTEBOOKS[3], path)
    fresh = path.read_text()
    nb = nbformat.read(path, as_version=4)
    nb.cells[0].source = with_answer(nb.cells[0].source, "stale")
    path.write_text(nbformat.writes(nb) + "\n")
    found = committed
    assert update(path, found) and path.read_text() == fresh
    assert not update(path, found)


def test_headlines_without_markers_is_one_line_error() -> None:
    with pytest.raises(HeadlineMarkersError, match="no <!-- answer:start -->"):
        with_answer("# 11 · A title\n", "x")
