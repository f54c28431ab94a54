"""Hunks: a diff cut into changes that apply one by one; all of them give the newer file, any set
of them makes a patch git applies; the two releases' files split as the anatomy uses them."""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path

import needs
import pytest

from approval_compaction.lab.mechanism.hunks import compose, paragraphs, patch_text, split
from approval_compaction.lab.releases import NEWEST, PINNED

OLD = """\
def f(items):
    if is_automatic:
        if partial:
            # Keep groups intact.
            if check(items):
                return
        compact(items)
"""
NEW = """\
def f(items):
    if is_automatic:
        # Keep groups intact, complete history too.
        if check(items):
            return
        # Hosted MCP approvals use request ids.
        requests = ids(items)
        if requests:
            return
        compact(items)
"""


def test_hunks_paragraphs_cut_at_a_comment_after_code_and_after_a_blank_line() -> None:
    lines = NEW.splitlines(keepends=True)[2:9]
    assert paragraphs(lines) == [(0, 3), (3, 7)]
    assert paragraphs(["def a():\n", "    pass\n", "\n", "def b():\n", "    pass\n"]) == [
        (0, 3),
        (3, 5),
    ]


def test_hunks_split_keeps_the_rewritten_check_apart_from_the_check_added_beside_it() -> None:
    hunks = split("agents/x.py", OLD, NEW)
    assert [h.first_line for h in hunks] == [
        "+ # Keep groups intact, complete history too.",
        "+ # Hosted MCP approvals use request ids.",
    ]
    assert compose(OLD, hunks) == NEW
    assert "requests = ids(items)" not in compose(OLD, hunks[:1])
    assert "if partial:" not in compose(OLD, hunks[:1])


@pytest.mark.parametrize("size", [0, 1, 2])
def test_hunks_every_subset_makes_a_patch_git_applies(tmp_path: Path, size: int) -> None:
    hunks = split("agents/x.py", OLD, NEW)
    for chosen in itertools.combinations(hunks, size):
        folder = tmp_path / f"{size}-{'-'.join(str(h.number) for h in chosen)}"
        (folder / "src" / "agents").mkdir(parents=True)
        (folder / "src" / "agents" / "x.py").write_text(OLD)
        text = patch_text({"agents/x.py": OLD}, {"agents/x.py": compose(OLD, chosen)})
        if not chosen:
            assert text == ""
            continue
        (folder / "change.diff").write_text(text)
        proc = subprocess.run(
            ["git", "apply", "change.diff"], cwd=folder, capture_output=True, text=True
        )
        assert proc.returncode == 0, proc.stderr
        assert (folder / "src" / "agents" / "x.py").read_text() == compose(OLD, chosen)


@pytest.mark.releases
def test_hunks_of_the_two_releases_compose_to_the_newer_files() -> None:
    """On the files the anatomy splits: every hunk applied to 0.23.1 gives 0.24.0 exactly."""
    from approval_compaction.openai_agents.anatomy import path_files, sources

    envs = [needs.release(v) for v in (PINNED, NEWEST)]
    old, new = (sources(env, path_files()) for env in envs)
    for name in path_files():
        hunks = split(name, old[name], new[name])
        assert compose(old[name], hunks) == new[name]
        assert all(h.old_lines or h.new_lines for h in hunks)
