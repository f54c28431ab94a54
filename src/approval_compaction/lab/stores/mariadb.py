"""MariaDB: a throwaway server on 127.0.0.1, started and stopped by whoever needs it.

It uses Debian's ``mariadb-server`` package: ``mariadb-install-db`` makes a data folder in a
temporary folder, ``mariadbd`` serves it on a free port (loopback only, its socket in the same
folder) and stopping removes the folder. ``mariadbd`` refuses to run as root unless told to:
as root it gets ``--user=root``. The grant tables are skipped, so any user name connects with
every privilege (as PostgreSQL's ``trust``), and the log is flushed lazily: it is for tests
and benchmarks, never for data that matters.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from ...errors import InvestigationError
from .servers import Throwaway, free_port, run_statement, stop_process

USER = "doctor"
START_SECONDS = 60
INSTALL = ("mariadb-install-db", "mysql_install_db")
SERVER = ("mariadbd", "mysqld")
SBIN = (Path("/usr/sbin"), Path("/usr/bin"))


class MariaDBError(InvestigationError):
    """A throwaway server that cannot be found, started or reached."""


def _find(names: tuple[str, ...]) -> str | None:
    for name in names:
        found = shutil.which(name) or next(
            (str(folder / name) for folder in SBIN if (folder / name).exists()), None
        )
        if found:
            return found
    return None


def available() -> str | None:
    """Why a throwaway MariaDB cannot start here, or None when it can."""
    if _find(INSTALL) is None or _find(SERVER) is None:
        return "MariaDB is not installed (apt-get install -y mariadb-server)"
    return None


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


class ThrowawayMariaDB(Throwaway):
    """``with ThrowawayMariaDB() as server:`` a running server; ``server.url(db)`` its URL."""

    def __init__(self, *, durable: bool = False, driver: str = "asyncmy") -> None:
        reason, install, server = available(), _find(INSTALL), _find(SERVER)
        if reason is not None or install is None or server is None:
            raise MariaDBError(reason)
        self.install, self.server, self.durable, self.driver = install, server, durable, driver
        self.folder = Path(tempfile.mkdtemp(prefix="doctor-mariadb-"))
        self.port = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._as_root = ["--user=root"] if os.geteuid() == 0 else []

    def _error(self, what: str, text: str) -> MariaDBError:
        lines = [line for line in text.strip().splitlines() if line.strip()] or ["no output"]
        return MariaDBError(f"{what} failed: {lines[-1]}")

    def start(self) -> ThrowawayMariaDB:
        data = self.folder / "data"
        proc = subprocess.run(
            [self.install, "--no-defaults", f"--datadir={data}", *self._as_root,
             "--auth-root-authentication-method=normal", "--skip-test-db",
             "--skip-name-resolve"],
            capture_output=True, text=True, timeout=START_SECONDS, check=False,
        )  # fmt: skip
        if proc.returncode != 0:
            raise self._error("mariadb-install-db", proc.stderr or proc.stdout)
        self.port = free_port()
        flush = "1" if self.durable else "0"
        command = [self.server, "--no-defaults", f"--datadir={data}", *self._as_root,
                   f"--socket={self.folder / 'server.sock'}", f"--port={self.port}",
                   "--bind-address=127.0.0.1", "--skip-grant-tables", "--skip-log-bin",
                   "--skip-name-resolve", f"--innodb-flush-log-at-trx-commit={flush}",
                   f"--pid-file={self.folder / 'server.pid'}", f"--tmpdir={self.folder}",
                   f"--log-error={self.folder / 'server.log'}"]  # fmt: skip
        self._proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_SECONDS
        while not _listening(self.port):
            if self._proc.poll() is not None or time.monotonic() > deadline:
                log = self.folder / "server.log"
                raise self._error(
                    "mariadbd", log.read_text(errors="replace") if log.exists() else ""
                )
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        stop_process(self._proc)
        self._proc, self.port = None, 0
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "mysql") -> str:
        return f"mysql+{self.driver}://{USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new empty database (utf8mb4) on the server; its URL."""
        run_statement(
            self.url(), f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
        )
        return self.url(name)
