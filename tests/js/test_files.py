"""The JS study's result files: one layout with the shared ones, each named once."""

from __future__ import annotations

from pathlib import Path

from approval_compaction.js.files import DATA_FILES, FILES, JS_MATRIX, JsData, data
from approval_compaction.lab import paths


def test_files_layout_holds_the_shared_names_and_the_js_ones() -> None:
    elsewhere = data("/tmp/scratch")
    assert isinstance(elsewhere, JsData)
    assert elsewhere.sweep == Path("/tmp/scratch/sweep.json")  # the shared layout's
    assert elsewhere.js_sweep == Path("/tmp/scratch/js-sweep.json")
    assert elsewhere.js_matrix == Path(f"/tmp/scratch/{JS_MATRIX}.json")
    assert DATA_FILES.shown(DATA_FILES.js_stall_report) == "data/report-js-stall.md"


def test_files_names_each_js_property_once_for_the_plugin() -> None:
    names = [
        getattr(DATA_FILES, name).name
        for name in dir(JsData)
        if name.startswith("js_") and isinstance(getattr(JsData, name), property)
    ]
    assert sorted(names) == sorted(FILES)
    assert len(set(FILES)) == len(FILES)
    assert not any(hasattr(paths.Data, name) for name in dir(JsData) if name.startswith("js_"))
