"""Heatmap: a grid of verdict words drawn as coloured cells, built by one function.

Cells take their colour from the verdict vocabulary, and carry a symbol (or a count) so that
the figure reads without colour. Two presets use the builder: cases by invariants
(``heatmap``) and invariants by releases (``release_heatmap``). Figures are returned; nothing
here reads or writes files (``png_bytes`` gives the bytes a caller writes).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

from ..analysis import vocabulary
from ..analysis.vocabulary import Mark

CASE_MARKS: tuple[Mark, ...] = (vocabulary.VIOLATED, vocabulary.NOT_JUDGED, vocabulary.HOLDS)
RELEASE_MARKS: tuple[Mark, ...] = (
    vocabulary.VIOLATED,
    vocabulary.HOLDS,
    vocabulary.NOT_JUDGED,
    vocabulary.UNAVAILABLE,
)


def grid_figure(
    words: pd.DataFrame,
    labels: np.ndarray,
    *,
    marks: Sequence[Mark],
    size: tuple[float, float],
    title: str,
    title_size: float,
    label_size: float,
    text_size: float | None = None,
    column_labels: Sequence[str] | None = None,
    rotate_columns: bool = False,
    cell_lines: bool = False,
) -> Figure:
    """The one heatmap builder: a cell per word, coloured by its mark, with its label on it.

    ``marks`` fixes the colour order; a word outside it is drawn as ``n/a``. ``labels`` holds the
    text drawn on each cell (an empty string draws nothing).
    """
    codes = {mark.word: index for index, mark in enumerate(marks)}
    blank = codes[vocabulary.NOT_JUDGED.word]
    values = words.apply(lambda col: col.map(codes)).to_numpy(dtype=float)
    fig = Figure(figsize=size, dpi=100)
    ax = fig.add_subplot()
    colours = ListedColormap([mark.colour for mark in marks])
    ax.imshow(
        np.nan_to_num(values, nan=float(blank)),
        cmap=colours,
        vmin=0,
        vmax=len(marks) - 1,
        aspect="auto",
    )
    for (row, col), text in np.ndenumerate(labels):
        if text:
            ax.text(col, row, text, ha="center", va="center", color="white", fontsize=text_size)
    names = list(column_labels) if column_labels is not None else list(words.columns)
    ax.set_xticks(range(len(words.columns)), names, rotation=90 if rotate_columns else None)
    ax.set_yticks(range(len(words.index)), list(words.index))
    if cell_lines:
        ax.set_xticks(np.arange(len(words.columns) + 1) - 0.5, minor=True)
        ax.set_yticks(np.arange(len(words.index) + 1) - 0.5, minor=True)
        ax.grid(which="minor", color="white", linewidth=0.6)
        ax.tick_params(which="minor", length=0)
    ax.tick_params(labelsize=label_size)
    ax.set_title(title, fontsize=title_size)
    fig.tight_layout()
    return fig


def heatmap(table: pd.DataFrame, title: str = "Invariants by case") -> Figure:
    """Cases by invariants (``holds``/``VIOLATED``/``n/a`` words), a symbol in each cell."""
    symbols = {mark.word: mark.symbol for mark in CASE_MARKS}
    labels = np.vectorize(lambda word: symbols.get(str(word), "?"), otypes=[str])(table)
    return grid_figure(
        table,
        labels,
        marks=CASE_MARKS,
        size=(2.0 + 0.9 * len(table.columns), 1.2 + 0.32 * len(table.index)),
        title=title,
        title_size=10,
        label_size=8,
        column_labels=[str(c).replace("_", "\n") for c in table.columns],
    )


def release_heatmap(grid: pd.DataFrame, counts: pd.DataFrame | None = None) -> Figure:
    """Invariants (rows) by releases (columns); a violated cell shows how many cases break it."""
    labels = np.full(grid.shape, "", dtype=object)
    if counts is not None:
        violated = grid.to_numpy() == vocabulary.VIOLATED.word
        labels[violated] = counts.to_numpy(dtype=int).astype(str)[violated]
    return grid_figure(
        grid,
        labels,
        marks=RELEASE_MARKS,
        size=(3.0 + 0.17 * len(grid.columns), 1.4 + 0.42 * len(grid.index)),
        title="Invariants by openai-agents release (red: violated; number: cases)",
        title_size=9,
        label_size=7,
        text_size=6,
        rotate_columns=True,
        cell_lines=True,
    )


def png_bytes(fig: Figure) -> bytes:
    """A figure as PNG bytes, without the variable Software metadata."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()
