"""The JS mutants: each edit applies once to the package patched with both fixes, and each
mutant names the test written to kill it or why none can."""

from __future__ import annotations

import pytest

from approval_compaction.js.mutants import BOTH, MODULE, MUTANTS
from approval_compaction.js.patched import patched_folder
from approval_compaction.lab.mutation import mutate


def test_every_mutant_names_a_killer_or_why_it_is_equivalent() -> None:
    for mutant in MUTANTS:
        assert bool(mutant.killer) != bool(mutant.equivalent), mutant.name
    assert len({(m.fix, m.name) for m in MUTANTS}) == len(MUTANTS)


@pytest.mark.subprocess
@pytest.mark.usefixtures("node_harness")
def test_every_mutant_applies_to_the_patched_module() -> None:
    text = (patched_folder(BOTH) / "node_modules" / MODULE).read_text()
    for mutant in MUTANTS:
        assert mutate(text, mutant.edits, mutant.name) != text, mutant.name
