"""The throwaway PostgreSQL: found, started on loopback with a database, and gone after."""

from __future__ import annotations

import socket

import needs
import pytest

from approval_compaction.lab.stores import postgres


@pytest.mark.enable_socket
def test_free_port_is_one_nothing_listens_on() -> None:
    port = postgres.free_port()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", port))  # would fail if something held it


def test_available_agrees_with_the_binaries_found() -> None:
    reason = postgres.available()
    if postgres.binaries() is None:
        assert reason == "PostgreSQL is not installed (apt-get install -y postgresql)"
    else:
        assert reason is None or "runuser" in reason


@pytest.mark.servers
@pytest.mark.enable_socket
def test_server_starts_makes_a_database_and_leaves_nothing_behind() -> None:
    needs.require(postgres.available(), "PostgreSQL")
    with postgres.ThrowawayPostgres() as server:
        url = server.create_database("throwaway_check")
        assert (
            url == f"postgresql+asyncpg://{postgres.USER}@127.0.0.1:{server.port}/throwaway_check"
        )
        folder = server.folder
        assert (folder / "data" / "PG_VERSION").exists()
    assert not folder.exists() and server.port == 0
