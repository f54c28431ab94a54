"""Heatmaps: a cell per verdict in the vocabulary's colour with its symbol on it (and a count under
a release's ✗) in an ink that contrasts, labels that do not overlap, and PNG bytes that do not
change from run to run."""

from __future__ import annotations

import io
import itertools
import struct
import zlib
from typing import Any

import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex, to_rgba
from matplotlib.figure import Figure

from approval_compaction.analysis.vocabulary import (
    HOLDS,
    MARKS_BY_WORD,
    NOT_JUDGED,
    UNAVAILABLE,
    VIOLATED,
    contrast,
    legend,
)
from approval_compaction.lab.releases.heatmap import (
    HOOK,
    RELEASE_MARKS,
    TRIGGER,
    MatrixScope,
    MixedScopeError,
    heatmap,
    matrix_scope,
    png_bytes,
    release_heatmap,
)
from approval_compaction.study.capture import CaseRun
from approval_compaction.study.scenario import Case

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
SCOPE = MatrixScope("openai-agents 0.23.1", "input", "scripted")
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
    fig = heatmap(CASES, SCOPE)
    assert isinstance(fig, Figure) and len(fig.axes) == 1


def test_heatmap_has_one_text_per_cell_with_the_vocabulary_symbol() -> None:
    texts = texts_by_cell(heatmap(CASES, SCOPE))
    expected = {
        (row, col): MARKS_BY_WORD[word].symbol
        for (row, col), word in np.ndenumerate(CASES.to_numpy())
    }
    assert texts == expected
    assert texts[(0, 0)] == VIOLATED.symbol


def test_heatmap_colours_each_cell_by_its_verdict() -> None:
    colours = cell_colours(heatmap(CASES, SCOPE).axes[0])
    for (row, col), word in np.ndenumerate(CASES.to_numpy()):
        assert tuple(colours[row, col]) == pytest.approx(to_rgba(MARKS_BY_WORD[word].colour))


def test_heatmap_word_outside_the_vocabulary_reads_question_mark_on_grey() -> None:
    table = pd.DataFrame({"x": ["maybe"]}, index=["case"])
    fig = heatmap(table, SCOPE)
    assert texts_by_cell(fig) == {(0, 0): "?"}
    assert tuple(cell_colours(fig.axes[0])[0, 0]) == pytest.approx(to_rgba(NOT_JUDGED.colour))


def test_heatmap_labels_cases_and_invariants() -> None:
    (ax,) = heatmap(CASES, SCOPE).axes
    assert [t.get_text() for t in ax.get_yticklabels()] == CASES.index.tolist()
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "next\nturn\ninput\npaired",
        "decision\nenforced",
    ]
    assert ax.get_title().splitlines()[0] == f"Invariants by case: {SCOPE.title}"


def test_release_heatmap_draws_a_symbol_in_every_cell_and_counts_under_violated() -> None:
    texts = texts_by_cell(release_heatmap(GRID, COUNTS))
    expected = {(row, col): MARKS_BY_WORD[word].symbol for (row, col), word in np.ndenumerate(GRID)}
    expected.update({(0, 1): f"{VIOLATED.symbol}\n8", (0, 3): f"{VIOLATED.symbol}\n3"})
    assert texts == expected
    assert texts[(0, 2)] == UNAVAILABLE.symbol and texts[(1, 0)] == HOLDS.symbol


def test_release_heatmap_without_counts_draws_only_symbols() -> None:
    texts = texts_by_cell(release_heatmap(GRID))
    assert texts == {(r, c): MARKS_BY_WORD[w].symbol for (r, c), w in np.ndenumerate(GRID)}


@pytest.mark.parametrize(
    "build",
    [lambda: heatmap(CASES, SCOPE), lambda: release_heatmap(GRID, COUNTS)],
    ids=["cases", "releases"],
)
def test_heatmap_symbols_are_drawn_in_the_ink_of_their_cell(build: Any) -> None:
    """White on blue and grey, black on vermillion and light grey: each at least 4.5:1."""
    (ax,) = build().axes
    colours = cell_colours(ax)
    for text in ax.texts:
        col, row = (round(v) for v in text.get_position())
        cell = to_hex(colours[row, col])
        assert to_hex(text.get_color()) == next(
            m.ink for m in MARKS_BY_WORD.values() if m.colour == cell
        )
        assert contrast(to_hex(text.get_color()), cell) >= 4.5


def _run(mode: str = "input", model: str = "scripted") -> CaseRun:
    case = Case("run", "approve", "on", "json")
    return CaseRun(case, "0.23.1", [], 1, 1, model=model, mode=mode)  # type: ignore[arg-type]


def test_heatmap_title_names_release_mode_trigger_and_model_of_its_runs() -> None:
    title = matrix_scope([_run("auto", "responses"), _run("auto", "responses")]).title
    assert title == (
        "openai-agents 0.23.1, compaction_mode=auto; trigger: every turn (compaction on), "
        "never (off); OpenAIResponsesModel over HTTP"
    )


def test_heatmap_scope_of_runs_that_differ_in_mode_is_an_error() -> None:
    with pytest.raises(MixedScopeError):
        matrix_scope([_run("input"), _run("auto")])


def test_heatmap_title_carries_the_legend_in_symbols() -> None:
    assert heatmap(CASES, SCOPE).axes[0].get_title().endswith(legend(symbols=True))
    assert legend(RELEASE_MARKS, symbols=True) in release_heatmap(GRID).axes[0].get_title()


def test_release_heatmap_title_opens_with_its_scope_when_given() -> None:
    title = release_heatmap(GRID, COUNTS, SCOPE).axes[0].get_title()
    assert title.split("\n")[0] == SCOPE.title
    assert SCOPE.title not in release_heatmap(GRID, COUNTS).axes[0].get_title()


def test_heatmap_legend_names_only_the_symbols_drawn_when_asked() -> None:
    """r9: 04's legend named `– n/a` and 05's `∅ unavailable` where no cell drew them."""
    drawn = CASES.iloc[:2]  # holds and VIOLATED only
    title = heatmap(drawn, SCOPE, used_only=True).axes[0].get_title()
    assert title.endswith(legend((HOLDS, VIOLATED), symbols=True))
    assert NOT_JUDGED.symbol not in title.split("\n")[-1]
    grid = GRID[["0.22.0", "0.23.1"]]
    title = release_heatmap(grid, used_only=True).axes[0].get_title()
    assert UNAVAILABLE.symbol not in title and NOT_JUDGED.symbol not in title
    assert legend((VIOLATED, HOLDS), symbols=True) in title


def test_heatmap_title_names_the_hook_in_the_words_given() -> None:
    title = heatmap(CASES, SCOPE, hook=HOOK).axes[0].get_title()
    assert HOOK in title and TRIGGER not in title
    assert (
        release_heatmap(GRID, scope=SCOPE, hook=HOOK)
        .axes[0]
        .get_title()
        .startswith(SCOPE.words(HOOK))
    )


def overlapping(labels: list[Any], fig: Figure) -> list[tuple[str, str]]:
    """Pairs of neighbouring tick labels whose drawn boxes overlap."""
    renderer = FigureCanvasAgg(fig).get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in labels]
    return [(a, b) for (a, box), (b, other) in itertools.pairwise(boxes) if box.overlaps(other)]


def test_release_heatmap_of_every_release_has_no_overlapping_labels() -> None:
    """The sweep has 72 releases: each one's name stays readable, none on another."""
    names = [f"0.{minor}.{patch}" for minor in range(8, 26) for patch in range(4)]
    grid = pd.DataFrame(
        [[HOLDS.word] * len(names)] * 7, columns=names, index=[f"i{n}" for n in range(7)]
    )
    fig = release_heatmap(grid)
    (ax,) = fig.axes
    assert [t.get_text() for t in ax.get_xticklabels()] == names
    assert overlapping(ax.get_xticklabels(), fig) == []
    assert overlapping(ax.get_yticklabels(), fig) == []
    assert all(t.get_fontsize() >= 8 for t in ax.get_xticklabels())


def test_heatmap_labels_of_every_case_do_not_overlap() -> None:
    table = pd.DataFrame(
        {"next_turn_input_paired": [HOLDS.word] * 16},
        index=[f"case/{n}/on/json" for n in range(16)],
    )
    fig = heatmap(table, SCOPE)
    (ax,) = fig.axes
    assert overlapping(ax.get_yticklabels(), fig) == []
    assert all(t.get_fontsize() >= 8 for t in ax.get_yticklabels())


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
    heatmap(CASES, SCOPE).savefig(plain, format="png")
    assert "Software" in png_text_keys(plain.getvalue())  # the check below can fail
    assert "Software" not in png_text_keys(png_bytes(heatmap(CASES, SCOPE)))


@pytest.mark.parametrize(
    "build",
    [lambda: heatmap(CASES, SCOPE), lambda: release_heatmap(GRID, COUNTS)],
    ids=["cases", "releases"],
)
def test_png_bytes_are_the_same_for_the_same_data(build: object) -> None:
    first, second = png_bytes(build()), png_bytes(build())  # type: ignore[operator]
    assert first == second


def test_png_bytes_differ_when_a_verdict_differs() -> None:
    changed = CASES.copy()
    changed.iat[1, 0] = VIOLATED.word
    assert png_bytes(heatmap(changed, SCOPE)) != png_bytes(heatmap(CASES, SCOPE))
