"""Redis stores: the store string, the key prefix, and the SDK's own layout read back."""

from __future__ import annotations

import asyncio

import needs
import pytest

from approval_compaction.doctor import redisstore
from approval_compaction.doctor.stores import REDIS_PREFIX, StoreError, opened, parse_store
from approval_compaction.testing import redis

from .conftest import new_redis_database


def test_parse_redis_hides_the_password_and_keeps_the_url() -> None:
    url, label = redisstore.parse_redis("redis://user:s3cret@127.0.0.1:6390/4?key_prefix=app")
    assert url == "redis://user:s3cret@127.0.0.1:6390/4?key_prefix=app"
    assert "s3cret" not in label and label == "redis://user:***@127.0.0.1:6390/4?key_prefix=app"


def test_client_url_takes_the_key_prefix_out() -> None:
    assert redisstore._client_url("redis://h:1/2?key_prefix=app&ssl_cert_reqs=none") == (
        "redis://h:1/2?ssl_cert_reqs=none",
        "app",
    )
    assert redisstore._client_url("redis://h:1/2") == ("redis://h:1/2", REDIS_PREFIX)


def test_glob_escapes_what_scan_would_read_as_a_pattern() -> None:
    assert redisstore._glob("a*b?[c]\\") == "a\\*b\\?\\[c\\]\\\\"


def test_bytes_that_are_not_utf8_survive_a_round_trip() -> None:
    raw = b'{"content":"\xff"}'
    assert redisstore._bytes(redisstore._text(raw)) == raw


@pytest.fixture(scope="module")
def server() -> object:
    needs.require(redis.available(), "Redis")
    with redis.ThrowawayRedis() as started:
        yield started


@pytest.mark.enable_socket
def test_sessions_are_read_in_id_order_as_redis_session_wrote_them(server: object) -> None:
    from agents.extensions.memory import RedisSession

    assert isinstance(server, redis.ThrowawayRedis)
    url = new_redis_database(server)

    async def run() -> list[tuple[str, list[object]]]:
        for sid in ("b", "a"):
            session = RedisSession.from_url(sid, url=url)
            await session.add_items([{"role": "user", "content": f"hello {sid}"}])
            await session.close()
        async with opened(url) as store:
            return [(s.session_id, [item for _, item in s.readable()])
                    async for s in store.sessions()]  # fmt: skip

    found = asyncio.run(run())
    assert found == [
        ("a", [{"role": "user", "content": "hello a"}]),
        ("b", [{"role": "user", "content": "hello b"}]),
    ]


@pytest.mark.enable_socket
def test_a_database_of_other_keys_is_one_line(server: object) -> None:
    import redis as client

    assert isinstance(server, redis.ThrowawayRedis)
    url = new_redis_database(server)
    number = int(url.rsplit("/", 1)[1])
    with client.Redis(host="127.0.0.1", port=server.port, db=number) as conn:
        conn.set("not-a-session", "x")

    async def run() -> None:
        async with opened(url):
            pass

    with pytest.raises(StoreError, match="holds no RedisSession keys") as caught:
        asyncio.run(run())
    assert "\n" not in str(caught.value)
    assert parse_store(url).kind == "redis"
