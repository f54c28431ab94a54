"""Servers: a free loopback port, a process stopped politely then firmly, and a context manager
that stops what it started even when starting fails."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from approval_compaction.lab.stores import servers


@pytest.mark.enable_socket
def test_free_port_can_be_bound_on_loopback() -> None:
    port = servers.free_port()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", port))


def test_stop_process_ends_one_that_ignores_sigterm() -> None:
    code = (
        "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "print(1, flush=True); time.sleep(60)"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline() == b"1\n"
    servers.stop_process(proc, seconds=0.5)
    assert proc.returncode == -9
    proc.stdout.close()
    servers.stop_process(None)  # nothing started: nothing to do


class _Failing(servers.Throwaway):
    def __init__(self) -> None:
        self.stopped = 0

    def start(self) -> _Failing:
        raise RuntimeError("could not start")

    def stop(self) -> None:
        self.stopped += 1


def test_a_failed_start_is_stopped_once_and_raises() -> None:
    server = _Failing()
    with pytest.raises(RuntimeError, match="could not start"):
        with server:
            pass
    assert server.stopped == 1
