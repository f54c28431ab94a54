"""The throwaway Redis: found, started on loopback, answering, and gone after."""

from __future__ import annotations

import needs
import pytest

from approval_compaction.lab.stores import redis


@pytest.mark.servers
@pytest.mark.enable_socket
def test_server_starts_answers_and_leaves_nothing_behind() -> None:
    needs.require(redis.available(), "Redis")
    with redis.ThrowawayRedis() as server:
        assert server.url(3) == f"redis://127.0.0.1:{server.port}/3"
        assert redis._ping(server.port)
        folder = server.folder
    assert not folder.exists() and server.port == 0
