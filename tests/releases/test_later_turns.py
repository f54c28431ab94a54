"""Later turns: what the lab reads of the liveness runs, whoever ran them (the runs on
openai-agents are its folder's, ``tests/openai_agents/test_later_turns.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from approval_compaction.analysis.liveness import judge_liveness
from approval_compaction.formats.records import RecordsError
from approval_compaction.lab.releases.later_turns import LIVENESS_MODES, load_liveness, unjudged
from approval_compaction.study.words import SITUATIONS


def test_unjudged_is_every_situation_in_every_mode_each_saying_why() -> None:
    runs = unjudged("0.9.0", "release lacks SQLiteSession")
    cells = {(run.scenario, run.mode) for run in runs}
    assert cells == {(name, mode) for name in SITUATIONS for mode in LIVENESS_MODES}
    assert len(runs) == len(cells)
    assert all(r.sdk_version == "0.9.0" and r.error == "release lacks SQLiteSession" for r in runs)
    assert all(v.holds is None for run in runs for v in judge_liveness(run))


def test_liveness_load_names_the_command_when_the_file_is_missing(tmp_path: Path) -> None:
    with pytest.raises(RecordsError, match="python -m approval_compaction liveness"):
        load_liveness(tmp_path / "liveness.json")
