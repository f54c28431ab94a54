"""Servers: what the throwaway servers share (PostgreSQL, MariaDB, Redis): a free loopback port,
a context manager that stops what it started even when starting fails, a process stopped
politely then firmly, and a statement run on a fresh connection (``CREATE DATABASE``)."""

from __future__ import annotations

import socket
import subprocess
from types import TracebackType
from typing import Self

from ...study.loop import run_sync


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stop_process(proc: subprocess.Popen[bytes] | None, seconds: float = 30) -> None:
    """SIGTERM, then SIGKILL if it has not ended after ``seconds``."""
    if proc is None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def run_statement(url: str, statement: str) -> None:
    """One statement outside a transaction (``CREATE DATABASE`` needs that), on a new engine."""

    async def run() -> None:
        from sqlalchemy import text
        from sqlalchemy.ext.asyncio import create_async_engine

        engine = create_async_engine(url, isolation_level="AUTOCOMMIT")
        try:
            async with engine.connect() as conn:
                await conn.execute(text(statement))
        finally:
            await engine.dispose()

    run_sync(run())


class Throwaway:
    """``with Server() as server:`` started, and stopped (its folder removed) on the way out."""

    def start(self) -> Self:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
