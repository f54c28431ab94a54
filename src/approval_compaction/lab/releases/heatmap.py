"""Heatmap: a grid of verdict words drawn as coloured cells, built by one function.

Every cell carries its verdict's symbol (``✓``, ``✗``, ``–``, ``∅``) in the ink that contrasts
more with its colour, so the figure reads without colour, in greyscale and under colour-vision
deficiencies; the colours themselves are the vocabulary's Okabe-Ito ones. Two presets use the
builder: cases by invariants (``heatmap``) and invariants by releases (``release_heatmap``,
where a violated cell also says how many cases break it). A matrix's title names what it ran
under, from the runs themselves (``MatrixScope``): the release, the compaction mode, the trigger
and the model, so no two matrices that differ in one of them can be taken for each other.
Figures are returned; nothing here reads or writes files (``png_bytes`` gives the bytes a caller
writes).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

from ...analysis import vocabulary
from ...analysis.vocabulary import Mark
from ...display.views import MODEL_WORDS, sdk_name
from ...errors import InvestigationError
from ...study.capture import CaseRun

CASE_MARKS: tuple[Mark, ...] = (vocabulary.VIOLATED, vocabulary.NOT_JUDGED, vocabulary.HOLDS)
RELEASE_MARKS: tuple[Mark, ...] = (
    vocabulary.VIOLATED,
    vocabulary.HOLDS,
    vocabulary.NOT_JUDGED,
    vocabulary.UNAVAILABLE,
)
UNKNOWN = "?"  # drawn on a word outside the vocabulary (its cell is grey, as not judged)
TRIGGER = "trigger: every turn (compaction on), never (off)"  # each case's hook, by its label
HOOK = "hook always says yes (on), never (off)"  # the same, in the words notebooks 04-06 use


class MixedScopeError(InvestigationError):
    """Runs of one matrix that differ in release, mode, model or store setting."""


@dataclass(frozen=True)
class MatrixScope:
    """What a matrix of cases ran under, for its title."""

    sdk: str  # "openai-agents 0.23.1"
    mode: str  # the compaction session's compaction_mode
    model: str  # "scripted" or "responses"
    store: bool | None = None  # the agent's ModelSettings(store=...); None: not set

    @property
    def title(self) -> str:
        """One line: release, mode (and store when set), trigger, model."""
        return self.words()

    def words(self, hook: str = TRIGGER) -> str:
        """The title with the cases' hook named in ``hook``'s words."""
        store = "" if self.store is None else f", store={self.store}"
        model = MODEL_WORDS.get(self.model, self.model)
        return f"{self.sdk}, compaction_mode={self.mode}{store}; {hook}; {model}"


def matrix_scope(runs: Sequence[CaseRun]) -> MatrixScope:
    """The one scope every run of a matrix shares; an error when they differ."""
    scopes = {
        MatrixScope(f"{sdk_name(r.sdk)} {r.sdk_version}", r.mode, r.model, r.response_store)
        for r in runs
    }
    if len(scopes) != 1:
        raise MixedScopeError(f"a matrix needs runs of one scope, got {len(scopes)}")
    return scopes.pop()


def symbols(words: pd.DataFrame, marks: Sequence[Mark]) -> np.ndarray:
    """Each cell's symbol from its word (``?`` for a word outside ``marks``)."""
    by_word = {mark.word: mark.symbol for mark in marks}
    cells = [[by_word.get(str(word), UNKNOWN) for word in row] for row in words.to_numpy()]
    return np.array(cells, dtype=object).reshape(words.shape)


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
    text drawn on each cell, in its mark's ink (an empty string draws nothing).
    """
    codes = {mark.word: index for index, mark in enumerate(marks)}
    blank = codes[vocabulary.NOT_JUDGED.word]
    values = np.nan_to_num(
        words.apply(lambda col: col.map(codes)).to_numpy(dtype=float), nan=float(blank)
    )
    fig = Figure(figsize=size, dpi=100)
    ax = fig.add_subplot()
    colours = ListedColormap([mark.colour for mark in marks])
    ax.imshow(values, cmap=colours, vmin=0, vmax=len(marks) - 1, aspect="auto")
    for (row, col), text in np.ndenumerate(labels):
        if text:
            ink = marks[int(values[row, col])].ink
            ax.text(col, row, text, ha="center", va="center", color=ink, fontsize=text_size)
    names = list(column_labels) if column_labels is not None else list(words.columns)
    ax.set_xticks(range(len(words.columns)), names, rotation=90 if rotate_columns else None)
    ax.set_yticks(range(len(words.index)), list(words.index))
    if cell_lines:
        ax.set_xticks(np.arange(len(words.columns) + 1) - 0.5, minor=True)
        ax.set_yticks(np.arange(len(words.index) + 1) - 0.5, minor=True)
        ax.grid(which="minor", color="white", linewidth=0.8)
        ax.tick_params(which="minor", length=0)
    ax.tick_params(labelsize=label_size)
    ax.set_title(title, fontsize=title_size)
    fig.tight_layout()
    return fig


def used(marks: Sequence[Mark], words: pd.DataFrame) -> tuple[Mark, ...]:
    """The marks whose word is in some cell: a legend names no symbol the figure never draws."""
    present = {str(word) for word in words.to_numpy().ravel()}
    return tuple(mark for mark in marks if mark.word in present)


def heatmap(
    table: pd.DataFrame, scope: MatrixScope, *, hook: str = TRIGGER, used_only: bool = False
) -> Figure:
    """Cases by invariants (``holds``/``VIOLATED``/``n/a`` words), a symbol in each cell, titled
    with what the runs ran under (the hook in ``hook``'s words); ``used_only``: the legend names
    only the symbols drawn."""
    title = f"Invariants by case: {scope.words(hook)}"
    order = used(vocabulary.LEGEND_ORDER, table) if used_only else vocabulary.LEGEND_ORDER
    legend = vocabulary.legend(order, symbols=True)
    return grid_figure(
        table,
        symbols(table, CASE_MARKS),
        marks=CASE_MARKS,
        size=(2.6 + 1.0 * len(table.columns), 1.6 + 0.34 * len(table.index)),
        title=f"{title}\n{legend}",
        title_size=11,
        label_size=9,
        text_size=11,
        column_labels=[str(c).replace("_", "\n") for c in table.columns],
        cell_lines=True,
    )


def release_heatmap(
    grid: pd.DataFrame,
    counts: pd.DataFrame | None = None,
    scope: MatrixScope | None = None,
    *,
    hook: str = TRIGGER,
    used_only: bool = False,
) -> Figure:
    """Invariants (rows) by releases (columns), a symbol in each cell; under a violated cell's
    ``✗``, how many cases break the invariant (when ``counts`` is given); the title's first
    line is the ``scope`` the cases ran under, when given, the hook in ``hook``'s words;
    ``used_only``: the legend names only the symbols drawn."""
    labels = symbols(grid, RELEASE_MARKS)
    if counts is not None:
        violated = grid.to_numpy() == vocabulary.VIOLATED.word
        numbers = counts.to_numpy(dtype=int).astype(str)
        labels[violated] = [f"{vocabulary.VIOLATED.symbol}\n{n}" for n in numbers[violated]]
    legend = vocabulary.legend(
        used(RELEASE_MARKS, grid) if used_only else RELEASE_MARKS, symbols=True
    )
    number = " (the number under it: how many cases)" if counts is not None else ""
    return grid_figure(
        grid,
        labels,
        marks=RELEASE_MARKS,
        size=(3.2 + 0.2 * len(grid.columns), 1.9 + 0.5 * len(grid.index)),
        title=(f"{scope.words(hook)}\n" if scope else "")
        + f"Invariants by openai-agents release: {legend}{number}",
        title_size=11,
        label_size=8.5,
        text_size=7,
        rotate_columns=True,
        cell_lines=True,
    )


def png_bytes(fig: Figure) -> bytes:
    """A figure as PNG bytes, without the variable Software metadata."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()
