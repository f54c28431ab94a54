"""Stores: bad input is one line with nothing written; sessions stream in the SDK's order."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from approval_compaction.doctor.scan import scan_store
from approval_compaction.doctor.stores import (
    ANY_URL,
    BACKENDS,
    StoreError,
    backend_for,
    opened,
    parse_store,
)
from approval_compaction.errors import MissingExtra

MakeStore = Callable[..., str]


def _scan_error(text: str) -> str:
    with pytest.raises(StoreError) as caught:
        asyncio.run(scan_store(text))
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_missing_file_is_one_line_and_is_not_created(tmp_path: Path) -> None:
    target = tmp_path / "absent.db"
    assert "no database file" in _scan_error(str(target))
    assert "no database file" in _scan_error(f"sqlite+aiosqlite:///{target}")
    assert list(tmp_path.iterdir()) == []


def test_corrupt_file_is_one_line_and_is_not_written(tmp_path: Path) -> None:
    target = tmp_path / "corrupt.db"
    target.write_bytes(b"not a database at all" * 10)
    before = target.read_bytes()
    assert "file is not a database" in _scan_error(str(target))
    assert target.read_bytes() == before


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgresql://u@127.0.0.1:1/db", "is not async"),
        ("nosuchdb+driver://u@127.0.0.1/db", "unknown scheme or driver"),
        ("not a url://", "not a store string"),
    ],
    ids=["sync-driver", "unknown-dialect", "garbage"],
)
def test_wrong_url_or_driver_is_one_line(url: str, expected: str) -> None:
    assert expected in _scan_error(url)


@pytest.mark.parametrize(
    ("statements", "expected"),
    [
        (["CREATE TABLE notes (x)"], "no table agent_sessions"),
        (
            [
                "CREATE TABLE agent_sessions (session_id, created_at, updated_at)",
                "CREATE TABLE agent_messages (id, session_id, body)",
            ],
            "missing column created_at, message_data",
        ),
    ],
    ids=["other-tables", "other-columns"],
)
def test_a_layout_that_is_not_the_sdks_is_refused(
    tmp_path: Path, statements: list[str], expected: str
) -> None:
    target = tmp_path / "other.db"
    with sqlite3.connect(target) as conn:
        for statement in statements:
            conn.execute(statement)
    before = target.read_bytes()
    assert expected in _scan_error(str(target))
    assert target.read_bytes() == before


def test_sessions_stream_in_id_order_with_rows_in_read_order(make_store: MakeStore) -> None:
    text = make_store(count=5, length=9)

    async def read() -> list[tuple[str, list[dict[str, object]], list[dict[str, object]]]]:
        async with opened(text) as store:
            found = []
            async for session in store.sessions():
                back = await store.read_back(session.session_id)
                found.append((session.session_id, session.items()[0], back[None]))
            return found

    found = asyncio.run(read())
    assert [sid for sid, _, _ in found] == sorted(sid for sid, _, _ in found)
    assert len(found) == 5
    for _, items, through_sdk in found:
        assert items == through_sdk  # the store reads what the SDK's session reads


def test_scan_does_not_write_the_file(tmp_path: Path) -> None:
    from approval_compaction.lab.stores.synthetic import generate

    target = tmp_path / "store.db"
    asyncio.run(generate(str(target), 4, 6))
    before = target.read_bytes()
    asyncio.run(scan_store(str(target)))
    assert target.read_bytes() == before


@pytest.mark.enable_socket
@pytest.mark.parametrize(
    "text",
    ["redis://127.0.0.1:9/0", "mysql+asyncmy://doctor@127.0.0.1:9/db",
     "postgresql+asyncpg://doctor@127.0.0.1:9/db"],
    ids=["redis", "mariadb", "postgresql"],
)  # fmt: skip
def test_an_unreachable_server_is_one_line(text: str) -> None:
    assert "cannot re" in _scan_error(text)


def test_an_unknown_scheme_is_one_line() -> None:
    assert "unknown scheme or driver 'mongodb'" in _scan_error("mongodb://127.0.0.1/db")


def test_a_missing_or_wrong_key_is_one_line_and_never_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from approval_compaction.doctor.repair import apply
    from approval_compaction.lab.stores.synthetic import generate

    from .conftest import TEST_KEY

    target = tmp_path / "encrypted.db"
    asyncio.run(generate(str(target), 3, 6, key=TEST_KEY))
    before = target.read_bytes()
    monkeypatch.delenv("SESSION_ENCRYPTION_KEY", raising=False)
    assert "holds EncryptedSession items: set the application's key" in _scan_error(str(target))
    wrong = "x" * 43 + "="
    monkeypatch.setenv("SESSION_ENCRYPTION_KEY", wrong)
    message = _scan_error(str(target))
    assert "wrong key" in message and wrong not in message and TEST_KEY not in message
    with pytest.raises(StoreError, match="wrong key"):
        asyncio.run(apply(str(target), tmp_path / "b.jsonl"))
    assert target.read_bytes() == before and not (tmp_path / "b.jsonl").exists()
    monkeypatch.setenv("OTHER_KEY", TEST_KEY)
    assert len(asyncio.run(scan_store(str(target), key_env="OTHER_KEY"))) == 3


@pytest.mark.servers
@pytest.mark.enable_socket
def test_redis_keys_that_are_not_the_sdks_are_refused(request: pytest.FixtureRequest) -> None:
    import redis

    from .conftest import new_redis_database

    server = request.getfixturevalue("redis_server")
    text = new_redis_database(server)
    number = int(text.rsplit("/", 1)[1])
    with redis.Redis(host="127.0.0.1", port=server.port, db=number) as conn:
        conn.set("cache:item", "1")
        assert "holds no RedisSession keys under agents:session" in _scan_error(text)
        assert conn.dbsize() == 1


@pytest.mark.servers
@pytest.mark.enable_socket
def test_a_redis_key_prefix_names_the_applications_sessions(request: pytest.FixtureRequest) -> None:
    from approval_compaction.lab.stores.synthetic import generate

    from .conftest import new_redis_database

    text = new_redis_database(request.getfixturevalue("redis_server")) + "?key_prefix=app:chat"
    asyncio.run(generate(text, 3, 6))
    assert [r.session_id for r in asyncio.run(scan_store(text))] == [
        "session-000000", "session-000001", "session-000002",
    ]  # fmt: skip
    bare = text.split("?")[0]
    assert "no RedisSession keys under agents:session" in _scan_error(bare)


@pytest.mark.parametrize(
    ("text", "module", "extra"),
    [
        ("redis://127.0.0.1:1/0", "redis", "redis"),
        ("postgresql+asyncpg://u@127.0.0.1/db", "asyncpg", "postgres"),
        ("mysql+asyncmy://u@127.0.0.1/db", "asyncmy", "mysql"),
    ],
    ids=["redis", "postgresql", "mysql"],
)
def test_a_store_whose_extra_is_missing_is_one_line_naming_it(
    text: str, module: str, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # find_spec: not installed
    with pytest.raises(MissingExtra) as caught:
        parse_store(text)
    assert str(caught.value).endswith(f"needs {module}: install approval-compaction[{extra}]")


@pytest.mark.parametrize(
    ("text", "kind", "extra"),
    [
        ("/srv/history.db", "sqlite-file", "doctor"),
        ("sqlite+aiosqlite:///srv/history.db", "url", "doctor"),
        ("postgresql+asyncpg://u@h/db", "url", "postgres"),
        ("mariadb+asyncmy://u@h/db", "url", "mysql"),
        ("rediss://h:6380/0", "redis", "redis"),
        ("mssql+aioodbc://u@h/db", "url", "doctor"),
    ],
)
def test_the_table_of_store_strings_names_each_backend_and_its_extra(
    text: str, kind: str, extra: str
) -> None:
    backend = backend_for(text)
    assert (backend.kind, backend.extra) == (kind, extra)
    assert backend in (*BACKENDS, ANY_URL)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgresql+asyncpg://[::1", "not a store string"),
        ("postgresql+asyncpg://u@h:abc/db", "not a store string"),
        ("mysql+asyncmy://u:p@[::1/db", "not a store string"),
        ("postgresql+asyncpg://u@h:99999/db", "port 99999 is not a TCP port"),
        ("redis://[::1", "not a Redis URL: Invalid IPv6 URL"),
        ("redis://h:70000/0", "not a Redis URL: Port out of range"),
        ("redis://host/abc", "redis database 'abc' is not a number"),
        ("redis://host/0?db=x", "redis database 'x' is not a number"),
    ],
    ids=[
        "ipv6-open",
        "port-text",
        "mysql-ipv6-open",
        "port-range",
        "redis-ipv6-open",
        "redis-port-range",
        "redis-db-text",
        "redis-db-query",
    ],  # fmt: skip
)
def test_a_url_that_cannot_be_parsed_is_one_line_before_any_connection(
    url: str, expected: str
) -> None:
    """Regression for issue 33: these were 30 to 44-line tracebacks, and ``redis://host/abc``
    silently used database 0."""
    with pytest.raises(StoreError) as raised:
        parse_store(url)
    assert expected in str(raised.value) and "\n" not in str(raised.value)


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        (
            "postgresql+asyncpg://u:p@DB.example:5432/app",
            "postgresql+asyncpg://v@db.example/app",
            True,
        ),
        ("postgresql+asyncpg://u@db.example/app", "postgresql+asyncpg://u@db.example/other", False),
        ("mysql+asyncmy://u@db.example/app", "mysql+asyncmy://u@db.example:3307/app", False),
    ],
    ids=["default-port-and-case", "other-database", "other-port"],
)
def test_a_store_s_identity_names_the_server_and_database_however_spelt(
    one: str, other: str, same: bool
) -> None:
    from approval_compaction.doctor.sqlstore import SqlStore, _tables

    def identity(text: str) -> str:
        return SqlStore(parse_store(text), None, _tables(False), False, None).identity

    assert (identity(one) == identity(other)) is same
