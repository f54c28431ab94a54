"""Paths: the core's locations, and the lab's files under data/, each by its one name, under
data/ or under any other folder."""

from __future__ import annotations

from pathlib import Path

import pytest

import approval_compaction.paths as core_paths
from approval_compaction.lab import paths
from approval_compaction.lab.explore.sdks import registry
from approval_compaction.lab.plugins import plugins


def test_data_names_every_committed_result_file() -> None:
    """Each file under data/ (but rendered notebooks and counterexamples) has a name here."""
    layout = paths.DATA_FILES
    named = {
        layout.matrix,
        layout.fix_matrix,
        layout.newest_matrix,
        layout.store_false_matrix,
        layout.sweep,
        layout.sweep_meetings,
        layout.sweep_liveness,
        layout.meetings,
        layout.release_dates,
        layout.fix_releases,
        layout.mechanism,
        layout.fix_anatomy,
        layout.doctor_check_pinned,
        layout.doctor_check_newest,
        layout.doctor_check_modes,
        layout.doctor_upgrade,
        layout.doctor_worker,
        layout.doctor_heal,
        layout.liveness,
        layout.liveness_mutants,
        layout.liveness_patch_test,
        layout.liveness_patch_mcp,
        layout.liveness_patch_suite,
        layout.liveness_patch_matrix,
        layout.liveness_patch_runs,
        layout.liveness_patch_http,
        layout.upstream_liveness,
        layout.report,
        layout.snippet,
        layout.notebooks,
        layout.lab_screenshot,
        *layout.explore_results(),
        *(path for sdk in registry() for path in layout.explore_results(sdk)),
    }
    for version in layout.upstream_suite_versions():
        named |= {
            layout.upstream_suite(version, part) for part in ("", "runs", "checks", "failures")
        }
    named |= {paths.DATA / name for plugin in plugins() for name in plugin.files}
    stems = {p.with_suffix("") for p in named}
    for path in paths.DATA.iterdir():
        if path in (layout.rendered, layout.counterexamples):
            continue
        stem = path.with_suffix("")
        for suffix in ("-runs", "-heatmap"):  # a matrix set's runs and heatmap beside its JSON
            stem = stem.with_name(stem.name.removesuffix(suffix))
        assert path in named or stem in stems, f"{path.name} has no name in paths.Data"


def test_data_elsewhere_keeps_the_names() -> None:
    elsewhere = paths.data("/tmp/scratch")
    assert elsewhere.sweep == Path("/tmp/scratch/sweep.json")
    assert elsewhere.upstream_suite("0.24.0", "runs") == Path(
        "/tmp/scratch/upstream-suite-0.24.0-runs.json"
    )
    assert elsewhere.explore("0.23.1", fix=True) == Path("/tmp/scratch/explore-0.23.1-fix.json")
    assert elsewhere.counterexample("x") == Path("/tmp/scratch/counterexamples/x.json")
    assert elsewhere.runs(paths.FIX_MATRIX) == Path("/tmp/scratch/fix-matrix-runs.json")
    assert paths.DATA_FILES.shown(paths.DATA_FILES.sweep) == "data/sweep.json"


def test_paths_scratch_is_the_memory_folder_when_it_is_writable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Throwaway stores go to memory, where SQLite's commits cost no fsync."""
    monkeypatch.setattr(core_paths, "MEMORY_FOLDER", tmp_path)
    core_paths.scratch.cache_clear()
    try:
        assert core_paths.scratch() == str(tmp_path)
        monkeypatch.setattr(core_paths, "MEMORY_FOLDER", tmp_path / "absent")
        core_paths.scratch.cache_clear()
        assert core_paths.scratch() is None  # tempfile's own folder
    finally:
        core_paths.scratch.cache_clear()


def test_paths_the_core_names_no_lab_file() -> None:
    """The core's module names locations only; the lab's names are handed on from the lab's."""
    own = vars(core_paths)
    assert not {"Data", "DATA_FILES", "NOTEBOOKS", "REGRESSION_TEST", "MATRIX"} & set(own)
    assert core_paths.DATA_FILES is paths.DATA_FILES
    assert paths.DATA is core_paths.DATA and paths.scratch is core_paths.scratch


def test_paths_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        core_paths.nothing_here  # noqa: B018  # the lookup is the behaviour under test
