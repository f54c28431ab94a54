"""The fix's anatomy as an experiment on openai-agents: a revert that does not run widened by
what it misses, and the hunks named and cut as the cached releases' files give them."""

from __future__ import annotations

from collections.abc import Sequence

import needs
import pytest

from approval_compaction.lab.mechanism.anatomy import (
    FIXED,
    UNRESOLVED,
    Anatomy,
    Outcome,
    load_anatomy,
)
from approval_compaction.lab.mechanism.hunks import Hunk, compose
from approval_compaction.lab.releases import environments
from approval_compaction.openai_agents import anatomy
from approval_compaction.openai_agents.anatomy import revert_with_needs


@pytest.fixture(scope="module")
def committed() -> Anatomy:
    return load_anatomy()


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


@pytest.mark.releases
def test_anatomy_record_hunks_are_those_of_the_cached_releases(
    committed: Anatomy,
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


def test_anatomy_path_diff_names_hunks_of_other_modules_with_their_folder() -> None:
    path_hunk = Hunk("agents/run_internal/items.py", 2, 0, 0, 0, (), ("x\n",))
    other = Hunk("agents/items.py", 2, 0, 0, 0, (), ("y\n",))
    before = {"agents/run_internal/items.py": "", "agents/items.py": ""}
    diff = anatomy.PathDiff(
        ("agents/run_internal/items.py",), before, before, (path_hunk,), (other,)
    )
    assert (diff.name(path_hunk), diff.name(other)) == ("items.py#2", "agents/items.py#2")
    assert diff.numbers([other, path_hunk]) == "1,agents/items.py#2"
