"""Heatmaps: a cell per verdict in the vocabulary's colour, with its symbol or a count on it,
and PNG bytes that do not change from run to run."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure

from approval_compaction.analysis.vocabulary import (
    HOLDS,
    MARKS_BY_WORD,
    NOT_JUDGED,
    UNAVAILABLE,
    VIOLATED,
)
from approval_compaction.display.heatmap import heatmap, png_bytes, release_heatmap

CASES = pd.DataFrame(
    {
        "next_turn_input_paired": [VIOLATED.word, HOLDS.word, NOT_JUDGED.word],
        "decision_enforced": [HOLDS.word, HOLDS.word, NOT_JUDGED.word],
    },
    index=["run/approve/on/json", "run/approve/off/json", "run/reject/on/json"],
)
GRID = pd.DataFrame(
    {
        "0.22.0": [HOLDS.word, HOLDS.word],
        "0.23.1": [VIOLATED.word, HOLDS.word],
        "0.23.2": [UNAVAILABLE.word, UNAVAILABLE.word],
        "0.24.0": [VIOLATED.word, NOT_JUDGED.word],
    },
    index=["next_turn_input_paired", "decision_enforced"],
)
COUNTS = pd.DataFrame([[0, 8, 0, 3], [0, 0, 0, 0]], index=GRID.index, columns=GRID.columns)


def texts_by_cell(fig: Figure) -> dict[tuple[int, int], str]:
    """The text drawn on each cell, keyed by (row, column)."""
    (ax,) = fig.axes
    return {
        (round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in ax.texts
    }


def cell_colours(ax: Axes) -> np.ndarray:
    """The RGBA colour each cell is painted with."""
    (image,) = ax.images
    return np.asarray(image.cmap(image.norm(image.get_array())))


def test_heatmap_returns_a_figure_with_one_axes() -> None:
    fig = heatmap(CASES)
    assert isinstance(fig, Figure) and len(fig.axes) == 1


def test_heatmap_has_one_text_per_cell_with_the_vocabulary_symbol() -> None:
    texts = texts_by_cell(heatmap(CASES))
    expected = {
        (row, col): MARKS_BY_WORD[word].symbol
        for (row, col), word in np.ndenumerate(CASES.to_numpy())
    }
    assert texts == expected
    assert texts[(0, 0)] == VIOLATED.symbol


def test_heatmap_colours_each_cell_by_its_verdict() -> None:
    colours = cell_colours(heatmap(CASES).axes[0])
    for (row, col), word in np.ndenumerate(CASES.to_numpy()):
        assert tuple(colours[row, col]) == pytest.approx(to_rgba(MARKS_BY_WORD[word].colour))


def test_heatmap_word_outside_the_vocabulary_reads_question_mark_on_grey() -> None:
    table = pd.DataFrame({"x": ["maybe"]}, index=["case"])
    fig = heatmap(table)
    assert texts_by_cell(fig) == {(0, 0): "?"}
    assert tuple(cell_colours(fig.axes[0])[0, 0]) == pytest.approx(to_rgba(NOT_JUDGED.colour))


def test_heatmap_labels_cases_and_invariants() -> None:
    (ax,) = heatmap(CASES, title="Pinned").axes
    assert [t.get_text() for t in ax.get_yticklabels()] == CASES.index.tolist()
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "next\nturn\ninput\npaired",
        "decision\nenforced",
    ]
    assert ax.get_title() == "Pinned"


def test_release_heatmap_draws_counts_only_on_violated_cells() -> None:
    texts = texts_by_cell(release_heatmap(GRID, COUNTS))
    violated = np.argwhere(GRID.to_numpy() == VIOLATED.word)
    assert texts == {(row, col): str(COUNTS.iat[row, col]) for row, col in violated}
    assert texts == {(0, 1): "8", (0, 3): "3"}


def test_release_heatmap_without_counts_draws_no_text() -> None:
    assert texts_by_cell(release_heatmap(GRID)) == {}


def test_release_heatmap_colours_unavailable_releases() -> None:
    (ax,) = release_heatmap(GRID, COUNTS).axes
    colours = cell_colours(ax)
    for (row, col), word in np.ndenumerate(GRID.to_numpy()):
        assert tuple(colours[row, col]) == pytest.approx(to_rgba(MARKS_BY_WORD[word].colour))
    assert [t.get_text() for t in ax.get_xticklabels()] == GRID.columns.tolist()


def png_text_keys(data: bytes) -> list[str]:
    """The keywords of a PNG's text chunks (tEXt, zTXt, iTXt)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    keys, offset = [], 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(kind + body)
        if kind in (b"tEXt", b"zTXt", b"iTXt"):
            keys.append(body.split(b"\0", 1)[0].decode("latin-1"))
        offset += 12 + length
    return keys


def test_png_bytes_has_no_software_metadata() -> None:
    """Matplotlib writes its version as ``Software`` by default; an upgrade would change the PNG."""
    plain = io.BytesIO()
    heatmap(CASES).savefig(plain, format="png")
    assert "Software" in png_text_keys(plain.getvalue())  # the check below can fail
    assert "Software" not in png_text_keys(png_bytes(heatmap(CASES)))


@pytest.mark.parametrize(
    "build",
    [lambda: heatmap(CASES), lambda: release_heatmap(GRID, COUNTS)],
    ids=["cases", "releases"],
)
def test_png_bytes_are_the_same_for_the_same_data(build: object) -> None:
    first, second = png_bytes(build()), png_bytes(build())  # type: ignore[operator]
    assert first == second


def test_png_bytes_differ_when_a_verdict_differs() -> None:
    changed = CASES.copy()
    changed.iat[1, 0] = VIOLATED.word
    assert png_bytes(heatmap(changed)) != png_bytes(heatmap(CASES))
