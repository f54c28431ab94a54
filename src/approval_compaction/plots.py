"""Plots: figures built from data and returned; nothing here reads or writes files."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

COLOURS = ListedColormap(["#c0392b", "#bdc3c7", "#27ae60"])  # violated, n/a, holds
CODES = {"VIOLATED": 0, "n/a": 1, "holds": 2}
SYMBOLS = {"VIOLATED": "✗", "n/a": "–", "holds": "✓"}


def heatmap(table: pd.DataFrame, title: str = "Invariants by case") -> Figure:
    """A grid of word cells (``holds``/``VIOLATED``/``n/a``) drawn with a mark in each cell."""
    codes = table.apply(lambda col: col.map(CODES)).to_numpy(dtype=float)
    height = 1.2 + 0.32 * len(table.index)
    fig = Figure(figsize=(2.0 + 0.9 * len(table.columns), height), dpi=100)
    ax = fig.add_subplot()
    ax.imshow(np.nan_to_num(codes, nan=1.0), cmap=COLOURS, vmin=0, vmax=2, aspect="auto")
    for (row, col), word in np.ndenumerate(table.to_numpy()):
        ax.text(col, row, SYMBOLS.get(str(word), "?"), ha="center", va="center", color="white")
    ax.set_xticks(range(len(table.columns)), [c.replace("_", "\n") for c in table.columns])
    ax.set_yticks(range(len(table.index)), list(table.index))
    ax.tick_params(labelsize=8)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig
