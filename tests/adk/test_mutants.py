"""The adk-python fix's mutants: each edits the code the fix adds, each still compiles (a mutant
that cannot import is killed by nothing it says), each names its killer, and the overlay a run
puts first on the path holds the mutant and leaves the environment as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
from factories import patched_blocks

from approval_compaction.adk.mutants import LONG_RUNNING_MUTANTS, MODULE, MUTANTS, overlay
from approval_compaction.adk.patched import FIX, LONG_RUNNING_FIX, patched_environment
from approval_compaction.adk.sdk_test import LONG_RUNNING_TEST
from approval_compaction.lab.mutation import Mutant, MutationError, mutate

FUNCTION = "def _summarize(events_to_compact, events, trigger):\n{body}  return events_to_compact\n"


def test_every_mutant_names_a_killer_or_why_it_is_equivalent() -> None:
    for mutant in MUTANTS:
        assert bool(mutant.killer) != bool(mutant.equivalent), mutant.name
        assert mutant.fix == FIX.name
    assert len({m.name for m in MUTANTS}) == len(MUTANTS)


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_every_mutant_edits_code_the_fix_adds(mutant: Mutant) -> None:
    blocks = patched_blocks(FIX.read_text(), f"src/{MODULE.as_posix()}")
    for old, _ in mutant.edits:
        assert sum(block.count(old) for block in blocks) == 1, old


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_every_mutant_still_compiles(mutant: Mutant) -> None:
    edits = mutant.edits
    text = FUNCTION.format(body=edits[0][0])
    mutated = mutate(text, edits, "test")
    assert mutated != text
    compile(mutated, str(MODULE), "exec")


def test_overlay_holds_the_mutant_and_leaves_the_environment_alone(tmp_path: Path) -> None:
    site = tmp_path / "site"
    original = FUNCTION.format(body=MUTANTS[0].edits[0][0])
    (site / MODULE).parent.mkdir(parents=True)
    (site / MODULE).write_text(original)
    (site / "google" / "adk" / "runners.py").write_text("RUNNER = 1\n")
    folder = overlay(site, MUTANTS[0], tmp_path / "scratch")
    assert folder == tmp_path / "scratch" / MUTANTS[0].name
    assert "_recover_compacted_function_calls" not in (folder / MODULE).read_text()
    assert (folder / "google" / "adk" / "runners.py").read_text() == "RUNNER = 1\n"
    assert (site / MODULE).read_text() == original


def test_overlay_of_an_edit_that_no_longer_applies_is_one_line(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / MODULE).parent.mkdir(parents=True)
    (site / MODULE).write_text("def _summarize():\n  return None\n")
    with pytest.raises(MutationError, match=r"its edit matches 0 times, not once$"):
        overlay(site, MUTANTS[0], tmp_path / "scratch")


LONG_RUNNING_IDS = [m.name for _, m in LONG_RUNNING_MUTANTS]


def test_every_long_running_mutant_names_a_test_the_fixs_test_file_has() -> None:
    titles = LONG_RUNNING_TEST.read_text()
    for _, mutant in LONG_RUNNING_MUTANTS:
        assert mutant.fix == LONG_RUNNING_FIX.name and not mutant.equivalent
        assert f"def {mutant.killer.partition('[')[0]}(" in titles, mutant.name
    assert len(set(LONG_RUNNING_IDS)) == len(LONG_RUNNING_MUTANTS)
    assert {module.name for module, _ in LONG_RUNNING_MUTANTS} == {
        "compaction.py",
        "_rearranger.py",
        "_contents.py",
    }


@pytest.mark.parametrize(("module", "mutant"), LONG_RUNNING_MUTANTS, ids=LONG_RUNNING_IDS)
def test_every_long_running_mutant_edits_code_the_fix_adds(module: Path, mutant: Mutant) -> None:
    blocks = patched_blocks(LONG_RUNNING_FIX.read_text(), f"src/{module.as_posix()}")
    for old, _ in mutant.edits:
        assert sum(block.count(old) for block in blocks) == 1, old


@pytest.mark.slow
@pytest.mark.releases
def test_every_long_running_mutant_of_the_patched_package_still_compiles() -> None:
    site = next(patched_environment(LONG_RUNNING_FIX).folder.glob("lib/python*/site-packages"))
    for module, mutant in LONG_RUNNING_MUTANTS:
        text = (site / module).read_text()
        mutated = mutate(text, mutant.edits, mutant.name)
        assert mutated != text
        compile(mutated, str(module), "exec")
