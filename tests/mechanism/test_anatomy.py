"""The anatomy's record: outcomes judged from a run's records, and the committed record
consistent with itself and with notebook 12 (the experiment's tests: ``openai_agents``)."""

from __future__ import annotations

import re

import pytest
from factories import release_record

from approval_compaction.lab.mechanism import anatomy
from approval_compaction.lab.mechanism.anatomy import (
    BUG,
    FIXED,
    UNRESOLVED,
    Outcome,
    load_anatomy,
    outcome,
    ranges,
)


def test_anatomy_outcome_of_records() -> None:
    holds = release_record(holds=True, status="holds")
    broken = release_record(holds=False, status="violated", compaction="on")
    failed = release_record(holds=None, status="error", detail="NameError: name 'x'")
    assert outcome([holds]).verdict == FIXED
    found = outcome([holds, broken])
    assert found.verdict == BUG and found.violated == {broken.invariant: 1}
    assert found.cases == ("/".join(broken.case_key),)
    assert outcome([holds, failed]) == Outcome(UNRESOLVED, {}, (), "NameError: name 'x'")


def test_anatomy_ranges_fold_runs_of_numbers() -> None:
    assert ranges([1, 2, 3, 7, 9, 10]) == "1-3,7,9-10"
    assert ranges([4]) == "4"
    assert ranges([10, 9, 2, 1, 3]) == "1-3,9-10" and ranges([]) == ""


def test_anatomy_group_names_are_numbers_on_the_path_and_files_elsewhere() -> None:
    from approval_compaction.lab.mechanism.views import group_names

    names = ["items.py#2", "agents/run_state.py#1", "agents/run_state.py#4", "agents/run.py#2"]
    assert group_names(names, {"items.py#2": 7}) == "7, run_state.py#1,4, run.py#2"
    many = ["a#1", "a#2", "a#3", "b#5", "agents/run.py#1", "agents/run.py#2", "agents/run.py#3"]
    assert group_names(many, {"a#1": 1, "a#2": 2, "a#3": 3, "b#5": 5}) == "1-3, 5, run.py#1-3"


@pytest.fixture(scope="module")
def committed() -> anatomy.Anatomy:
    return load_anatomy()


def test_anatomy_record_the_releases_as_published_and_the_minimal_fix(
    committed: anatomy.Anatomy,
) -> None:
    assert committed.old_outcome.verdict == BUG and committed.new_outcome.verdict == FIXED
    assert committed.minimal_outcome.verdict == FIXED and committed.one_minimal
    fix = {h.name for h in committed.hunks if h.in_minimal_fix}
    assert fix == set(committed.minimal_fix) and fix
    for hunk_record in committed.hunks:
        if hunk_record.in_minimal_fix:  # reverting a hunk of the fix from 0.24.0 is not fixed
            assert hunk_record.reverted.verdict != FIXED
    assert {s.verdict for s in committed.search} <= {FIXED, BUG, UNRESOLVED}
    assert committed.search_runs == len(committed.search) > 0


def test_anatomy_record_the_minimal_fix_stops_compaction_on_a_poisoned_store(
    committed: anatomy.Anatomy,
) -> None:
    turns = {turn.sdk: turn for turn in committed.poisoned}
    assert turns[committed.old].compaction_requests > 0
    assert turns[committed.old].compaction_input_orphans
    for sdk in ("the minimal fix", committed.new):
        assert turns[sdk].compaction_requests == 0 and turns[sdk].stored_after == "poisoned"


def test_anatomy_record_every_hunk_off_the_fix_changes_no_verdict_or_is_said_not_to_run(
    committed: anatomy.Anatomy,
) -> None:
    """Every hunk outside the minimal fix, reverted from 0.24.0 (alone, or with what it needs),
    keeps every case fixed, or does not run even so (the notebook says which); all of them
    reverted together, with the package's other changes, keep every case fixed."""
    assert committed.rest_reverted.verdict == FIXED
    for hunk_record in committed.hunks:
        if hunk_record.in_minimal_fix:
            continue
        found = {hunk_record.reverted.verdict, hunk_record.reverted_together.verdict}
        assert BUG not in found, f"{hunk_record.name} reverted brings the bug back"
        assert not set(hunk_record.together) & set(committed.minimal_fix)  # the fix is kept
    for module in committed.modules:  # notebook 03: none that could be reverted brings it back
        found = {module.reverted.verdict, module.reverted_together.verdict}
        assert BUG not in found, f"{module.path} reverted brings the bug back"
    assert [m.path for m in committed.modules] == list(committed.other_files)


def test_anatomy_numbers_are_the_hunks_positions_as_the_search_names_them() -> None:
    found = load_anatomy()
    assert list(found.numbers) == [h.name for h in found.hunks]
    assert list(found.numbers.values()) == list(range(1, len(found.hunks) + 1))


def test_anatomy_notebook_names_each_path_module_and_the_ones_without_hunks(
    committed: anatomy.Anatomy,
) -> None:
    """Issue 61 (r6): 12 said four modules are on the bug's path (now: the pending call's path)
    while its hunk table covered three files; it names the path's module 0.24.0 leaves unchanged
    (no hunk in the record)."""
    import json
    from pathlib import Path

    cells = json.loads(Path("notebooks/12-appendix-the-fix-taken-apart.ipynb").read_text())["cells"]
    text = " ".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    text = " ".join(text.split())
    unchanged = [f for f in committed.files if f not in {h.path for h in committed.hunks}]
    words = {3: "three", 4: "four"}
    shown, path = words[len(committed.files) - len(unchanged)], words[len(committed.files)]
    # r17: "path" was never defined on 12; the modules are named as the page's other sentences do
    has = f"The hunk table above has {shown} of the {path} modules the pending call passes through"
    assert has in text
    # r14: file names were written three ways; the page names each by its path in the package
    left = re.findall(r"0\.24\.0 leaves `([^`]+)` as it was", text)
    assert len(left) == len(unchanged)
    pairs = zip(unchanged, left, strict=True)
    assert all(path.endswith(said) and "/" in said for path, said in pairs)
