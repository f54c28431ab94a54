"""The liveness patch's mutants: each edits code the patch adds, in the file it names, and one
way each; the record of a run says which survive (``data/liveness-mutants.json``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from factories import patched_blocks

from approval_compaction.formats.records import read_records
from approval_compaction.lab import paths
from approval_compaction.lab.mutation import Mutant, MutantRecord, mutate, survivors
from approval_compaction.lab.releases.mutants import MUTANTS, PATCH, PERSISTENCE, SESSION

IDS = [mutant.name for _, mutant in MUTANTS]


def test_mutants_are_named_once_each_and_edit_the_two_patched_modules() -> None:
    assert len(set(IDS)) == len(MUTANTS)
    assert {file for file, _ in MUTANTS} == {SESSION, PERSISTENCE}
    assert {mutant.fix for _, mutant in MUTANTS} == {PATCH}


@pytest.mark.parametrize(("file", "mutant"), MUTANTS, ids=IDS)
def test_every_mutant_edits_code_the_patch_adds_in_its_file(file: Path, mutant: Mutant) -> None:
    blocks = patched_blocks(paths.LIVENESS_PATCH.read_text(), f"src/{file.as_posix()}")
    for old, new in mutant.edits:
        (block,) = [b for b in blocks if old in b]  # one hunk holds it, once
        assert block.count(old) == 1
        assert mutate(block, ((old, new),), mutant.name) != block


def test_the_recorded_run_covers_every_mutant_and_its_survivors_say_so() -> None:
    """The committed run is of these mutants; a survivor's row names no killing test."""
    rows = read_records(paths.DATA_FILES.liveness_mutants, MutantRecord)
    assert [r.mutant for r in rows] == IDS
    for row in rows:
        assert row.killer_failed == (row.mutant not in survivors(rows)), row.mutant
