"""The liveness patch's mutants: each edits code the patch adds, in the file it names, and one
way each; the record of a run says which survive (``data/liveness-mutants.json``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from factories import patched_blocks

from approval_compaction.formats.records import read_records
from approval_compaction.lab import paths
from approval_compaction.lab.mutation import Mutant, MutantRecord, mutate, survivors
from approval_compaction.lab.releases.mutants import MUTANTS, PATCH, PERSISTENCE, SESSION

IDS = [mutant.name for _, mutant in MUTANTS]
BY_NAME = {mutant.name: mutant for _, mutant in MUTANTS}
USER = {"role": "user", "content": "next question"}
SUMMARY = {"type": "compaction", "encrypted_content": "summary"}
REASONING = {"type": "reasoning", "summary": []}
CALL = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}


def _starts(mutant: str | None) -> Any:
    """The patch's ``_starts_compaction_suffix`` (with ``mutant`` applied), as a function."""
    (block,) = [b for b in patched_blocks(paths.LIVENESS_PATCH.read_text(), f"src/{SESSION}")
                if "def _starts_compaction_suffix(" in b]  # fmt: skip
    source = block[block.index("def _starts_compaction_suffix(") :].split("\n\n\n")[0] + "\n"
    if mutant is not None:
        source = mutate(source, BY_NAME[mutant].edits, mutant)
    namespace: dict[str, Any] = {
        "TResponseInputItem": dict,
        "_is_user_message": lambda item: item.get("role") == "user" and "content" in item,
    }
    exec(compile(source, str(SESSION), "exec"), namespace)
    return namespace["_starts_compaction_suffix"]


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


@pytest.mark.parametrize(
    ("mutant", "items", "preceding", "starts"),
    [
        (None, [USER], None, True),
        (None, [SUMMARY], CALL, True),
        (None, [REASONING, SUMMARY], None, False),
        (None, [SUMMARY], REASONING, False),
        (None, [CALL], None, False),
        ("users-only", [USER], None, True),
        ("users-only", [SUMMARY], CALL, False),
        ("reasoning-ignored", [SUMMARY], REASONING, True),
        ("reasoning-ignored", [CALL], None, False),
    ],
    ids=[
        "user",
        "summary",
        "summary-after-reasoning",
        "summary-after-retained-reasoning",
        "call",
        "users-only-user",
        "users-only-summary",
        "reasoning-ignored-summary",
        "reasoning-ignored-call",
    ],
)
def test_suffix_start_mutants_change_what_they_say(
    mutant: str | None, items: list[dict[str, Any]], preceding: Any, starts: bool
) -> None:
    """Each mutant of where a replaced suffix may start does what its ``change`` says, and
    nothing more (a mutant edited into the wrong block would change nothing: it survives
    every test without telling anything)."""
    assert _starts(mutant)(items, len(items) - 1, preceding) is starts
