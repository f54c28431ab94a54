"""The throwaway Redis: found, started on loopback, answering, and gone after."""

from __future__ import annotations

import os

import pytest

from approval_compaction.testing import redis


@pytest.mark.enable_socket
def test_server_starts_answers_and_leaves_nothing_behind() -> None:
    reason = redis.available()
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the Redis tests: {reason}")
        pytest.skip(reason)
    with redis.ThrowawayRedis() as server:
        assert server.url(3) == f"redis://127.0.0.1:{server.port}/3"
        assert redis._ping(server.port)
        folder = server.folder
    assert not folder.exists() and server.port == 0
