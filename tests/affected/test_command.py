"""The studies' steps of ``doctor``: ``check`` on the installed SDK, as a table or as JSON."""

from __future__ import annotations

import json

import pytest

from approval_compaction.cli import main
from approval_compaction.doctor.command import STEPS as USER_STEPS
from approval_compaction.lab.affected.command import STEPS


def test_doctor_command_has_the_studies_steps_and_the_doctor_the_users() -> None:
    assert sorted(STEPS) == ["check", "data"]
    assert sorted(USER_STEPS) == ["repair", "restore", "scan", "sql"]


def test_doctor_check_json_rows_and_table_answer(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["doctor", "check", "--mode", "input", "--trigger", "always", "--turns", "1"]
    assert main([*args, "--later", "2", "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    rows = found["rows"]
    assert [(r["prior_turns"], r["next_turn"]) for r in rows] == [(0, "rejected"), (1, "rejected")]
    liveness = {(r["prior_turns"], r["invariant"]): r for r in found["liveness"]}
    assert sorted(liveness) == [
        (p, name) for p in (0, 1) for name in ("compaction_runs", "history_bounded")
    ]
    assert all(r["turns"] == 2 for r in liveness.values())
    assert len(found["answers"]) == 2 and "later turns" in found["answers"][1]
    assert main([*args, "--later", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[0] == "prior_turns" and len(lines) == 5
    assert "affected at 2 of 2 pause positions" in lines[-2]
    assert "each pause position continued for 2 later turns" in lines[-1]
    holds = all(r["holds"] for r in liveness.values())
    assert ("keep compacting" in lines[-1]) == holds


def test_doctor_check_negative_turns_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "check", "--turns", "-1"]) == 2
    assert capsys.readouterr().err == "error: --turns must be 0 or more\n"
    assert main(["doctor", "check", "--later", "-1"]) == 2
    assert capsys.readouterr().err == "error: --later must be 0 or more\n"


def test_doctor_check_response_store_false_moves_the_400_from_the_pause(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``auto`` with the store unset: the pause is refused; with ``store=False``: it pauses, and
    the next turn sends the decision's output without its call."""
    args = ["doctor", "check", "--mode", "auto", "--trigger", "always", "--turns", "0"]
    rows = {}
    for word in ("default", "false"):
        assert main([*args, "--later", "0", "--format", "json", "--response-store", word]) == 0
        (rows[word],) = json.loads(capsys.readouterr().out)["rows"]
    assert rows["default"]["at_pause"].startswith("HTTP 400: No tool output found")
    assert (rows["false"]["at_pause"], rows["false"]["next_turn"]) == ("paused", "rejected")
