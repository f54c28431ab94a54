"""Results: the files under ``data/`` that ``make run`` writes, each written atomically."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from matplotlib.figure import Figure

from .capture import CaseRun
from .files import write_atomic
from .formats import render
from .matrix import pivot, records, to_frame
from .plots import heatmap


def png_bytes(fig: Figure) -> bytes:
    """A figure as PNG bytes, without the variable Software metadata."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


def write_matrix(runs: Sequence[CaseRun], folder: Path, stem: str = "matrix") -> list[Path]:
    """Write the matrix as JSON, CSV and markdown, its heatmap, and every captured run."""
    rows = records(runs)
    written = {
        folder / f"{stem}.json": render(rows, "json"),
        folder / f"{stem}.csv": render(rows, "csv"),
        folder / f"{stem}.md": render(rows, "markdown"),
        folder / f"{stem}-runs.json": json.dumps([asdict(r) for r in runs], indent=1) + "\n",
    }
    for path, text in written.items():
        write_atomic(path, text)
    image = folder / f"{stem}-heatmap.png"
    write_atomic(image, png_bytes(heatmap(pivot(to_frame(rows)))))
    return [*written, image]
