"""The patch lab: a patched or local SDK runs in a scratch copy of a release's environment, keyed
by content; bad input is one line and leaves nothing behind; records name the patch.

A fake release environment (a folder with the sweep's marker and a tiny ``agents`` package)
stands in for the cached one, so these tests need no release; the last test runs the real
matrix on the cached pinned release and skips without it.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import asdict
from pathlib import Path

import needs
import pytest

from approval_compaction import cli
from approval_compaction.errors import InvestigationError
from approval_compaction.lab import paths
from approval_compaction.lab.releases import environments, patched
from approval_compaction.lab.releases.patched import (
    Patched,
    PatchedRecord,
    PatchError,
    one_label,
    patch_from_text,
    patched_environment,
    read_labelled,
    read_patch,
    read_tree,
    strip_level,
)
from approval_compaction.lab.releases.versions import PACKAGE, load_releases

BASE = "0.23.1"
ORIGINAL = "VALUE = 1\n"


def fake_release(envs: Path, version: str = BASE) -> Path:
    """A release environment as the sweep leaves one: its marker, and ``agents`` to patch."""
    cutoff = load_releases(paths.DATA_FILES.release_dates)[version]
    folder = envs / version
    site = folder / "lib" / "python3.11" / "site-packages"
    (site / "agents").mkdir(parents=True)
    (site / "agents" / "__init__.py").write_text(ORIGINAL)
    (site / "other.py").write_text("OTHER = 1\n")
    (folder / "approval-compaction.json").write_text(
        json.dumps({PACKAGE: version, "exclude_newer": cutoff}, sort_keys=True)
    )
    return site


def diff(old: str, new: str, prefix: str = "a/src/", to: str = "b/src/") -> str:
    return f"--- {prefix}agents/__init__.py\n+++ {to}agents/__init__.py\n@@ -1 +1 @@\n-{old}+{new}"


FIX = diff(ORIGINAL, "VALUE = 2\n")


def tree(folder: Path, name: str = PACKAGE, version: str = BASE) -> Path:
    (folder / "src" / "agents").mkdir(parents=True)
    (folder / "src" / "agents" / "__init__.py").write_text("VALUE = 3\n")
    (folder / "pyproject.toml").write_text(f'[project]\nname = "{name}"\nversion = "{version}"\n')
    return folder


# --- reading the input ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prefix", "level"),
    [("a/src/", 2), ("src/", 1), ("a/", 1), ("", 0)],
    ids=["git-diff", "no-prefix", "package-paths", "bare"],
)
def test_patched_strip_level_finds_the_package_in_either_path_style(
    prefix: str, level: int
) -> None:
    assert strip_level(diff(ORIGINAL, "X = 1\n", prefix, prefix), "p.diff") == level


def test_patched_strip_level_refuses_a_diff_of_no_sdk_file() -> None:
    text = "--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-a\n+b\n"
    with pytest.raises(PatchError, match="changes no file under src/agents/"):
        strip_level(text, "docs.diff")


def test_patched_patch_from_text_refuses_what_is_no_diff() -> None:
    with pytest.raises(PatchError, match=r"^notes.txt is not a unified diff"):
        patch_from_text("notes.txt", "just words\n")


def test_patched_read_patch_names_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(PatchError, match="no patch file at"):
        read_patch(tmp_path / "missing.diff")


def test_patched_a_patch_is_named_by_its_file_and_content() -> None:
    first, same, other = (patch_from_text("fix.diff", t) for t in (FIX, FIX, diff(ORIGINAL, "")))
    assert first.label == f"fix.diff sha256:{first.sha256}" and len(first.sha256) == 64
    assert Patched(BASE, (first,)).key == Patched(BASE, (same,)).key
    assert Patched(BASE, (first,)).key != Patched(BASE, (other,)).key
    assert Patched(BASE, (first,)).key != Patched("0.24.0", (first,)).key


@pytest.mark.parametrize(
    ("make", "told"),
    [
        (lambda root: root / "nowhere", "no such folder"),
        (lambda root: root, "no src/agents/__init__.py"),
        (lambda root: tree(root, name="someone-else"), "names 'someone-else'"),
    ],
    ids=["missing", "no-package", "another-project"],
)
def test_patched_read_tree_refuses_what_is_not_an_sdk_tree(
    tmp_path: Path, make: object, told: str
) -> None:
    path = make(tmp_path)  # type: ignore[operator]  # the parametrised builder
    with pytest.raises(PatchError, match=told):
        read_tree(path)


def test_patched_a_tree_is_named_by_its_content(tmp_path: Path) -> None:
    found = read_tree(tree(tmp_path / "checkout"))
    assert (found.version, found.path.name) == (BASE, "checkout")
    (tmp_path / "checkout" / "src" / "agents" / "__init__.py").write_text("VALUE = 4\n")
    assert read_tree(tmp_path / "checkout").sha256 != found.sha256


# --- the scratch environment ------------------------------------------------------------------


def test_patched_environment_is_a_patched_copy_that_leaves_the_release_alone(
    tmp_path: Path,
) -> None:
    site = fake_release(tmp_path)
    change = Patched(BASE, (patch_from_text("fix.diff", FIX),))
    env = patched_environment(change, tmp_path)
    copied = patched.site_packages(env.folder)
    assert (copied / "agents" / "__init__.py").read_text() == "VALUE = 2\n"
    assert (site / "agents" / "__init__.py").read_text() == ORIGINAL  # the release untouched
    assert os.path.samefile(copied / "other.py", site / "other.py")  # the rest is linked
    assert env.folder.is_relative_to(tmp_path / patched.PATCHED_FOLDER)
    assert patched_environment(change, tmp_path) == env  # warm: reused as it is


def test_patched_environment_refuses_a_patch_that_does_not_apply_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    fake_release(tmp_path)
    stale = Patched(BASE, (patch_from_text("stale.diff", diff("VALUE = 9\n", "VALUE = 2\n")),))
    with pytest.raises(PatchError, match=r"^stale.diff does not apply to openai-agents 0.23.1: "):
        patched_environment(stale, tmp_path)
    # no environment, no folder of the patch, no half-built copy
    assert list((tmp_path / patched.PATCHED_FOLDER).iterdir()) == []


def test_patched_environment_puts_a_tree_in_place_of_the_release_package(tmp_path: Path) -> None:
    fake_release(tmp_path)
    local = read_tree(tree(tmp_path / "checkout"))
    env = patched_environment(Patched(BASE, (), local), tmp_path)
    assert (patched.site_packages(env.folder) / "agents" / "__init__.py").read_text() == (
        "VALUE = 3\n"
    )


def test_patched_environment_applies_patches_on_a_tree_in_order(tmp_path: Path) -> None:
    fake_release(tmp_path)
    local = read_tree(tree(tmp_path / "checkout"))
    on_top = patch_from_text("more.diff", diff("VALUE = 3\n", "VALUE = 5\n", "", ""))
    env = patched_environment(Patched(BASE, (on_top,), local), tmp_path)
    assert (patched.site_packages(env.folder) / "agents" / "__init__.py").read_text() == (
        "VALUE = 5\n"
    )


def test_patched_throwaway_environment_is_gone_after_its_block(tmp_path: Path) -> None:
    fake_release(tmp_path)
    change = Patched(BASE, (patch_from_text("fix.diff", FIX),))
    with patched.throwaway_environment(change, tmp_path) as env:
        assert (patched.site_packages(env.folder) / "agents" / "__init__.py").exists()
    assert not env.folder.exists()


# --- labelled records -------------------------------------------------------------------------


def test_patched_one_label_refuses_a_mix_of_patched_and_released() -> None:
    assert one_label(["x sha256:1", "x sha256:1"], "records") == "x sha256:1"
    with pytest.raises(PatchError, match="records mix results of different SDKs: released and"):
        one_label(["", "x sha256:1"], "records")


def test_patched_read_labelled_refuses_a_released_matrix() -> None:
    with pytest.raises(InvestigationError, match="missing openai, patch, pydantic"):
        read_labelled(paths.DATA_FILES.matrix, PatchedRecord)


def test_patched_read_labelled_refuses_another_patch(tmp_path: Path) -> None:
    from approval_compaction.lab.releases.sweep import load_results

    row = load_results(paths.DATA_FILES.sweep)[0]
    change = Patched(BASE, (patch_from_text("fix.diff", FIX),))
    rows = patched.labelled([row], patched.PatchedRecord, change.label)
    path = tmp_path / "patched.json"
    path.write_text(json.dumps([asdict(r) for r in rows]))
    assert read_labelled(path, PatchedRecord, change.label) == rows
    with pytest.raises(PatchError, match="not of other"):
        read_labelled(path, PatchedRecord, "other")


# --- the command line -------------------------------------------------------------------------


def test_patched_matrix_refuses_bad_input_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("words\n")
    fix = tmp_path / "fix.diff"
    fix.write_text(FIX)
    for argv, told in [
        (["--patch", str(tmp_path / "none.diff")], "no patch file at"),
        (["--patch", str(notes)], "is not a unified diff"),
        (["--sdk", str(tmp_path)], "is not an openai-agents source tree"),
        (["--patch", str(fix), "--fix"], "--fix runs the workaround"),
        (["--patch", str(fix), "--release", "9.9.9"], "9.9.9 is not a release"),
    ]:
        assert cli.main(["matrix", *argv]) == 2
        err = capsys.readouterr().err
        assert told in err and err.count("\n") == 1


def cached(version: str) -> environments.Environment:
    return needs.release(version)


@pytest.mark.releases
def test_patched_matrix_runs_the_cases_with_the_patch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A patch that makes the compaction session defer while a call is open: every record names
    it, and the cases on the pinned release now hold (the sweep finds them violated)."""
    cached(BASE)
    site = environments.default_envs() / BASE / "lib" / "python3.11" / "site-packages"
    source = site / "agents" / "memory" / "openai_responses_compaction_session.py"
    text = source.read_text()
    branch = "            if snapshot is not None and (not complete or suffix_start > 0):\n"
    marker = "                # Start at a caller message"
    assert text.count(branch) >= 2 and marker in text
    defer = (
        "            if drop_orphan_function_calls(list(session_items)) != list(session_items):\n"
        "                return\n"
    )
    head, tail = text.split(marker, 1)
    cut = head.rindex(branch)
    fixed = head[:cut] + defer + head[cut:] + marker + tail
    patch = tmp_path / "defer.diff"
    patch.write_text(
        _unified(text, fixed, "src/agents/memory/openai_responses_compaction_session.py")
    )
    output = tmp_path / "matrix.json"
    argv = ["matrix", "--patch", str(patch), "--format", "json", "--output", str(output)]
    assert cli.main(argv) == 0
    rows = read_labelled(output, PatchedRecord)
    assert {r.patch for r in rows} == {f"defer.diff sha256:{read_patch(patch).sha256}"}
    assert {r.sdk_version for r in rows} == {BASE}
    assert [r for r in rows if r.holds is not True] == []


def _unified(old: str, new: str, where: str) -> str:
    import difflib

    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{where}", f"b/{where}"
    )
    return "".join(lines)


def test_patched_git_apply_takes_a_diff_written_by_git(tmp_path: Path) -> None:
    """The patch format is git's own: a diff git writes applies."""
    for side, text in (("a", ORIGINAL), ("b", "VALUE = 2\n")):
        (tmp_path / side / "src" / "agents").mkdir(parents=True)
        (tmp_path / side / "src" / "agents" / "__init__.py").write_text(text)
    proc = subprocess.run(
        ["git", "diff", "--no-index", "a/src", "b/src"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    made = patch_from_text("git.diff", proc.stdout)
    site = fake_release(tmp_path / "envs")
    patched.apply_patch(made, site, BASE)
    assert (site / "agents" / "__init__.py").read_text() == "VALUE = 2\n"


def test_patched_read_labelled_refuses_a_file_of_two_patches_or_a_release_row(
    tmp_path: Path,
) -> None:
    from approval_compaction.lab.releases.sweep import load_results

    row = load_results(paths.DATA_FILES.sweep)[0]
    one = patched.labelled(
        [row], patched.PatchedRecord, Patched(BASE, (patch_from_text("fix.diff", FIX),)).label
    )
    two = patched.labelled(
        [row], patched.PatchedRecord, Patched(BASE, (patch_from_text("b.diff", FIX),)).label
    )
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps([asdict(r) for r in one + two]))
    with pytest.raises(PatchError) as raised:
        read_labelled(path, PatchedRecord)
    assert "mix results of different SDKs" in str(raised.value) and "\n" not in str(raised.value)
    path.write_text(json.dumps([asdict(one[0]), asdict(row)]))
    with pytest.raises(InvestigationError, match="missing openai, patch, pydantic|missing patch"):
        read_labelled(path, PatchedRecord)


def test_made_whole_moves_a_finished_build_into_place_and_a_failed_one_leaves_nothing(
    tmp_path: Path,
) -> None:
    target = tmp_path / "key" / "env"
    with pytest.raises(RuntimeError), patched.made_whole(target, tmp_path) as building:
        (building / "half").mkdir(parents=True)
        raise RuntimeError("the patch does not apply")
    assert list(tmp_path.iterdir()) == []  # not even the key's folder
    (target / "stale").mkdir(parents=True)  # what a killed run left
    with patched.made_whole(target, tmp_path) as building:
        (building / "done").mkdir(parents=True)
    assert sorted(p.name for p in target.iterdir()) == ["done"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["key"]


@pytest.mark.parametrize("fmt", ["table", "markdown"])
def test_patched_text_pivots_as_the_dataframe_does_under_its_title(fmt: str) -> None:
    """``matrix --patch`` prints its pivot without pandas (issue 34), the same characters."""
    from factories import release_record

    from approval_compaction.analysis.invariants import INVARIANTS
    from approval_compaction.analysis.table import pivot, to_frame
    from approval_compaction.analysis.vocabulary import marked
    from approval_compaction.formats.markdown import markdown_table
    from approval_compaction.lab.releases.patched import PatchedRecord, patched_text

    given = Patched(BASE, (patch_from_text("fix.diff", FIX),))
    rows = [
        PatchedRecord(
            **asdict(release_record(invariant=name, holds=holds, compaction=on)), patch="p"
        )
        for on, holds in (("on", False), ("off", True))
        for name in INVARIANTS
    ]
    table = pivot(to_frame(rows, PatchedRecord))
    body = markdown_table(table, cell=marked) if fmt == "markdown" else table.to_string()
    title = f"{given.describe()}: {given.label}"
    expected = f"**{title}**\n\n{body}\n" if fmt == "markdown" else f"{title}\n{body}\n"
    assert patched_text(rows, fmt, given) == expected
