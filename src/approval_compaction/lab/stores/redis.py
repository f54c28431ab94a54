"""Redis: a throwaway ``redis-server`` on 127.0.0.1, started and stopped by whoever needs it.

It uses Debian's ``redis-server`` package: the server runs in the foreground on a free port,
bound to loopback only, with persistence off (no RDB snapshot, no append-only file) and its
working folder in a temporary folder removed on the way out. Redis runs as root without a flag
(it only warns). It is for tests and benchmarks, never for data that matters.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from ...errors import InvestigationError
from .servers import Throwaway, free_port, stop_process

START_SECONDS = 30


class RedisServerError(InvestigationError):
    """A throwaway Redis that cannot be found, started or reached."""


def binary() -> str | None:
    """The installed ``redis-server``, or None."""
    return shutil.which("redis-server")


def available() -> str | None:
    """Why a throwaway Redis cannot start here, or None when it can."""
    if binary() is None:
        return "Redis is not installed (apt-get install -y redis-server)"
    return None


def _ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class ThrowawayRedis(Throwaway):
    """``with ThrowawayRedis() as server:`` a running server; ``server.url(db)`` its URL."""

    def __init__(self) -> None:
        reason, found = available(), binary()
        if reason is not None or found is None:
            raise RedisServerError(reason)
        self.binary = found
        self.folder = Path(tempfile.mkdtemp(prefix="doctor-redis-"))
        self.port = 0
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> ThrowawayRedis:
        self.port = free_port()
        log = (self.folder / "server.log").open("wb")
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        command += ["--databases", "256", "--daemonize", "no"]
        self._proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + START_SECONDS
        while not _ping(self.port):
            if self._proc.poll() is not None or time.monotonic() > deadline:
                lines = (self.folder / "server.log").read_text(errors="replace").splitlines()
                raise RedisServerError(f"redis-server failed: {(lines or ['no output'])[-1]}")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        stop_process(self._proc, 10)
        self._proc, self.port = None, 0
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{database}"
