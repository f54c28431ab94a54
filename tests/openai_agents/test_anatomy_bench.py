"""The anatomy's bench: patched module texts served on import, a configuration judged in a
forked child as in a copied environment, stopped at its first verdict; each approval kind's
anatomy in the committed record."""

from __future__ import annotations

import needs
import pytest

from approval_compaction.lab.mechanism.anatomy import BUG, FIXED, Anatomy, load_anatomy
from approval_compaction.lab.mechanism.catalogue import NEWEST, PINNED
from approval_compaction.lab.mechanism.ddmin import UNRESOLVED
from approval_compaction.lab.releases import environments
from approval_compaction.lab.releases.patched import Patched, patch_from_text, throwaway_environment
from approval_compaction.lab.releases.sweep import judged
from approval_compaction.openai_agents import anatomy
from approval_compaction.openai_agents.anatomy import FUNCTION, AnatomyError, Lab, chosen_kinds
from approval_compaction.openai_agents.bench import Bench


def test_anatomy_kinds_chosen_by_name_always_with_the_function_kind() -> None:
    pauses = {kind: {"type": kind} for kind in anatomy.OTHER_KINDS}
    assert [k.label for k in chosen_kinds("hosted MCP", pauses)] == ["function", "hosted MCP"]
    assert [k.label for k in chosen_kinds(None, pauses)] == [
        "function", "custom", "shell", "apply_patch", "hosted MCP"
    ]  # fmt: skip
    with pytest.raises(AnatomyError, match="no kind 'mcp'"):
        chosen_kinds("mcp", pauses)


def test_anatomy_kinds_put_the_report_case_first_for_a_verdict() -> None:
    steps = FUNCTION.steps(first=True)
    assert steps[0].case == anatomy.REPORT_CASE and len(steps) == len(FUNCTION.cases)
    assert {s.case for s in steps} == set(FUNCTION.cases)
    others = anatomy.approval_kinds({"custom_approval": {"type": "custom_tool_call"}})
    assert [k.label for k in others] == ["function", "custom"]
    assert all(c.compaction == "on" for c in others[1].cases)


@pytest.fixture(scope="module")
def committed() -> Anatomy:
    return load_anatomy()


def test_anatomy_record_names_each_kinds_minimal_fix(committed: Anatomy) -> None:
    """Every approval kind the explorer knows has its own anatomy; the function kind's is the
    record's own; a kind broken on the older release and fixed on the newer one has a 1-minimal
    fix that holds, and reverting any hunk of it from the newer release does not leave it
    fixed."""
    by_label = {k.label: k for k in committed.kinds}
    assert list(by_label) == ["function", *anatomy.OTHER_KINDS.values()]
    function = by_label["function"]
    assert function.minimal_fix == committed.minimal_fix
    assert function.old_outcome == committed.old_outcome
    assert [(s.hunks, s.verdict) for s in function.search] == [
        (s.hunks, s.verdict) for s in committed.search
    ]
    names = {h.name for h in committed.hunks}
    for kind in committed.kinds:
        if kind.absent:
            continue
        assert set(kind.minimal_fix) <= names
        if kind.old_outcome.verdict == BUG and kind.new_outcome.verdict == FIXED:
            assert kind.minimal_outcome.verdict == FIXED and kind.one_minimal, kind.label
            for hunk in kind.minimal_fix:
                assert kind.reverted[hunk] != FIXED, (kind.label, hunk)
        assert set(kind.reverted.values()) <= {FIXED, BUG, UNRESOLVED}


def test_anatomy_record_the_function_fix_alone_scoped_by_kind(committed: Anatomy) -> None:
    """The function kind's minimal fix fixes exactly the kinds whose own minimal fix it holds."""
    fix = set(committed.minimal_fix)
    for kind in committed.kinds:
        if kind.absent or kind.new_outcome.verdict != FIXED:
            continue
        covered = kind.with_function_fix.verdict == FIXED
        assert covered == (set(kind.minimal_fix) <= fix), kind.label


@pytest.mark.releases
def test_anatomy_bench_judges_as_a_copied_environment_does() -> None:
    """The same configurations, in a copied environment with a fresh interpreter (the patch
    lab's way) and on the bench (a forked child loading the patched texts): the same outcome
    for each, the release as is, the minimal fix, a revert that brings the bug back and one
    that does not import."""
    for version in (PINNED, NEWEST):
        needs.release(version)
    envs = environments.default_envs()
    diff = anatomy.path_diff(envs)
    fix = [h for h in diff.hunks if h.name == "openai_responses_compaction_session.py#2"]
    broken = [h for h in diff.hunks if h.name == "items.py#1"]
    configurations = [
        (PINNED, {}, ""),
        (PINNED, diff.old_files(fix), diff.on_old(fix)),
        (NEWEST, diff.reverted_files(fix), diff.reverted(fix)),
        (NEWEST, diff.reverted_files(broken), diff.reverted(broken)),
    ]
    with Bench(envs, jobs=1) as bench:
        lab = Lab(envs, report=lambda line: None, bench=bench)
        for base, files, patch in configurations:
            on_bench = lab.run(base, files, "bench")[FUNCTION.kind]
            if patch:
                patched = Patched(base, (patch_from_text("x.diff", patch),))
                with throwaway_environment(patched, envs) as env:
                    copied = anatomy.outcome(judged(env, timeout=600))
            else:
                env = environments.release_environment(base, envs, create=False)
                copied = anatomy.outcome(judged(env, timeout=600))
            assert on_bench == copied, base
        verdicts = [lab.run(b, f, "again", first=FUNCTION.kind)[FUNCTION.kind].verdict
                    for b, f, _ in configurations]  # fmt: skip
    assert verdicts == [BUG, FIXED, BUG, UNRESOLVED]
