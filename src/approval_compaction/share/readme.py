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
from ..mechanism.views import where_in_the_sdk
from ..releases.eras import era_answer, era_story
from ..releases.tables import release_answer, sweep_frame
from . import provenance
from .reproduce import committed_fix_release

START, END = "<!-- findings:start -->", "<!-- findings:end -->"
NOTEBOOKS_START, NOTEBOOKS_END = "<!-- notebooks:start -->", "<!-- notebooks:end -->"


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
    sweep = sweep_frame(folder / "sweep.json")
    version = str(pinned["sdk_version"].iloc[0])  # the release the committed matrix ran on
    where = where_in_the_sdk(version, committed_fix_release(folder))
    lines = [
        "**On the pinned release** (`data/matrix.json`):",
        "",
        finding(pinned),
        "",
        "**Across releases** (`data/sweep.json`): " + release_answer(sweep),
        "",
        "**Two eras, then the fix** (`data/sweep.json`; what reaches the model, a 400 the user "
        "sees, kept apart from what reaches compaction only): " + era_answer(sweep),
        "",
        era_story(sweep),
        "",
        *([where + " (`data/mechanism.json`, notebook 03)", ""] if where else []),
        f"**With the workaround** (`data/fix-matrix.json`): {violated} of {len(fixed)} verdicts "
        f"violated; {still} of {len(compacting)} compaction-on cases still compact.",
        "",
        doctor_block(folder),
    ]
    return "\n".join(lines)


def notebooks_block(record: Path = paths.DATA_FILES.notebooks) -> str:
    """The notebook table, from what each notebook did when ``make run`` executed it."""
    return provenance.table(provenance.load(record))


def with_block(text: str, block: str, start: str = START, end: str = END) -> str:
    """The README text with the block between ``start`` and ``end`` replaced."""
    head, found_start, rest = text.partition(start)
    _, found_end, tail = rest.partition(end)
    if not found_start or not found_end:
        raise ReadmeMarkersError(f"README has no {start} ... {end} block")
    return f"{head}{start}\n{block}\n{end}{tail}"


def update(readme: Path = paths.README, folder: Path = paths.DATA) -> bool:
    """Rewrite the README's findings and notebook blocks; return whether they changed."""
    before = readme.read_text()
    after = with_block(before, findings_block(folder))
    after = with_block(
        after,
        notebooks_block(folder / paths.DATA_FILES.notebooks.name),
        NOTEBOOKS_START,
        NOTEBOOKS_END,
    )
    if after != before:
        write_atomic(readme, after)
    return after != before
