"""Notebooks: execute each notebook in place, deterministically, keeping it on failure.

Execution timings, kernel versions and other per-machine metadata are dropped so that a
re-execution reproduces the committed file byte for byte. A notebook whose execution fails is
left as it was, and the failure is one line naming the notebook and the error.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import nbformat
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from ...errors import InvestigationError
from ...formats.files import write_atomic
from .. import paths
from . import glossary, provenance
from .provenance import Provenance


class NotebookError(InvestigationError):
    """A notebook whose execution failed: its name, and the error its cell raised."""


KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}
TIMEOUT_SECONDS = 300
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def sanitise(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Drop what differs between machines or runs: timings, versions, widget state."""
    nb.metadata = nbformat.NotebookNode(
        kernelspec=nbformat.NotebookNode(KERNELSPEC),
        language_info=nbformat.NotebookNode(name="python"),
    )
    for index, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{index:02d}"
        cell.metadata.pop("execution", None)
        cell.metadata.pop("ExecuteTime", None)
        for output in cell.get("outputs", []):
            # A widget's view names a random model id; its text/plain stays in its place.
            output.get("data", {}).pop(WIDGET_VIEW, None)
        if "outputs" in cell:
            cell.outputs = coalesce_streams(cell.outputs)
    return nb


def coalesce_streams(outputs: list[nbformat.NotebookNode]) -> list[nbformat.NotebookNode]:
    """Consecutive stream outputs of one stream as one output.

    How printed text is split into messages depends on timing (a ``print`` may arrive as its
    text and its newline apart), so the same cell would give different outputs run to run.
    """
    merged: list[nbformat.NotebookNode] = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if (
            previous is not None
            and output.get("output_type") == "stream"
            and previous.get("output_type") == "stream"
            and previous.get("name") == output.get("name")
        ):
            previous["text"] = _text(previous["text"]) + _text(output["text"])
            continue
        merged.append(output)
    return merged


def _text(text: str | list[str]) -> str:
    return text if isinstance(text, str) else "".join(text)


def execute(path: Path) -> nbformat.NotebookNode:
    """Run a notebook top to bottom in a fresh kernel, from its own folder; return it sanitised."""
    return execute_observed(path)[0]


def execute_observed(path: Path) -> tuple[nbformat.NotebookNode, Provenance]:
    """``execute``, and what the notebook did: its SDK runs and the data files it read.

    Two hidden cells bracket the notebook's own (``provenance``); they are removed before the
    notebook is returned, and the execution counts are those of the notebook's own cells.
    """
    nb = nbformat.read(path, as_version=4)
    nb.cells = [
        nbformat.v4.new_code_cell(provenance.SETUP),
        *nb.cells,
        nbformat.v4.new_code_cell(provenance.REPORT),
    ]
    with tempfile.TemporaryDirectory(prefix="kernel-") as folder:
        # Talk to the kernel over Unix sockets in a private folder: no TCP port is opened.
        manager = KernelManager(kernel_name="python3", transport="ipc", ip=f"{folder}/ipc")
        client = NotebookClient(
            nb,
            km=manager,
            timeout=TIMEOUT_SECONDS,
            record_timing=False,
            resources={"metadata": {"path": str(path.parent)}},
        )
        try:
            client.execute()
        except CellExecutionError as error:
            reason = " ".join(f"{error.ename}: {error.evalue}".split())[:300]
            raise NotebookError(f"{path.name} failed: {reason}") from None
    setup, *cells, report = nb.cells
    nb.cells = cells
    for cell in cells:
        _renumber(cell)
    printed = "".join(_text(o["text"]) for o in report.outputs if o.get("output_type") == "stream")
    return sanitise(nb), provenance.parse(path.name, title(nb), printed)


def _renumber(cell: nbformat.NotebookNode) -> None:
    """Count executions from the notebook's first cell, not the hidden setup cell before it."""
    if cell.get("execution_count"):
        cell.execution_count -= 1
    for output in cell.get("outputs", []):
        if output.get("execution_count"):
            output.execution_count -= 1


def title(nb: nbformat.NotebookNode) -> str:
    """The notebook's first heading, without its number: ``One case, stage by stage``."""
    first = nb.cells[0].source.splitlines()[0] if nb.cells else ""
    return first.lstrip("# ").split("·", 1)[-1].strip()


def dumps(nb: nbformat.NotebookNode) -> str:
    return str(nbformat.writes(nb)) + "\n"


def execute_in_place(path: Path, record: Path = paths.DATA_FILES.notebooks) -> bool:
    """Execute and rewrite the notebook, and record its provenance in ``record``; return whether
    the notebook's content changed."""
    before = path.read_text()
    nb, observed = execute_observed(path)
    glossary.fill_notebook(nb.cells)  # the terms its outputs use too, where they show
    after = dumps(nb)
    if after != before:
        write_atomic(path, after)
    records = provenance.load(record)
    records[path.name] = observed
    provenance.write(record, records)
    return after != before


def notebook_paths(folder: Path) -> list[Path]:
    return sorted(folder.glob("[0-9][0-9]-*.ipynb"))
