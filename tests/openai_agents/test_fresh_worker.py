"""Worker: a fresh process given only the RunState JSON and the store resumes like this one."""

from __future__ import annotations

from pathlib import Path

from approval_compaction.openai_agents.fresh_worker import compare


def test_fresh_worker_resume_matches_in_process_resume(tmp_path: Path) -> None:
    result = compare(True, tmp_path)
    assert result.same_stored_after_resume and result.same_next_turn_input
    assert result.next_turn_orphans_worker == result.next_turn_orphans_in_process == ("pending-c1",)
