"""Results: the matrix files that ``make run`` writes.

``write_matrix`` writes the records as JSON, CSV and markdown, the heatmap and every captured
run, each file atomically (the text of each format is ``analysis.matrix.matrix_text``'s).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ...analysis import vocabulary
from ...analysis.invariants import JudgedRun
from ...analysis.matrix import MatrixRecord, records
from ...formats.files import write_atomic
from ...formats.markdown import markdown_table
from ...formats.records import write_records
from ...study.capture import CaseRun, runs_json
from .. import paths

if TYPE_CHECKING:
    import pandas as pd


def matrix_markdown(table: pd.DataFrame) -> str:
    """A pivoted matrix as a GitHub table, each verdict with its marker."""
    return markdown_table(table, cell=vocabulary.marked)


def write_matrix(
    runs: Sequence[CaseRun | JudgedRun], folder: Path, stem: str = paths.MATRIX
) -> list[Path]:
    """Write the matrix as JSON, CSV and markdown, its heatmap (violations first, as one block),
    and every captured run."""
    from ...analysis.table import pivot, to_frame
    from ..findings.folding import block_order
    from ..releases.heatmap import heatmap, matrix_scope, png_bytes

    files, rows = paths.data(folder), records(runs)
    table = pivot(to_frame(rows))
    markdown = matrix_markdown(table) + "\n"
    written = write_records(files.results(stem), rows, MatrixRecord, markdown=markdown)
    plain = [run.run if isinstance(run, JudgedRun) else run for run in runs]
    write_atomic(files.runs(stem), runs_json(plain))
    figure = heatmap(block_order(table), matrix_scope(plain))  # the violations as one block
    write_atomic(files.heatmap(stem), png_bytes(figure))
    return [*written, files.runs(stem), files.heatmap(stem)]
