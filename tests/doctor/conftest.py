"""Doctor fixtures: small generated stores on SQLite and on a throwaway PostgreSQL server.

The server is started once per test session by the first test that asks for it, and stopped at
the end. Outside CI a machine without PostgreSQL skips those tests with the reason; under CI
(``CI=true``) they fail instead, so a missing install cannot pass unnoticed.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from approval_compaction.testing import postgres, synthetic

BACKENDS = [
    pytest.param("sqlite-file", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.enable_socket),
]
_names = itertools.count()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[postgres.ThrowawayPostgres]:
    reason = postgres.available()
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the PostgreSQL tests: {reason}")
        pytest.skip(reason)
    with postgres.ThrowawayPostgres() as server:
        yield server


MakeStore = Callable[..., str]


@pytest.fixture(params=BACKENDS)
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> MakeStore:
    """A function that writes a new store of ``count`` sessions and returns its name."""

    def make(count: int = 6, length: int = 8, mix: tuple[str, ...] = synthetic.MIX) -> str:
        if request.param == "sqlite-file":
            text = str(tmp_path / f"store-{next(_names)}.db")
        else:
            server = request.getfixturevalue("postgres_server")
            text = server.create_database(f"doctor_{os.getpid()}_{next(_names)}")
        asyncio.run(synthetic.generate(text, count, length, mix))
        return text

    return make
