"""Each exhibit is shown in one notebook (issue 61, round 5): another that needs it names the
notebook that shows it. These pin the cuts the last reading asked of 11 and 15."""

from __future__ import annotations

import json

from approval_compaction.lab import paths
from approval_compaction.lab.share import provenance


def _code(name: str) -> str:
    notebook = json.loads((paths.NOTEBOOKS / name).read_text())
    return "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code")


def test_ownership_javascript_notebook_runs_no_python_sdk_and_folds_no_live_cases() -> None:
    """The r4 reading: 11 ran the sixteen cases live only to fold them, then showed them again
    from data/js-modes.json, and re-ran Python 0.23.1, which notebook 01 shows. r13: the pinned
    release's modes table repeated the sweep's last row; the sweep's table (from data) stays."""
    recorded = provenance.load(paths.DATA_FILES.notebooks)["11-javascript.ipynb"]
    assert recorded.sdk_runs == 0
    code = _code("11-javascript.ipynb")
    assert "fold_frame" not in code and "run_case(" not in code
    assert "js_ranges_frame(found.sweep)" in code and "js_modes_frame" not in code


def test_ownership_your_session_leaves_the_store_verdict_and_heal_to_notebook_07() -> None:
    """The r4 reading: 15 repeated 07's stored items, the doctor's verdict table and the
    healed list; it keeps the next turn, the API's answers and the compaction."""
    code = _code("15-your-session.ipynb")
    assert "reports_frame" not in code and "healed_frame" not in code
    assert "items_frame(session.items)" not in code
    assert "diff_frame(session.items" in code and "compaction_frame" in code
    assert "reports_frame" in _code("07-am-i-affected.ipynb")
