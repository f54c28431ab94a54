"""Doctor fixtures: small generated stores on every backend the doctor reads.

A SQLite file; databases on a throwaway PostgreSQL and a throwaway MariaDB; a database of a
throwaway Redis; and the same with every item encrypted as ``EncryptedSession`` stores it (the
key in ``SESSION_ENCRYPTION_KEY``). Each server is started once per test session by the first
test that asks for it, and stopped at the end. Outside CI a machine without the server skips
those tests with the reason; under CI (``CI=true``) they fail instead, so a missing install
cannot pass unnoticed.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import needs
import pytest

from approval_compaction.lab.stores import mariadb, postgres, redis, synthetic

# A backend on a throwaway server: loopback sockets, and the servers tier.
SERVER = (pytest.mark.enable_socket, pytest.mark.servers)
BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=SERVER),
    pytest.param("mariadb", id="mariadb", marks=SERVER),
    pytest.param("redis", id="redis", marks=SERVER),
    pytest.param("encrypted-sqlite", id="encrypted-sqlite"),
    pytest.param("encrypted-postgresql", id="encrypted-postgresql", marks=SERVER),
    pytest.param("encrypted-redis", id="encrypted-redis", marks=SERVER),
]
# A Fernet key, as EncryptedSession's documentation suggests (made here, for tests only).
TEST_KEY = "q2H3pO4J0m3S6u7Yc8bC9dE0fG1hI2jK3lM4nO5pQ6r="
_names = itertools.count()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[postgres.ThrowawayPostgres]:
    needs.require(postgres.available(), "PostgreSQL")
    with postgres.ThrowawayPostgres() as server:
        yield server


@pytest.fixture(scope="session")
def mariadb_server() -> Iterator[mariadb.ThrowawayMariaDB]:
    needs.require(mariadb.available(), "MariaDB")
    with mariadb.ThrowawayMariaDB() as server:
        yield server


@pytest.fixture(scope="session")
def redis_server() -> Iterator[redis.ThrowawayRedis]:
    needs.require(redis.available(), "Redis")
    with redis.ThrowawayRedis() as server:
        yield server


def new_redis_database(server: redis.ThrowawayRedis) -> str:
    """An empty database of the server (there are 256; each is emptied before reuse)."""
    import redis as client

    number = next(_names) % 256
    with client.Redis(host="127.0.0.1", port=server.port, db=number) as conn:
        conn.flushdb()
    return server.url(number)


MakeStore = Callable[..., str]


def new_store(request: pytest.FixtureRequest, tmp_path: Path, backend: str) -> str:
    """A new empty store's string on ``backend`` (without its ``encrypted-`` prefix)."""
    name = f"doctor_{os.getpid()}_{next(_names)}"
    if backend == "sqlite":
        return str(tmp_path / f"{name}.db")
    if backend == "postgresql":
        return str(request.getfixturevalue("postgres_server").create_database(name))
    if backend == "mariadb":
        return str(request.getfixturevalue("mariadb_server").create_database(name))
    return new_redis_database(request.getfixturevalue("redis_server"))


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    name = str(request.param)
    if name.startswith("encrypted-"):
        monkeypatch.setenv("SESSION_ENCRYPTION_KEY", TEST_KEY)
    return name


@pytest.fixture
def store_key(backend: str) -> str | None:
    """The key the store's items are encrypted with (None for plain stores)."""
    return TEST_KEY if backend.startswith("encrypted-") else None


@pytest.fixture
def make_store(
    request: pytest.FixtureRequest, tmp_path: Path, backend: str, store_key: str | None
) -> MakeStore:
    """A function that writes a new store of ``count`` sessions and returns its name."""

    def make(count: int = 6, length: int = 8, mix: tuple[str, ...] = synthetic.MIX) -> str:
        text = new_store(request, tmp_path, backend.removeprefix("encrypted-"))
        asyncio.run(synthetic.generate(text, count, length, mix, key=store_key))
        return text

    return make
