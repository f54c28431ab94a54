"""Readme: the README's findings block, written from the results under ``data/``.

The block sits between two HTML comments in ``README.md``; ``make run`` rewrites it, and a test
checks that the committed README matches what the committed data says, so no figure in the
README is typed by hand.
"""

from __future__ import annotations

from pathlib import Path

from .. import paths
from ..analysis.findings import finding
from ..analysis.matrix import MatrixRecord
from ..analysis.table import to_frame
from ..doctor.findings import block as doctor_block
from ..errors import InvestigationError
from ..formats.files import write_atomic
from ..formats.records import read_records
from ..releases.severity import severity_answer
from ..releases.tables import release_answer, sweep_frame

START, END = "<!-- findings:start -->", "<!-- findings:end -->"


class ReadmeMarkersError(InvestigationError):
    """The README lacks the pair of findings markers."""


def findings_block(folder: Path = paths.DATA) -> str:
    """The findings, as markdown, from the pinned matrix, the sweep, the workaround matrix and
    the doctor's answers (``data/doctor-*.json``)."""
    pinned = to_frame(read_records(folder / "matrix.json", MatrixRecord))
    fixed = to_frame(read_records(folder / "fix-matrix.json", MatrixRecord))
    violated = int(fixed["holds"].eq(False).sum())
    compacting = fixed[fixed["compaction"] == "on"].drop_duplicates(
        ["runner", "decision", "compaction", "state_boundary"]
    )
    still = int((compacting["compaction_requests"] > 0).sum())
    lines = [
        "**On the pinned release** (`data/matrix.json`):",
        "",
        finding(pinned),
        "",
        "**Across releases** (`data/sweep.json`): "
        + release_answer(sweep_frame(folder / "sweep.json")),
        "",
        "**What the user sees, by release** (`data/sweep.json`, the next turn over HTTP on the "
        "SDK's own Responses model): " + severity_answer(sweep_frame(folder / "sweep.json")),
        "",
        f"**With the workaround** (`data/fix-matrix.json`): {violated} of {len(fixed)} verdicts "
        f"violated; {still} of {len(compacting)} compaction-on cases still compact.",
        "",
        doctor_block(folder),
    ]
    return "\n".join(lines)


def with_block(text: str, block: str) -> str:
    """The README text with its findings block replaced."""
    head, start, rest = text.partition(START)
    _, end, tail = rest.partition(END)
    if not start or not end:
        raise ReadmeMarkersError(f"README has no {START} ... {END} block")
    return f"{head}{START}\n{block}\n{END}{tail}"


def update(readme: Path = paths.README, folder: Path = paths.DATA) -> bool:
    """Rewrite the README's findings block; return whether it changed."""
    before = readme.read_text()
    after = with_block(before, findings_block(folder))
    if after != before:
        write_atomic(readme, after)
    return after != before
