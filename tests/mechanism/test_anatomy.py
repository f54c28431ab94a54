"""The anatomy of the fix: outcomes judged from a run's records, a revert that does not run
widened by what it misses, and the committed record consistent with itself and the sources."""

from __future__ import annotations

import re
from collections.abc import Sequence

import needs
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
    revert_with_needs,
)
from approval_compaction.lab.mechanism.hunks import Hunk, compose
from approval_compaction.lab.releases import environments


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


def hunk(number: int, added: str) -> Hunk:
    return Hunk("agents/x.py", number, number, number, number, (), (added,))


def test_anatomy_a_revert_that_misses_a_name_takes_the_hunks_that_use_it() -> None:
    """Reverting an import alone leaves its user broken; reverted with it, the cases hold."""
    imports, uses, other = hunk(1, "from .y import helper\n"), hunk(2, "helper()\n"), hunk(3, "x\n")
    hunks = [imports, uses, other]
    asked: list[tuple[int, ...]] = []

    def revert(group: Sequence[Hunk]) -> Outcome:
        asked.append(tuple(h.number for h in group))
        if imports in group and uses not in group:
            return Outcome(UNRESOLVED, {}, (), "NameError: name 'helper' is not defined")
        return Outcome(FIXED, {}, (), "")

    alone = revert([imports])
    group, found = revert_with_needs(imports, hunks, alone, revert)
    assert [h.number for h in group] == [1, 2] and found.verdict == FIXED
    assert asked == [(1,), (1, 2)]
    assert revert_with_needs(other, hunks, revert([other]), revert) == (
        [other],
        Outcome(FIXED, {}, (), ""),
    )


def test_anatomy_a_whole_module_reverted_takes_the_hunks_elsewhere_that_call_it() -> None:
    """A module reverted whole (two hunks from the start) that breaks a caller elsewhere, the
    way a removed keyword breaks a call: the caller's hunk goes with it; an error that names
    nothing leaves the group as it is."""
    defines = hunk(1, "def save(items, claim_held=False):\n")
    also = hunk(2, "CLAIM = True\n")
    caller = Hunk("agents/y.py", 1, 0, 0, 0, (), ("save(items, claim_held=True)\n",))
    pool = [defines, also, caller]

    def revert(group: Sequence[Hunk]) -> Outcome:
        if caller not in group:
            return Outcome(UNRESOLVED, {}, (), "TypeError: save() got an unexpected keyword "
                           "argument 'claim_held'")  # fmt: skip
        return Outcome(FIXED, {}, (), "")

    module = [defines, also]
    group, found = revert_with_needs(module, pool, revert(module), revert)
    assert group == [defines, also, caller] and found.verdict == FIXED
    nameless = Outcome(UNRESOLVED, {}, (), "ValueError: not enough values to unpack")
    assert revert_with_needs(module, pool, nameless, revert) == (module, nameless)


@pytest.mark.parametrize(
    ("reason", "wanted"),
    [
        ("NameError: cannot access free variable 'helper' where it is not associated", [2]),
        ("TypeError: save() missing 2 required positional arguments: 'helper' and 'x'", [2]),
        ("AttributeError: module 'agents.y' has no attribute 'helper'", [2]),
        ("import agents failed: SyntaxError: '(' was never closed (x.py, line 3)", [1, 2]),
        ("ValueError: not enough values to unpack (expected 3, got 2)", []),
    ],
)
def test_anatomy_needed_reads_what_a_revert_misses(reason: str, wanted: list[int]) -> None:
    """The name a failure gives picks the hunks that use it; a module left unparsable is
    reverted whole; an error that names neither widens nothing."""
    started = Hunk("agents/y.py", 1, 0, 0, 0, (), ("z = 1\n",))
    pool = [hunk(1, "x = 1\n"), hunk(2, "helper()\n"), started]
    failed = Outcome(UNRESOLVED, {}, (), reason)
    assert [h.number for h in anatomy.needed(failed, [started], pool)] == wanted
    assert anatomy.needed(Outcome(FIXED, {}, (), ""), [started], pool) == []


def test_anatomy_a_revert_whose_error_names_nothing_takes_its_module_whole() -> None:
    """The last resort: a failure that names nothing reverts the touched modules whole, once."""
    broken, same_file = hunk(1, "a, b = f()\n"), hunk(2, "def f():\n")
    elsewhere = Hunk("agents/y.py", 1, 0, 0, 0, (), ("g()\n",))
    nameless = Outcome(UNRESOLVED, {}, (), "ValueError: not enough values to unpack")
    asked: list[tuple[str, ...]] = []

    def revert(group: Sequence[Hunk]) -> Outcome:
        asked.append(tuple(h.qualified for h in group))
        return Outcome(FIXED, {}, (), "") if same_file in group else nameless

    group, found = revert_with_needs(broken, [broken, same_file, elsewhere], nameless, revert)
    assert group == [broken, same_file] and found.verdict == FIXED
    assert asked == [("agents/x.py#1", "agents/x.py#2")]


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


@pytest.mark.releases
def test_anatomy_record_hunks_are_those_of_the_cached_releases(
    committed: anatomy.Anatomy,
) -> None:
    for version in (committed.old, committed.new):
        needs.release(version)
    envs = environments.default_envs()
    diff = anatomy.path_diff(envs)
    assert [h.name for h in diff.hunks] == [h.name for h in committed.hunks]
    assert diff.on_old([h for h in diff.hunks if h.name in committed.minimal_fix]) == (
        committed.minimal_patch
    )
    assert {n: compose(diff.before[n], [h for h in diff.every_hunk if h.path == n]) for n in
            diff.before} == diff.after  # fmt: skip
    assert set(diff.files) | set(committed.other_files) == set(diff.before)
    assert committed.other_files == diff.other_files and not set(diff.files) & set(diff.other_files)


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


def test_anatomy_path_diff_names_hunks_of_other_modules_with_their_folder() -> None:
    path_hunk = Hunk("agents/run_internal/items.py", 2, 0, 0, 0, (), ("x\n",))
    other = Hunk("agents/items.py", 2, 0, 0, 0, (), ("y\n",))
    before = {"agents/run_internal/items.py": "", "agents/items.py": ""}
    diff = anatomy.PathDiff(
        ("agents/run_internal/items.py",), before, before, (path_hunk,), (other,)
    )
    assert (diff.name(path_hunk), diff.name(other)) == ("items.py#2", "agents/items.py#2")
    assert diff.numbers([other, path_hunk]) == "1,agents/items.py#2"


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
