"""The lab's step of ``doctor``: ``data``; every other step is the doctor's own."""

from __future__ import annotations

from approval_compaction.doctor.command import STEPS as USER_STEPS
from approval_compaction.lab.affected.command import STEPS


def test_doctor_command_has_the_labs_step_and_the_doctor_the_users() -> None:
    assert sorted(STEPS) == ["data"]
    assert sorted(USER_STEPS) == ["check", "items", "repair", "restore", "scan", "sql"]
