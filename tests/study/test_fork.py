"""Calls shared out to forked copies of the process: the same results, in the items' order."""

from __future__ import annotations

import os
import time

import pytest

from approval_compaction.study.fork import cores, fork_map


def pid_and_square(n: int) -> tuple[int, int]:
    return os.getpid(), n * n


def test_fork_map_returns_each_result_in_the_items_order() -> None:
    results = fork_map(pid_and_square, list(range(7)), jobs=3)
    assert [square for _, square in results] == [n * n for n in range(7)]


def test_fork_map_runs_every_share_in_its_own_process() -> None:
    pids = [pid for pid, _ in fork_map(pid_and_square, list(range(6)), jobs=3)]
    assert pids[0::3] == [os.getpid()] * 2  # this process runs share 0
    assert len(set(pids)) == 3 and len(set(pids[1::3])) == 1


def test_fork_map_runs_here_when_one_job_suffices() -> None:
    assert fork_map(pid_and_square, [4], jobs=4) == [(os.getpid(), 16)]
    assert fork_map(pid_and_square, [], jobs=2) == []


def fails_on_three(n: int) -> int:
    if n == 3:
        raise ValueError("three is refused")
    return n


def test_fork_map_raises_a_copy_s_exception_with_its_traceback() -> None:
    with pytest.raises(RuntimeError, match="ValueError: three is refused"):
        fork_map(fails_on_three, [0, 1, 2, 3], jobs=2)


def test_fork_cores_is_at_least_one() -> None:
    assert cores() >= 1


def test_fork_map_waits_for_every_copy_when_its_own_share_fails() -> None:
    with pytest.raises(ValueError, match="three is refused"):
        fork_map(fails_on_three, [3, 1], jobs=2)  # item 0 (3) is this process's own share
    time.sleep(0.3)  # long enough for a copy left behind to have ended
    try:
        ended, _ = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:  # no child process at all
        ended = 0
    assert ended == 0  # no copy was left for anyone else to reap
