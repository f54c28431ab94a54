"""PostgreSQL: a throwaway server on 127.0.0.1, started and stopped by whoever needs it.

It uses Debian's ``postgresql`` package (``/usr/lib/postgresql/<version>/bin``): ``initdb``
makes a cluster in a temporary folder, ``pg_ctl`` starts it on a free port with its socket in
the same folder, and stopping removes the folder. PostgreSQL refuses to run as root, so as
root the commands run as the package's ``postgres`` user (``runuser``), which owns the folder.
Authentication is ``trust`` and only loopback listens: it is for tests, benchmarks and the
notebook, never for data that matters.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ...errors import InvestigationError
from .servers import Throwaway, free_port, run_statement

__all__ = ["PostgresError", "ThrowawayPostgres", "available", "binaries", "free_port"]

USER = "doctor"
DEBIAN_ROOT = Path("/usr/lib/postgresql")
START_SECONDS = 60


class PostgresError(InvestigationError):
    """A throwaway server that cannot be found, started or reached."""


def binaries() -> Path | None:
    """The newest installed PostgreSQL's ``bin`` folder, or None when there is none."""
    found = sorted(
        (p for p in DEBIAN_ROOT.glob("*/bin") if (p / "initdb").exists()),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1]
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class ThrowawayPostgres(Throwaway):
    """``with ThrowawayPostgres() as server:`` a running server; ``server.url(db)`` its URL."""

    def __init__(self, *, fsync: bool = False) -> None:
        reason, bin_folder = available(), binaries()
        if reason is not None or bin_folder is None:
            raise PostgresError(reason)
        self.bin, self.fsync = bin_folder, fsync
        self.folder = Path(tempfile.mkdtemp(prefix="doctor-postgres-"))
        self.port = 0
        self._as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses root: run it as the package's own user
            shutil.chown(self.folder, user="postgres", group="postgres")
            self._as_user = ["runuser", "-u", "postgres", "--"]

    def _run(self, *command: str) -> None:
        proc = subprocess.run(
            [*self._as_user, str(self.bin / command[0]), *command[1:]],
            capture_output=True,
            text=True,
            timeout=START_SECONDS,
            check=False,
        )
        if proc.returncode != 0:
            lines = (proc.stderr or proc.stdout).strip().splitlines() or ["no output"]
            raise PostgresError(f"{command[0]} failed: {lines[-1]}")

    def start(self) -> ThrowawayPostgres:
        data = self.folder / "data"
        self._run("initdb", "-D", str(data), "-A", "trust", "-U", USER, "-E", "UTF8",
                  "--locale=C", "--no-sync")  # fmt: skip
        self.port = free_port()
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        options += "" if self.fsync else " -c fsync=off -c synchronous_commit=off"
        log = self.folder / "server.log"
        self._run("pg_ctl", "-D", str(data), "-l", str(log), "-w", "-t", str(START_SECONDS),
                  "-o", options, "start")  # fmt: skip
        return self

    def stop(self) -> None:
        if self.port:
            try:
                self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "stop")
            finally:
                self.port = 0
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+asyncpg://{USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new empty database on the server; its URL."""
        run_statement(self.url(), f'CREATE DATABASE "{name}"')
        return self.url(name)


def available() -> str | None:
    """Why a throwaway server cannot start here, or None when it can."""
    if binaries() is None:
        return "PostgreSQL is not installed (apt-get install -y postgresql)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root needs runuser to start PostgreSQL"
    return None
