"""Files: each of the ADK study's result files named once, found in any data folder."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

from approval_compaction.adk.files import FILES, MATRIX, Name, data_file
from approval_compaction.adk.plugin import PLUGIN
from approval_compaction.lab import paths


def test_files_name_each_result_once_under_the_adk_prefix() -> None:
    assert list(FILES) == list(get_args(Name))
    assert len(set(FILES.values())) == len(FILES)
    assert all("adk" in name.split(".")[0].split("-") for name in [*FILES.values(), MATRIX])


def test_files_data_file_is_in_the_folder_asked_for(tmp_path: Path) -> None:
    assert data_file("sweep", tmp_path) == tmp_path / "adk-sweep.json"
    assert data_file("long_running_sdk_test") == paths.DATA / "adk-sdk-test-long-running.json"


def test_files_are_what_the_plugin_names_with_the_matrix() -> None:
    assert sorted(PLUGIN.files) == sorted([*FILES.values(), f"{MATRIX}.json"])
    assert all((paths.DATA / name).is_file() for name in PLUGIN.files)
