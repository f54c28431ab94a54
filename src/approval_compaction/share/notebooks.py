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

from ..errors import InvestigationError
from ..formats.files import write_atomic


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
    nb = nbformat.read(path, as_version=4)
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
    return sanitise(nb)


def dumps(nb: nbformat.NotebookNode) -> str:
    return str(nbformat.writes(nb)) + "\n"


def execute_in_place(path: Path) -> bool:
    """Execute and rewrite the notebook; return whether its content changed."""
    before = path.read_text()
    after = dumps(execute(path))
    if after != before:
        write_atomic(path, after)
    return after != before


def notebook_paths(folder: Path) -> list[Path]:
    return sorted(folder.glob("[0-9][0-9]-*.ipynb"))
